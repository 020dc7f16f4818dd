import {
  forecastOfAnswer,
  roundCoordinate,
  weatherAnswerSchema,
  weatherFromForecast,
  type Weather,
  type WeatherAnswer,
} from '../domain/weather';
import type { KincareDb } from './db';
import { http } from './http';

// The header's weather on the device (src/app/README.md): the device's position (5,000 ms
// timeout), the server's GET /api/weather, and the Weather entity at the device's own hour (the greeting,
// and the moon at night). The last answer is kept in the replica (syncState, under WEATHER_KEY), so the
// header shows it offline with the time it was read, and it goes with the replica at sign-out. Every
// failure (no permission, no position, no connection, the service down) is only logged: the header then
// keeps what it had, or shows nothing.

export const GEOLOCATION_TIMEOUT_MS = 5000;
/** A position up to 10 minutes old will do: the weather of a place does not change faster than that. */
export const GEOLOCATION_MAX_AGE_MS = 10 * 60 * 1000;
/** The syncState key of the last weather the server answered. */
export const WEATHER_KEY = 'weather';

/** The last answer and when the device got it (ISO). */
export type SavedWeather = { answer: WeatherAnswer; savedAt: string };

export type Coordinates = { latitude: number; longitude: number };

export type WeatherDeps = {
  /** The device's position; rejects when it is refused or does not come in time. */
  locate: () => Promise<Coordinates>;
  /** GET /api/weather's body for the position. */
  fetchAnswer: (position: Coordinates) => Promise<unknown>;
  now: () => Date;
};

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
 * Calls `ask` once the position may be asked for: at once when the person already allowed it; after
 * their first tap or key press when the browser would still have to ask them (a permission prompt on
 * page load, with nothing done yet, is what browsers and Lighthouse call bad practice); never when they
 * refused it (logged). Answers a function that stops waiting.
 */
export function whenLocationMayBeAsked(
  ask: () => void,
  permissions: Pick<Permissions, 'query'> | undefined = globalThis.navigator?.permissions,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = globalThis.window,
): () => void {
  let stopped = false;
  const gestures = ['pointerdown', 'keydown'] as const;
  const onGesture = () => {
    stopWaiting();
    if (!stopped) ask();
  };
  const stopWaiting = () => {
    for (const gesture of gestures) target.removeEventListener(gesture, onGesture);
  };
  const state = permissions
    ? permissions.query({ name: 'geolocation' }).then(
        (status) => status.state,
        () => 'prompt' as const,
      )
    : Promise.resolve('prompt' as const);
  void state.then((current) => {
    if (stopped) return;
    if (current === 'granted') ask();
    else if (current === 'denied') console.warn('Weather not updated: the location permission is refused.');
    else for (const gesture of gestures) target.addEventListener(gesture, onGesture);
  });
  return () => {
    stopped = true;
    stopWaiting();
  };
}

/**
 * The server's weather for a position. Quiet: a failure must never become a toast. The
 * server sees the position to 2 decimals only (about 1 km): the weather needs no more.
 */
async function fetchWeatherAnswer({ latitude, longitude }: Coordinates): Promise<unknown> {
  const query = new URLSearchParams({
    latitude: String(roundCoordinate(latitude)),
    longitude: String(roundCoordinate(longitude)),
  });
  const response = await http.get(`/weather?${query.toString()}`, { quiet: true, timeout: 15_000 });
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
 * Asks for the weather where the device is now and keeps it. Answers what was kept, or null after a
 * failure, which is logged (console.warn) and nothing more: the saved weather stays as it was.
 */
export async function refreshWeather(
  db: KincareDb,
  deps: Partial<WeatherDeps> = {},
): Promise<SavedWeather | null> {
  const { locate, fetchAnswer, now } = { ...defaultDeps, ...deps };
  try {
    const position = await locate();
    const parsed = weatherAnswerSchema.safeParse(await fetchAnswer(position));
    if (!parsed.success) throw new Error('The weather answer could not be read.');
    const saved: SavedWeather = { answer: parsed.data.data, savedAt: now().toISOString() };
    await db.syncState.put({ key: WEATHER_KEY, value: JSON.stringify(saved) });
    return saved;
  } catch (error) {
    console.warn('Weather not updated:', describeFailure(error));
    return null;
  }
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
