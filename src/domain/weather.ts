import { z } from 'zod';
import { isNight } from './clock';

// The header's weather (src/app/README.md): the Weather entity { greeting, icon, weatherC, weatherF,
// place } built from the part of an Open-Meteo forecast answer it needs. Pure: the caller fetches the
// answer, passes the device's local hour and the place name, and only logs a refusal.

/**
 * Morning before 12, Afternoon before 18, otherwise Evening (README.md beside this file). The header's
 * 'Good …' text (clock.ts greetingFor) follows the same hours; a unit test holds the two together.
 */
export type WeatherGreeting = 'Morning' | 'Afternoon' | 'Evening';

export function weatherGreeting(hour: number): WeatherGreeting {
  if (hour < 12) return 'Morning';
  if (hour < 18) return 'Afternoon';
  return 'Evening';
}

/**
 * Night is before 06:00 or after 18:00. One rule for the whole app, kept in clock.ts:
 * 06:00 and 18:00 exactly are day ("before" and "after" are strict); 18:01 is night.
 */
export { isNight };

/** lucide-react icon names, as strings, so the domain does not import React. */
export type WeatherIcon =
  | 'Sun'
  | 'Moon'
  | 'CloudSun'
  | 'CloudMoon'
  | 'Cloud'
  | 'CloudFog'
  | 'CloudDrizzle'
  | 'CloudRain'
  | 'CloudSunRain'
  | 'CloudMoonRain'
  | 'CloudSnow'
  | 'CloudLightning';

// WMO weather codes as Open-Meteo sends them (https://open-meteo.com/en/docs, "WMO Weather
// interpretation codes"), by inclusive range; the daytime icon.
const CODE_RANGES: { from: number; to: number; icon: WeatherIcon }[] = [
  { from: 0, to: 0, icon: 'Sun' }, // clear sky
  { from: 1, to: 2, icon: 'CloudSun' }, // mainly clear, partly cloudy
  { from: 3, to: 3, icon: 'Cloud' }, // overcast
  { from: 45, to: 48, icon: 'CloudFog' }, // fog, depositing rime fog
  { from: 51, to: 57, icon: 'CloudDrizzle' }, // drizzle, freezing drizzle
  { from: 61, to: 67, icon: 'CloudRain' }, // rain, freezing rain
  { from: 71, to: 77, icon: 'CloudSnow' }, // snow fall, snow grains
  { from: 80, to: 82, icon: 'CloudSunRain' }, // rain showers: sun between the showers
  { from: 85, to: 86, icon: 'CloudSnow' }, // snow showers
  { from: 95, to: 99, icon: 'CloudLightning' }, // thunderstorm, with hail
];

// At night the sun icons become a moon.
const NIGHT_ICONS: Partial<Record<WeatherIcon, WeatherIcon>> = {
  Sun: 'Moon',
  CloudSun: 'CloudMoon',
  CloudSunRain: 'CloudMoonRain',
};

/**
 * The icon for a WMO code. A code Open-Meteo does not document (4 to 44, for example) gets a plain
 * cloud: the header still shows the temperature rather than losing the weather over an icon.
 */
export function weatherIcon(code: number, night: boolean): WeatherIcon {
  const day = CODE_RANGES.find((range) => code >= range.from && code <= range.to)?.icon ?? 'Cloud';
  return night ? (NIGHT_ICONS[day] ?? day) : day;
}

/** Whole degrees, as the header shows them; never '-0'. */
export function celsiusToFahrenheit(celsius: number): number {
  return wholeDegrees((celsius * 9) / 5 + 32);
}

// Adding 0 turns Math.round's -0 (for -0.4) into 0, which prints as '0'.
function wholeDegrees(value: number): number {
  return Math.round(value) + 0;
}

/**
 * The subset of GET https://api.open-meteo.com/v1/forecast?current=temperature_2m,weather_code,is_day
 * that the header reads. Other fields are allowed and dropped. Temperatures outside what Earth has
 * measured, codes outside 0 to 99 and a time that is not ISO are refused as a broken answer.
 */
