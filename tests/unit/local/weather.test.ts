import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { setHttpEvents } from '../../../src/local/http-events';
import {
  GEOLOCATION_MAX_AGE_MS,
  GEOLOCATION_TIMEOUT_MS,
  locateDevice,
  locationPermission,
  readSavedWeather,
  refreshWeather,
  weatherAt,
  weatherFromZip,
  WEATHER_KEY,
  type SavedWeather,
} from '../../../src/local/weather';
import { fakeServer, type Answer, type Call } from './support';

// The header's weather on the device: for the profile's zip code the server is asked without any position
// (and the position is never read); for the device's position it is read with a 5,000 ms timeout and the
// server asked with it rounded; the answer is kept in the replica and read back (offline) with its time,
// and every failure is only logged and answered as what kind it was: no toast, and the weather kept before
// stays.

const HERE = { latitude: 40.712776, longitude: -74.005974 };
const ANSWER = {
  data: { temperature_c: 12.4, weather_code: 0, time: '2026-11-24T14:00', place: 'New York' },
};

let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];
const toasts = vi.fn();
let warn: MockInstance<typeof console.warn>;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}weather-test-${crypto.randomUUID()}`);
  await db.open();
  route = () => ({ status: 200, data: ANSWER });
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  toasts.mockReset();
  setHttpEvents({ onUnauthorized: () => {}, onError: toasts });
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  warn.mockRestore();
  await db.delete();
});

const locate = () => Promise.resolve(HERE);
const at = (hour: number, minute = 0) => new Date(2026, 10, 24, hour, minute);
const warnings = () => warn.mock.calls.map((args: unknown[]) => args.map(String).join(' ')).join('\n');

describe('refreshWeather', () => {
  it('asks the server with the position rounded to 2 decimals and keeps the answer with its time', async () => {
    const saved = await refreshWeather(db, 'position', {
      locate,
      now: () => new Date('2026-11-24T14:05:00Z'),
    });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /weather?latitude=40.71&longitude=-74.01',
    ]);
    expect(saved).toEqual({ answer: ANSWER.data, savedAt: '2026-11-24T14:05:00.000Z' });
    expect(await readSavedWeather(db)).toEqual(saved);
    expect(toasts).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the server is down',
      () => ({ status: 503, data: { message: 'The weather service is not available right now.' } }),
    ],
    ['the service answered junk', () => ({ status: 502, data: { message: 'unreadable' } })],
    ['the answer is not weather', () => ({ status: 200, data: { data: { temperature_c: 'warm' } } })],
    ['the server failed', () => ({ status: 500 })],
  ])('when %s: only logs, keeps the weather it had, and never toasts', async (_case, answer) => {
    await refreshWeather(db, 'position', { locate, now: () => new Date('2026-11-24T09:00:00Z') });
    const before = await readSavedWeather(db);
    route = answer;
    expect(await refreshWeather(db, 'position', { locate })).toEqual({ failed: 'unavailable' });
    expect(await readSavedWeather(db)).toEqual(before);
    expect(toasts).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warnings()).not.toMatch(/40\.7|74\.0|latitude|longitude/);
  });

  it('with the position refused: asks nothing, saves nothing, only logs', async () => {
    const refused = () => Promise.reject(new Error('Geolocation failed (1): User denied Geolocation'));
    expect(await refreshWeather(db, 'position', { locate: refused })).toEqual({ failed: 'no-position' });
    expect(calls).toEqual([]);
    expect(await readSavedWeather(db)).toBeNull();
    expect(toasts).not.toHaveBeenCalled();
    expect(warnings()).toContain('denied');
  });
});

describe('the weather at the profile zip code', () => {
  it('asks the server with no position, and never reads the device position', async () => {
    const located = vi.fn(locate);
    const saved = await refreshWeather(db, 'zip', {
      locate: located,
      now: () => new Date('2026-11-24T14:05:00Z'),
    });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /weather']);
    expect(located).not.toHaveBeenCalled();
    expect(saved).toEqual({ answer: ANSWER.data, savedAt: '2026-11-24T14:05:00.000Z' });
    expect(await readSavedWeather(db)).toEqual(saved);
  });

  it('says when the server knows no place for the zip code, only logging it', async () => {
    route = () => ({
      status: 404,
      data: { message: 'Your profile has no US zip code to show the weather for.', code: 'NO_WEATHER_PLACE' },
    });
    expect(await refreshWeather(db, 'zip', { locate })).toEqual({ failed: 'no-place' });
    expect(toasts).not.toHaveBeenCalled();
    expect(warnings()).toContain('404');
    // Another 404 is no answer about the place.
    route = () => ({ status: 404, data: { message: 'Not found' } });
    expect(await refreshWeather(db, 'zip', { locate })).toEqual({ failed: 'unavailable' });
  });

  it.each([
    ['10001', true],
    [' 98101 ', true],
    ['560001', false],
    ['', false],
    [null, false],
  ])('a profile zip code %j gives the weather without a position: %s', (zip, byZip) => {
    expect(weatherFromZip(zip)).toBe(byZip);
  });
});

describe('locateDevice', () => {
  it('asks with a 5,000 ms timeout, accepting a position up to 10 minutes old', async () => {
    const getCurrentPosition = vi.fn<Geolocation['getCurrentPosition']>((success) =>
      success({ coords: { latitude: 1.5, longitude: 2.5 } } as GeolocationPosition),
    );
    const position = await locateDevice({ getCurrentPosition } as unknown as Geolocation);
    expect(position).toEqual({ latitude: 1.5, longitude: 2.5 });
    expect(getCurrentPosition.mock.calls[0]?.[2]).toMatchObject({
      timeout: GEOLOCATION_TIMEOUT_MS,
      maximumAge: GEOLOCATION_MAX_AGE_MS,
    });
    expect(GEOLOCATION_TIMEOUT_MS).toBe(5000);
    expect(GEOLOCATION_MAX_AGE_MS).toBe(600_000);
  });

  it('rejects with the reason when the position does not come (timeout, refusal, no geolocation)', async () => {
    const timeout = {
      getCurrentPosition: (_: unknown, failure: PositionErrorCallback) =>
        failure({ code: 3, message: 'Timeout expired' } as GeolocationPositionError),
    } as unknown as Geolocation;
    await expect(locateDevice(timeout)).rejects.toThrow('Geolocation failed (3): Timeout expired');
    await expect(locateDevice(undefined)).rejects.toThrow('no geolocation');
  });
});

describe('the weather shown', () => {
  const saved: SavedWeather = { answer: ANSWER.data, savedAt: '2026-11-24T14:05:00.000Z' };

  it('is the Weather entity at the device hour: sun by day, moon at night, C and F, the place', () => {
    expect(weatherAt(saved, at(14))).toEqual({
      greeting: 'Afternoon',
      icon: 'Sun',
      weatherC: 12,
      weatherF: 54,
      place: 'New York',
    });
    expect(weatherAt(saved, at(18, 1))?.icon).toBe('Moon');
    expect(weatherAt(saved, at(5, 59))?.icon).toBe('Moon');
    expect(weatherAt(saved, at(6))?.icon).toBe('Sun');
    expect(weatherAt(saved, at(21))?.greeting).toBe('Evening');
  });

  it('has no place when the server knows none', () => {
    expect(weatherAt({ ...saved, answer: { ...saved.answer, place: null } }, at(9))?.place).toBe('');
  });

  it('reads nothing from a damaged or foreign entry', async () => {
    await db.syncState.put({ key: WEATHER_KEY, value: '{not json' });
    expect(await readSavedWeather(db)).toBeNull();
    await db.syncState.put({ key: WEATHER_KEY, value: JSON.stringify({ answer: { temperature_c: 1 } }) });
    expect(await readSavedWeather(db)).toBeNull();
    await db.syncState.put({ key: WEATHER_KEY, value: 5 });
    expect(await readSavedWeather(db)).toBeNull();
  });

  it('goes with the replica: it lives in the user database, nowhere else', async () => {
    await refreshWeather(db, 'position', { locate });
    expect(db.name.startsWith(DB_PREFIX)).toBe(true);
    expect(localStorage.length).toBe(0);
  });
});

describe('locationPermission', () => {
  const permissionsIn = (state: PermissionState | 'broken') => ({
    query: vi.fn(() =>
      state === 'broken'
        ? Promise.reject(new TypeError('geolocation is not a permission name here'))
        : Promise.resolve({ state } as PermissionStatus),
    ),
  });

  it.each(['granted', 'prompt', 'denied'] as const)('says %s as the browser does', async (state) => {
    expect(await locationPermission(permissionsIn(state))).toBe(state);
  });

  it('says prompt where the browser cannot tell', async () => {
    expect(await locationPermission(permissionsIn('broken'))).toBe('prompt');
    expect(await locationPermission(undefined)).toBe('prompt');
  });
});
