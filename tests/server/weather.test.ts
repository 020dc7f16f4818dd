import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import { DEFAULT_WEATHER_API_URL } from '../../src/server/config-weather';
import { NO_WEATHER_PLACE } from '../../src/domain/weather';
import { WEATHER_MESSAGES, WEATHER_PER_MINUTE } from '../../src/server/routes/weather';
import { createWeatherService, WeatherServiceError } from '../../src/server/services/weather';
import { bearer, createUser, startTestApp, type TestContext, type TestUser } from './helpers';

// GET /api/weather against a local server that answers like Open-Meteo's /v1/forecast (and, when told,
// answers 500, junk, or nothing at all): what reaches the service (rounded coordinates only), what the
// device gets, what is refused, that answers are cached, and that the log never says where anyone is.

type Behaviour = 'weather' | 'error-500' | 'junk' | 'wrong-shape' | 'hang';

type FakeOpenMeteo = {
  url: string;
  behaviour: Behaviour;
  /** The query of every request, in order. */
  queries: URLSearchParams[];
  paths: string[];
  stop: () => Promise<void>;
};

async function startFakeOpenMeteo(): Promise<FakeOpenMeteo> {
  const hanging = new Set<ServerResponse>();
  const fake: Omit<FakeOpenMeteo, 'url' | 'stop'> = { behaviour: 'weather', queries: [], paths: [] };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.paths.push(url.pathname);
    fake.queries.push(url.searchParams);
    switch (fake.behaviour) {
      case 'hang':
        hanging.add(response);
        return;
      case 'error-500':
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":true,"reason":"boom"}');
        return;
      case 'junk':
        response.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
        return;
      case 'wrong-shape':
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"current":{"temperature_2m":"hot"}}');
        return;
      case 'weather':
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            latitude: Number(url.searchParams.get('latitude')),
            longitude: Number(url.searchParams.get('longitude')),
            timezone: 'America/New_York',
            current_units: { temperature_2m: '°C', weather_code: 'wmo code', is_day: '' },
            current: {
              time: '2026-11-24T14:00',
              interval: 900,
              temperature_2m: 12.4,
              weather_code: 3,
              is_day: 1,
            },
          }),
        );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A port nothing listens on: a server opened and closed at once. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

// A position in Manhattan with the precision a phone gives; rounded it is 40.71, -74.01.
const PRECISE = { latitude: '40.712776', longitude: '-74.005974' };

let fake: FakeOpenMeteo;
let ctx: TestContext;
let patient: TestUser;

const askWeather = (query: Record<string, string>, token: string | null = patient.token) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/weather',
    query,
    headers: token ? bearer(token) : {},
  });

beforeAll(async () => {
  fake = await startFakeOpenMeteo();
  ctx = await startTestApp({ WEATHER_API_URL: `${fake.url}/` }, { captureLogs: true });
  patient = await createUser(ctx, { zip_code: '10001' });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await fake.stop();
});
afterEach(() => {
  fake.behaviour = 'weather';
});

