import { z } from 'zod';

// WEATHER_API_URL, kept apart so config.ts does not grow: the weather service the header's weather is
// asked from (GET /api/weather), by its Open-Meteo-shaped API. Tests point it at a local fake.

export const DEFAULT_WEATHER_API_URL = 'https://api.open-meteo.com';

/** An http(s) address with no query or fragment; its trailing slash is dropped ('/v1/forecast' follows). */
export const weatherApiUrlSchema = z.preprocess(
  (value: unknown) => (value === '' ? undefined : value),
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .refine((value) => !/[?#]/.test(value), 'must be an address with no query or fragment')
    .default(DEFAULT_WEATHER_API_URL)
    .transform((value) => value.replace(/\/+$/, '')),
);
