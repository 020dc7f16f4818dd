import { openMeteoForecastSchema, roundCoordinate, type WeatherAnswer } from '../../domain/weather';

// The weather service by coordinates (Open-Meteo's API shape; src/server/routes/README.md), asked
// on behalf of the device: GET <WEATHER_API_URL>/v1/forecast with the current temperature and weather
// code. Coordinates are rounded to 2 decimals (about 1 km) before they leave the server, answers are kept
// per rounded coordinate for 10 minutes (the service updates its current values every 15), and a call
// that takes longer than 5 s is given up. Failures say only what kind they were: no coordinate, address
// or answer text ever goes into an error, so nothing of where a person is can reach the log.

export type WeatherReading = Omit<WeatherAnswer, 'place'>;

/** Why the weather could not be had: 'unreachable' and 'timeout' are 503, a broken answer 502. */
export type WeatherFailureKind = 'unreachable' | 'timeout' | 'refused' | 'broken-answer';

export class WeatherServiceError extends Error {
  constructor(readonly kind: WeatherFailureKind) {
    super(`weather service failed: ${kind}`);
  }

  get statusCode(): 502 | 503 {
    return this.kind === 'unreachable' || this.kind === 'timeout' ? 503 : 502;
  }
}

export type WeatherServiceOptions = {
  /** Open-Meteo's address, or a compatible service's, without a trailing slash. */
  baseUrl: string;
  timeoutMs?: number;
  cacheMs?: number;
  /** The most coordinates remembered at once; the oldest goes first. */
  cacheEntries?: number;
  now?: () => number;
};

export type WeatherService = {
  /** The current weather at the coordinates (rounded here); throws WeatherServiceError. */
  current(latitude: number, longitude: number): Promise<WeatherReading>;
};

export const WEATHER_TIMEOUT_MS = 5000;
export const WEATHER_CACHE_MS = 10 * 60 * 1000;

export function createWeatherService(options: WeatherServiceOptions): WeatherService {
  const timeoutMs = options.timeoutMs ?? WEATHER_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? WEATHER_CACHE_MS;
  const cacheEntries = options.cacheEntries ?? 5000;
  const now = options.now ?? Date.now;
  // A Map keeps insertion order: the first key is the oldest entry.
  const cache = new Map<string, { reading: WeatherReading; expiresAt: number }>();

  async function ask(latitude: number, longitude: number): Promise<WeatherReading> {
    const url = new URL(`${options.baseUrl}/v1/forecast`);
    url.search = new URLSearchParams({
      latitude: String(latitude),
      longitude: String(longitude),
      current: 'temperature_2m,weather_code,is_day',
      timezone: 'auto',
    }).toString();
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new WeatherServiceError(timedOut ? 'timeout' : 'unreachable');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new WeatherServiceError('refused');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new WeatherServiceError(timedOut ? 'timeout' : 'broken-answer');
    }
    const parsed = openMeteoForecastSchema.safeParse(body);
    if (!parsed.success) throw new WeatherServiceError('broken-answer');
    const { temperature_2m, weather_code, time } = parsed.data.current;
    return { temperature_c: temperature_2m, weather_code, time };
  }

  return {
    async current(latitude, longitude) {
      const rounded = [roundCoordinate(latitude), roundCoordinate(longitude)] as const;
      const key = rounded.join(',');
      const cached = cache.get(key);
      if (cached && cached.expiresAt > now()) return cached.reading;
      const reading = await ask(...rounded);
      cache.delete(key);
      cache.set(key, { reading, expiresAt: now() + cacheMs });
      while (cache.size > cacheEntries) {
        const oldest = cache.keys().next();
        if (oldest.done) break;
        cache.delete(oldest.value);
      }
      return reading;
    },
  };
}