describe('GET /api/weather', () => {
  it("answers the current weather and the city of the person's zip, asking with rounded coordinates", async () => {
    const answer = await askWeather(PRECISE);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      data: { temperature_c: 12.4, weather_code: 3, time: '2026-11-24T14:00', place: 'New York' },
    });
    const sent = fake.queries.at(-1);
    expect(fake.paths.at(-1)).toBe('/v1/forecast');
    expect(sent?.get('latitude')).toBe('40.71');
    expect(sent?.get('longitude')).toBe('-74.01');
    expect(sent?.get('current')).toBe('temperature_2m,weather_code,is_day');
    expect(sent?.get('timezone')).toBe('auto');
    // Nothing else of the request (no other parameter that could carry the precise position).
    expect([...(sent?.keys() ?? [])].sort()).toEqual(['current', 'latitude', 'longitude', 'timezone']);
  });

  it('asks the service once per rounded coordinate within 10 minutes', async () => {
    const before = fake.queries.length;
    await askWeather({ latitude: '51.5072', longitude: '-0.1276' });
    await askWeather({ latitude: '51.5068', longitude: '-0.1281' }); // the same 51.51, -0.13
    expect(fake.queries.length - before).toBe(1);
    await askWeather({ latitude: '48.8566', longitude: '2.3522' });
    expect(fake.queries.length - before).toBe(2);
  });

  it('is for anyone signed in: a caregiver gets the weather too', async () => {
    const caregiver = await createUser(ctx, { role: 'Caregiver', zip_code: '60601' });
    const answer = await askWeather({ latitude: '41.88', longitude: '-87.63' }, caregiver.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<{ data: { place: string | null } }>().data.place).toBe('Chicago');
  });

  it('answers one person 20 times a minute, then 429 (another person is not held back)', async () => {
    const busy = await createUser(ctx, { zip_code: '10001' });
    const here = { latitude: '40.71', longitude: '-74.01' };
    for (let call = 0; call < WEATHER_PER_MINUTE; call += 1)
      expect((await askWeather(here, busy.token)).statusCode).toBe(200);
    const limited = await askWeather(here, busy.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await askWeather(here)).statusCode).toBe(200);
  });

  it('names no place when the zip is not in the table', async () => {
    const person = await createUser(ctx);
    await ctx.app.db.update(users).set({ zipCode: '00000' }).where(eq(users.id, person.userId));
    const answer = await askWeather({ latitude: '40.71', longitude: '-74.01' }, person.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<{ data: { place: string | null } }>().data.place).toBeNull();
  });

  it("without a position, answers the weather at the person's zip code, asking with its rounded coordinates", async () => {
    const answer = await askWeather({});
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      data: { temperature_c: 12.4, weather_code: 3, time: '2026-11-24T14:00', place: 'New York' },
    });
    // 10001 is at 40.7484, -73.9967 in the zip table.
    const sent = fake.queries.at(-1);
    expect([sent?.get('latitude'), sent?.get('longitude')]).toEqual(['40.75', '-74']);
    const caregiver = await createUser(ctx, { role: 'Caregiver', zip_code: '60601' });
    const chicago = await askWeather({}, caregiver.token);
    expect(chicago.statusCode, chicago.body).toBe(200);
    expect(chicago.json<{ data: { place: string | null } }>().data.place).toBe('Chicago');
  });

  it.each([
    ['a 6-digit PIN code', '560001'],
    ['a PIN code whose first five digits are a US zip code', '100010'],
    ['a zip code the table does not know', '00000'],
  ])('without a position and with %s, answers 404 and asks the service nothing', async (_case, zip) => {
    const person = await createUser(ctx);
    await ctx.app.db.update(users).set({ zipCode: zip }).where(eq(users.id, person.userId));
    const before = fake.queries.length;
    const answer = await askWeather({}, person.token);
    expect(answer.statusCode, answer.body).toBe(404);
    expect(answer.json()).toEqual({ message: WEATHER_MESSAGES.noPlace, code: NO_WEATHER_PLACE });
    expect(fake.queries.length).toBe(before);
    // With a position the weather still comes, and names no place.
    const here = await askWeather({ latitude: '40.71', longitude: '-74.01' }, person.token);
    expect(here.statusCode, here.body).toBe(200);
    expect(here.json<{ data: { place: string | null } }>().data.place).toBeNull();
  });

  it('refuses a caller without a valid sign-in before looking at the query', async () => {
    const before = fake.queries.length;
    for (const query of [PRECISE, { latitude: 'north' }, {}] as Record<string, string>[]) {
      expect((await askWeather(query, null)).statusCode).toBe(401);
      expect((await askWeather(query, 'not-a-token')).statusCode).toBe(401);
    }
    expect(fake.queries.length).toBe(before);
  });

  it.each([
    [{ latitude: '40.7' }, 'longitude is required.'],
    [{ longitude: '-74' }, 'latitude is required.'],
    [{ latitude: 'north', longitude: '0' }, 'latitude must be a number from -90 to 90.'],
    [{ latitude: '90.01', longitude: '0' }, 'latitude must be a number from -90 to 90.'],
    [{ latitude: '-91', longitude: '0' }, 'latitude must be a number from -90 to 90.'],
    [{ latitude: '1e1', longitude: '0' }, 'latitude must be a number from -90 to 90.'],
    [{ latitude: '0', longitude: '180.5' }, 'longitude must be a number from -180 to 180.'],
    [{ latitude: '0', longitude: 'Infinity' }, 'longitude must be a number from -180 to 180.'],
    [{ latitude: '0', longitude: '' }, 'longitude must be a number from -180 to 180.'],
  ])('refuses %j with 400 and says which coordinate is wrong', async (query, message) => {
    const before = fake.queries.length;
    const answer = await askWeather(query);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json<{ message: string }>().message).toBe(message);
    expect(fake.queries.length).toBe(before);
  });

  it('takes the edges of the world: ±90 latitude, ±180 longitude', async () => {
    expect((await askWeather({ latitude: '90', longitude: '-180' })).statusCode).toBe(200);
    expect((await askWeather({ latitude: '-90', longitude: '180' })).statusCode).toBe(200);
  });

  it.each([
    ['error-500', 502, WEATHER_MESSAGES.broken],
    ['junk', 502, WEATHER_MESSAGES.broken],
    ['wrong-shape', 502, WEATHER_MESSAGES.broken],
  ] as const)('answers %s from the service with %i and a message', async (behaviour, status, message) => {
    fake.behaviour = behaviour;
    // A coordinate of its own, so no cached answer hides the failure.
    const answer = await askWeather({ latitude: String(10 + fake.queries.length), longitude: '20' });
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toEqual({ message });
  });

  it('gives up on a service that does not answer within 5 seconds: 503', async () => {
    fake.behaviour = 'hang';
    const started = Date.now();
    const answer = await askWeather({ latitude: '-33.87', longitude: '151.21' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ message: WEATHER_MESSAGES.unavailable });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(Date.now() - started).toBeLessThan(9000);
  }, 15_000);

  it('answers 503 when the service cannot be reached', async () => {
    const unreachable = await startTestApp({ WEATHER_API_URL: await closedPortUrl() });
    try {
      const person = await createUser(unreachable);
      const answer = await unreachable.app.inject({
        method: 'GET',
        url: '/api/weather',
        query: PRECISE,
        headers: bearer(person.token),
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ message: WEATHER_MESSAGES.unavailable });
    } finally {
      await unreachable.close();
    }
  });

  it('never writes a coordinate or a zip code to the log, and logs which kind of failure it was', async () => {
    fake.behaviour = 'error-500';
    await askWeather({ latitude: '37.774929', longitude: '-122.419416' });
    const seattle = await createUser(ctx, { zip_code: '98101' });
    expect((await askWeather({}, seattle.token)).statusCode).toBe(502);
    // What the logger writes of its own (the time, the process id, how long a request took) is numbers
    // that may hold these digits by chance: a responseTime of 3.084910999998101 once held '98101'.
    const logs = ctx.logs().replace(/"(time|pid|responseTime)":[\d.e+-]+/g, '"$1":0');
    for (const value of ['98101', '47.61', '122.33', 'Seattle'])
      expect(logs, `the log holds ${value}`).not.toContain(value);
    expect(logs).toContain('"weatherFailure":"refused"');
    for (const value of [
      '37.77',
      '122.41',
      '122.42',
      '40.71',
      '40.712776',
      '74.00',
      '74.01',
      '51.50',
      '48.85',
    ]) {
      expect(logs, `the log holds ${value}`).not.toContain(value);
    }
    expect(logs).not.toMatch(/latitude|longitude/);
  });
});