export const openMeteoForecastSchema = z.object({
  current: z.object({
    temperature_2m: z.number().min(-100).max(70),
    weather_code: z.number().int().min(0).max(99),
    // Sent by Open-Meteo, but the app defines night by the hour, so the icon does not use it.
    is_day: z.union([z.literal(0), z.literal(1)]).optional(),
    time: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/),
  }),
});

export type OpenMeteoForecast = z.infer<typeof openMeteoForecastSchema>;

/** The Weather entity the header shows. */
export type Weather = {
  greeting: WeatherGreeting;
  icon: WeatherIcon;
  weatherC: number;
  weatherF: number;
  place: string;
};

export type WeatherResult = { weather: Weather } | { error: string };

/**
 * The Weather entity from an Open-Meteo answer, at the device's local `hour` (and `minute`, which only
 * matters at 18:xx), for `place`. A refused answer gives the reason to log.
 */
export function weatherFromForecast(
  answer: unknown,
  moment: { hour: number; minute?: number },
  place: string,
): WeatherResult {
  const parsed = openMeteoForecastSchema.safeParse(answer);
  if (!parsed.success) return { error: `Weather answer refused: ${z.prettifyError(parsed.error)}` };
  const { temperature_2m: celsius, weather_code: code } = parsed.data.current;
  return {
    weather: {
      greeting: weatherGreeting(moment.hour),
      icon: weatherIcon(code, isNight(moment.hour, moment.minute ?? 0)),
      weatherC: wholeDegrees(celsius),
      weatherF: celsiusToFahrenheit(celsius),
      place: place.trim(),
    },
  };
}

// ---- GET /api/weather (the server asks the weather service for the device) ----

/**
 * Coordinates leave the server rounded to 2 decimals (about 1 km): enough for the weather, and the
 * weather service never learns where exactly the person is. The server's cache keys on the same value.
 */
export function roundCoordinate(value: number): number {
  return Math.round(value * 100) / 100 + 0;
}

const coordinate = (name: string, limit: number) =>
  z
    .string({ error: `${name} is required.` })
    .trim()
    .regex(/^-?\d{1,3}(\.\d+)?$/, `${name} must be a number from -${limit} to ${limit}.`)
    .transform(Number)
    .refine((value) => Math.abs(value) <= limit, `${name} must be a number from -${limit} to ${limit}.`);

/**
 * The query of GET /api/weather: the device's position, as decimal degrees, or nothing at all for the weather
 * at the person's profile zip code (the header asks so unless the person chose to share their position).
 * One coordinate alone is refused, naming the other.
 */
export const weatherQuerySchema = z
  .object({
    latitude: coordinate('latitude', 90).optional(),
    longitude: coordinate('longitude', 180).optional(),
  })
  .superRefine((query, context) => {
    for (const [name, other] of [
      ['latitude', 'longitude'],
      ['longitude', 'latitude'],
    ] as const)
      if (query[name] === undefined && query[other] !== undefined)
        context.addIssue({ code: 'custom', message: `${name} is required.`, path: [name] });
  });

/** The code of the 404 for a person whose profile zip code names no place the weather can be had for. */
export const NO_WEATHER_PLACE = 'NO_WEATHER_PLACE';

/** What GET /api/weather answers: the forecast's current values and the person's city (null: unknown). */
export const weatherAnswerSchema = z.object({
  data: z.object({
    temperature_c: z.number().min(-100).max(70),
    weather_code: z.number().int().min(0).max(99),
    /** The service's time of the reading, local to the coordinates (ISO without zone). */
    time: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/),
    place: z.string().nullable(),
  }),
});

export type WeatherAnswer = z.infer<typeof weatherAnswerSchema>['data'];

/** The answer in the forecast shape weatherFromForecast reads. */
export function forecastOfAnswer(answer: WeatherAnswer): OpenMeteoForecast {
  return {
    current: { temperature_2m: answer.temperature_c, weather_code: answer.weather_code, time: answer.time },
  };
}
