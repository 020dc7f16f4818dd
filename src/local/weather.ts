import { guessZipCountry } from '../domain/zip';
import {
  forecastOfAnswer,
  NO_WEATHER_PLACE,
  roundCoordinate,
  weatherAnswerSchema,
  weatherFromForecast,
  type Weather,
  type WeatherAnswer,
} from '../domain/weather';
import type { KincareDb } from './db';
import { http } from './http';

// The header's weather on the device (src/app/README.md): the server's GET /api/weather for the person's
// profile zip code (nothing asked of them), or, when they chose to share it, for the device's position
// (5,000 ms timeout); and the Weather entity at the device's own hour (the greeting, and the moon at
// night). The position is never asked for on its own: only when the person chose it (weather-chip.tsx),
// or when the browser already has their permission. The last answer is kept in the replica (syncState,
// under WEATHER_KEY), so the header shows it offline with the time it was read, and it goes with the
// replica at sign-out. Every failure (no permission, no position, no connection, the service down) is only
// logged, and answered as what kind it was: the header keeps what it had, and says so only to someone who
// asked.

export const GEOLOCATION_TIMEOUT_MS = 5000;
/** A position up to 10 minutes old will do: the weather of a place does not change faster than that. */
export const GEOLOCATION_MAX_AGE_MS = 10 * 60 * 1000;
/** The syncState key of the last weather the server answered. */
export const WEATHER_KEY = 'weather';

/** The last answer and when the device got it (ISO). */
export type SavedWeather = { answer: WeatherAnswer; savedAt: string };

export type Coordinates = { latitude: number; longitude: number };

/** Where the weather is asked for: the profile's zip code, or the device's position. */
export type WeatherFrom = 'zip' | 'position';

/**
 * Why the weather was not updated: the position did not come (refused, timed out, no geolocation), the zip
 * code names no place the server knows (a PIN code), or the server, the service or the connection failed.
 */
export type WeatherFailure = { failed: 'no-position' | 'no-place' | 'unavailable' };

export type WeatherDeps = {
  /** The device's position; rejects when it is refused or does not come in time. */
  locate: () => Promise<Coordinates>;
  /** GET /api/weather's body for the position, or for the profile's zip code (null). */
  fetchAnswer: (position: Coordinates | null) => Promise<unknown>;
  now: () => Date;
};

/** The weather of a profile's zip code needs no position: a US zip code (a 6-digit PIN code is India's). */
export function weatherFromZip(zipCode: string | null | undefined): boolean {
  return guessZipCountry(zipCode ?? '') === 'US';
}

/** The position from the browser's geolocation, within its 5,000 ms timeout. */
export function locateDevice(geolocation: Geolocation | undefined = globalThis.navigator?.geolocation) {
  return new Promise<Coordinates>((resolve, reject) => {
    if (!geolocation) {
      reject(new Error('This browser has no geolocation.'));
      return;
    }
    geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude }),
      // GeolocationPositionError is not an Error: keep only its code and message, never a position.
      (failure) => reject(new Error(`Geolocation failed (${failure.code}): ${failure.message}`)),
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: GEOLOCATION_MAX_AGE_MS, enableHighAccuracy: false },
    );
  });
}

/**
 * Whether the browser already lets this site read the position ('granted': reading it asks nothing),
 * would ask the person ('prompt'), or refuses ('denied'). 'prompt' where the Permissions API cannot say.
 * Asking this is no request for the position.
 */
export async function locationPermission(
  permissions: Pick<Permissions, 'query'> | undefined = globalThis.navigator?.permissions,
): Promise<PermissionState> {
  if (!permissions) return 'prompt';
  try {
    return (await permissions.query({ name: 'geolocation' })).state;
  } catch {
    return 'prompt';
  }
}

/**
 * The server's weather for a position, or for the profile's zip code (no position). Quiet: a failure must
 * never become a toast. The server sees the position to 2 decimals only (about 1 km): the weather needs no
 * more.
 */
async function fetchWeatherAnswer(position: Coordinates | null): Promise<unknown> {
  const query = position
    ? `?${new URLSearchParams({
        latitude: String(roundCoordinate(position.latitude)),
        longitude: String(roundCoordinate(position.longitude)),
      }).toString()}`
    : '';
  const response = await http.get(`/weather${query}`, { quiet: true, timeout: 15_000 });
  return response.data;
}

const defaultDeps: WeatherDeps = {
  locate: () => locateDevice(),
  fetchAnswer: fetchWeatherAnswer,
  now: () => new Date(),
};

/** The last weather kept on the device, or null (none yet, or unreadable). */
export async function readSavedWeather(db: KincareDb): Promise<SavedWeather | null> {
  const entry = await db.syncState.get(WEATHER_KEY);
  if (typeof entry?.value !== 'string') return null;
  try {
    const stored = JSON.parse(entry.value) as { answer?: unknown; savedAt?: unknown };
    const answer = weatherAnswerSchema.shape.data.safeParse(stored.answer);
    if (!answer.success || typeof stored.savedAt !== 'string') return null;
    return { answer: answer.data, savedAt: stored.savedAt };
  } catch {
    return null;
  }
}

/**
 * Asks for the weather at the profile's zip code, or where the device is now (which reads the position:
 * only when the person chose it, or the browser already allows it), and keeps it. Answers what was kept,
 * or which kind of failure it was, which is logged (console.warn) and nothing more: the saved weather stays
 * as it was.
 */
export async function refreshWeather(
  db: KincareDb,
  from: WeatherFrom,
  deps: Partial<WeatherDeps> = {},
): Promise<SavedWeather | WeatherFailure> {
  const { locate, fetchAnswer, now } = { ...defaultDeps, ...deps };
  let position: Coordinates | null = null;
  try {
    if (from === 'position') position = await locate();
  } catch (error) {
    console.warn('Weather not updated:', describeFailure(error));
    return { failed: 'no-position' };
  }
  try {
    const parsed = weatherAnswerSchema.safeParse(await fetchAnswer(position));
    if (!parsed.success) throw new Error('The weather answer could not be read.');
    const saved: SavedWeather = { answer: parsed.data.data, savedAt: now().toISOString() };
    await db.syncState.put({ key: WEATHER_KEY, value: JSON.stringify(saved) });
    return saved;
  } catch (error) {
    console.warn('Weather not updated:', describeFailure(error));
    return { failed: isNoPlace(error) ? 'no-place' : 'unavailable' };
  }
}

/** The server's 404 for a zip code that names no place. */
function isNoPlace(error: unknown): boolean {
  const response = (error as { response?: { status?: unknown; data?: { code?: unknown } } } | null)?.response;
  return response?.status === 404 && response.data?.code === NO_WEATHER_PLACE;
}

/** What a failure was, without anything that could say where the person is (no address, no query). */
function describeFailure(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'response' in error) {
    const status = (error as { response?: { status?: unknown } }).response?.status;
    if (typeof status === 'number') return `the server answered ${status}`;
  }
  // axios's messages ('Network Error', 'timeout of 15000ms exceeded') and ours name no address.
  return error instanceof Error ? error.message : 'unknown failure';
}

/** The Weather entity of a saved answer at the device's time `at` (its hour picks the greeting and the moon). */
export function weatherAt(saved: SavedWeather, at: Date): Weather | null {
  const result = weatherFromForecast(
    forecastOfAnswer(saved.answer),
    { hour: at.getHours(), minute: at.getMinutes() },
    saved.answer.place ?? '',
  );
  if ('error' in result) {
    console.warn(result.error);
    return null;
  }
  return result.weather;
}