describe('the weather service', () => {
  it('keeps an answer 10 minutes, then asks again', async () => {
    let clock = 1_000_000;
    const service = createWeatherService({ baseUrl: fake.url, now: () => clock });
    const before = fake.queries.length;
    await service.current(1.234, 5.678);
    clock += 9 * 60 * 1000;
    await service.current(1.231, 5.681);
    expect(fake.queries.length - before).toBe(1);
    clock += 61 * 1000;
    await service.current(1.23, 5.68);
    expect(fake.queries.length - before).toBe(2);
  });

  it('forgets the oldest coordinates past its size', async () => {
    const service = createWeatherService({ baseUrl: fake.url, cacheEntries: 2 });
    const before = fake.queries.length;
    for (const latitude of [1, 2, 3, 1]) await service.current(latitude, 0);
    expect(fake.queries.length - before).toBe(4);
  });

  it('keeps no failure: the next call asks again', async () => {
    const service = createWeatherService({ baseUrl: fake.url });
    fake.behaviour = 'junk';
    await expect(service.current(7, 7)).rejects.toBeInstanceOf(WeatherServiceError);
    fake.behaviour = 'weather';
    await expect(service.current(7, 7)).resolves.toMatchObject({ weather_code: 3 });
  });

  it('says a timeout is one, with the timeout given', async () => {
    const service = createWeatherService({ baseUrl: fake.url, timeoutMs: 200 });
    fake.behaviour = 'hang';
    await expect(service.current(8, 8)).rejects.toMatchObject({ kind: 'timeout', statusCode: 503 });
  });
});

describe('WEATHER_API_URL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kincare-weather-config-'));
  const config = (value?: string) =>
    loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'x'.repeat(40),
      ...(value === undefined ? {} : { WEATHER_API_URL: value }),
    });

  it("is Open-Meteo's API unless set, and loses a trailing slash", () => {
    expect(config().weatherApiUrl).toBe(DEFAULT_WEATHER_API_URL);
    expect(config('').weatherApiUrl).toBe('https://api.open-meteo.com');
    expect(config('http://weather.internal:8080/').weatherApiUrl).toBe('http://weather.internal:8080');
  });

  it.each(['ftp://weather.example', 'not a url', 'https://weather.example/?key=1'])('refuses %s', (value) => {
    expect(() => config(value)).toThrow(ConfigError);
    expect(() => config(value)).toThrow(/WEATHER_API_URL/);
  });
});
