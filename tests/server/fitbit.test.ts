import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { FITBIT_MESSAGES } from '../../src/domain/fitbit';
import { ConfigError, loadConfig } from '../../src/server/config';
import { fitbitAuthorizations, fitbitConnections, fitbitDays } from '../../src/server/db/schema';
import { openToken } from '../../src/server/services/fitbit/token-box';
import { fitbitEnv, startFakeFitbit, type FakeFitbit } from './fake-fitbit';
import { as, link, makePerson, type Person } from './fixtures';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import {
  approvedSignIn,
  authorize,
  callback,
  connect,
  connectionRow,
  readData,
  type Data,
} from './fitbit-support';

// Fitbit on the real app against a local fake Fitbit (tests/server/fake-fitbit.ts):
// connecting with PKCE, what is refused (another account's userId, a bad, used or expired code), the
// tokens kept encrypted, the 30 days, who may read them, disconnecting, and a server without Fitbit.

let fake: FakeFitbit;
let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  fake = await startFakeFitbit();
  ctx = await startTestApp({ ...fitbitEnv(fake), PUBLIC_URL: 'https://kincare.example' });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await fake.stop();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  fake.reset();
  patient = await makePerson(ctx, 'Patient', 'Pat Fitbit');
});

describe('GET /api/fitbit/authorize', () => {
  it("answers Fitbit's sign-in page with PKCE (S256), the scopes and the callback page", async () => {
    const answer = await authorize(ctx, patient);
    expect(answer.statusCode).toBe(200);
    const url = new URL(answer.json<{ url: string }>().url);
    expect(`${url.origin}${url.pathname}`).toBe(fake.authorizeUrl);
    const query = url.searchParams;
    expect(query.get('response_type')).toBe('code');
    expect(query.get('client_id')).toBe(fake.clientId);
    expect(query.get('redirect_uri')).toBe('https://kincare.example/fitbit/callback');
    expect(query.get('scope')).toBe('activity heartrate sleep');
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is for patients only', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    const answer = await authorize(ctx, caregiver);
    expect(answer.statusCode).toBe(403);
  });
});

describe('POST /api/fitbit/callback', () => {
  it('exchanges the code with the PKCE verifier and keeps the connection', async () => {
    const { code, state } = await approvedSignIn(ctx, fake, patient);
    const answer = await callback(ctx, patient, { code, state, userId: patient.userId });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ message: FITBIT_MESSAGES.connected });
    const [sent] = fake.tokenRequests;
    expect(sent?.form.get('grant_type')).toBe('authorization_code');
    expect(sent?.form.get('client_id')).toBe(fake.clientId);
    expect(sent?.form.get('code')).toBe(code);
    expect(sent?.form.get('redirect_uri')).toBe('https://kincare.example/fitbit/callback');
    expect(sent?.form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A public (PKCE) client has no secret to send.
    expect(sent?.authorization).toBeUndefined();
    const [row] = await connectionRow(ctx, patient);
    expect(row?.fitbitUserId).toBe(fake.fitbitUserId);
    expect(row?.status).toBe('active');
  });

  it('keeps the tokens encrypted: no column holds them in clear, and they open with the server key only', async () => {
    await connect(ctx, fake, patient);
    const [row] = await connectionRow(ctx, patient);
    const stored = JSON.stringify(row);
    const { access, refresh } = fake.liveTokens();
    expect(access).toHaveLength(1);
    for (const token of [...access, ...refresh]) {
      expect(stored).not.toContain(token);
      // Not base64 of it either.
      expect(stored).not.toContain(Buffer.from(token).toString('base64').slice(0, 20));
    }
    const key = ctx.config.fitbit?.tokenKey;
    if (!key || !row) throw new Error('no key or row');
    expect(openToken(key, row.accessTokenEnc, row.patientId)).toBe(access[0]);
    expect(openToken(key, row.refreshTokenEnc, row.patientId)).toBe(refresh[0]);
    // Bound to its row: the same box does not open as another patient's.
    expect(openToken(key, row.accessTokenEnc, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it("refuses another account's userId (403) and connects nothing", async () => {
    const other = await makePerson(ctx, 'Patient', 'Other');
    const { code, state } = await approvedSignIn(ctx, fake, patient);
    const answer = await callback(ctx, patient, { code, state, userId: other.userId });
    expect(answer.statusCode).toBe(403);
    expect(answer.json<{ message: string }>().message).toBe(FITBIT_MESSAGES.wrongUser);
    expect(await connectionRow(ctx, patient)).toHaveLength(0);
    expect(fake.tokenRequests).toHaveLength(0);
  });

  it('answers 400 for a code Fitbit refuses, and connects nothing', async () => {
    const { state } = await approvedSignIn(ctx, fake, patient);
    const answer = await callback(ctx, patient, {
      code: 'not-a-code-fitbit-gave',
      state,
      userId: patient.userId,
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toBe(FITBIT_MESSAGES.codeRefused);
    expect(await connectionRow(ctx, patient)).toHaveLength(0);
  });

  it('takes a code once: sent again, or twice at once, it makes one connection and a 400', async () => {
    const first = await approvedSignIn(ctx, fake, patient);
    const body = { ...first, userId: patient.userId };
    const answers = await Promise.all([callback(ctx, patient, body), callback(ctx, patient, body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const again = await callback(ctx, patient, body);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ message: string }>().message).toBe(FITBIT_MESSAGES.noPendingConnection);
    expect(await connectionRow(ctx, patient)).toHaveLength(1);
    expect(
      fake.tokenRequests.filter((sent) => sent.form.get('grant_type') === 'authorization_code'),
    ).toHaveLength(1);
  });

  it('refuses a sign-in older than 10 minutes, and a state that is not the one sent', async () => {
    const late = await approvedSignIn(ctx, fake, patient);
    await ctx.database.db
      .update(fitbitAuthorizations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(fitbitAuthorizations.patientId, patient.patientId ?? ''));
    const expired = await callback(ctx, patient, { ...late, userId: patient.userId });
    expect(expired.statusCode).toBe(400);
    expect(expired.json<{ message: string }>().message).toBe(FITBIT_MESSAGES.noPendingConnection);
    const { code } = await approvedSignIn(ctx, fake, patient);
    const forged = await callback(ctx, patient, {
      code,
      state: 'someone-elses-state',
      userId: patient.userId,
    });
    expect(forged.statusCode).toBe(400);
    expect(await connectionRow(ctx, patient)).toHaveLength(0);
  });

  it('checks its body: code and userId, with clear messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: patient.userId }, 'code is required.'],
      [{ code: '', userId: patient.userId }, 'code is required.'],
      [{ code: 'a b<script>', userId: patient.userId }, 'code is not valid.'],
      [{ code: 'abc', userId: 'me' }, 'userId must be a user id (a UUID).'],
    ];
    for (const [body, message] of cases) {
      const answer = await callback(ctx, patient, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.body).toContain(message);
    }
  });
});

describe('GET /api/fitbit/data', () => {
  it('answers not connected before the patient connects, without asking Fitbit', async () => {
    const answer = await readData(ctx, patient);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      set_up: true,
      connected: false,
      reconnect: false,
      days: [],
      fetched_at: null,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers the last 30 days of steps, resting heart rate and sleep (summed per night), oldest first', async () => {
    await connect(ctx, fake, patient);
    const answer = await readData(ctx, patient);
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json<Data>();
    expect(data.connected).toBe(true);
    expect(data.reconnect).toBe(false);
    expect(data.fetched_at).not.toBeNull();
    expect(data.days.map((day) => day.date)).toEqual(fake.days.map((day) => day.date));
    expect(data.days[0]).toEqual({
      date: fake.days[0]?.date,
      steps: 4000,
      resting_heart_rate: 58,
      sleep_minutes: 380,
    });
    expect(data.days[3]?.resting_heart_rate).toBeNull();
    expect(data.days[5]?.sleep_minutes).toBeNull();
    expect(data.days[10]?.sleep_minutes).toBe(360);
    expect(data.days[29]?.steps).toBe(4000 + 29 * 200);
  });

  it('lets a linked caregiver with Read Medical History read them, and nobody else', async () => {
    await connect(ctx, fake, patient);
    const owners = (await readData(ctx, patient)).json<Data>();
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    await link(ctx, patient, reader, ['ReadMedicalHistory']);
    const allowed = await readData(ctx, reader, patient.patientId ?? '');
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<Data>().days).toEqual(owners.days);

    const withoutPermission = await makePerson(ctx, 'Caregiver', 'No history');
    await link(ctx, patient, withoutPermission, ['ReadAppointment', 'ReadLabReport']);
    const stranger = await makePerson(ctx, 'Caregiver', 'Stranger');
    const otherPatient = await makePerson(ctx, 'Patient', 'Other');
    for (const person of [withoutPermission, stranger, otherPatient]) {
      const refused = await readData(ctx, person, patient.patientId ?? '');
      expect(refused.statusCode, person.name).toBe(403);
      expect(refused.body).not.toContain(String(fake.days[0]?.steps));
    }
    // A caregiver must say whose.
    const unnamed = await readData(ctx, reader);
    expect(unnamed.statusCode).toBe(400);
  });

  it('checks its query', async () => {
    const answer = await readData(ctx, patient, 'not-a-uuid');
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('patient must be a patient id (a UUID).');
  });
});

describe('DELETE /api/fitbit', () => {
  it('tells Fitbit to end the access, and forgets the tokens and the days', async () => {
    await connect(ctx, fake, patient);
    await readData(ctx, patient);
    const other = await makePerson(ctx, 'Patient', 'Other');
    await connect(ctx, fake, other);
    const { refresh } = fake.liveTokens();
    const answer = await as(ctx, patient, { method: 'DELETE', url: '/api/fitbit' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: FITBIT_MESSAGES.disconnected });
    const id = patient.patientId ?? '';
    const db = ctx.database.db;
    expect(await db.select().from(fitbitConnections).where(eq(fitbitConnections.patientId, id))).toHaveLength(
      0,
    );
    expect(await db.select().from(fitbitDays).where(eq(fitbitDays.patientId, id))).toHaveLength(0);
    expect((await readData(ctx, patient)).json<Data>().connected).toBe(false);
    // Fitbit was told (the patient's refresh token, revoking their whole grant); the other's goes on.
    expect(fake.revoked).toHaveLength(1);
    expect(refresh).toContain(fake.revoked[0]);
    expect(fake.liveTokens().refresh).toHaveLength(1);
    expect((await readData(ctx, other)).json<Data>().connected).toBe(true);
  });

  it('forgets also when Fitbit cannot be told', async () => {
    await connect(ctx, fake, patient);
    fake.down = true;
    const answer = await as(ctx, patient, { method: 'DELETE', url: '/api/fitbit' });
    expect(answer.statusCode).toBe(200);
    expect(await connectionRow(ctx, patient)).toHaveLength(0);
  });
});

describe('a server without Fitbit set up', () => {
  it("answers 503 'not available' to connecting, 'not set up' to reading, and still lets a patient disconnect", async () => {
    const bare = await startTestApp();
    try {
      const person = await makePerson(bare, 'Patient');
      const calls = [authorize(bare, person), callback(bare, person, { code: 'abc', userId: person.userId })];
      for (const answer of await Promise.all(calls)) {
        expect(answer.statusCode).toBe(503);
        expect(answer.json<{ message: string }>().message).toBe(FITBIT_MESSAGES.notSetUp);
      }
      // Reading is not an error here: Home opens on every visit, and a failed request each time would
      // only fill the console. The answer says there is nothing to connect to.
      const read = await readData(bare, person);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({
        set_up: false,
        connected: false,
        reconnect: false,
        days: [],
        fetched_at: null,
      });
      // Still after the permission check: a stranger naming the patient is refused as anywhere else.
      const stranger = await makePerson(bare, 'Caregiver');
      const refused = await readData(bare, stranger, person.patientId ?? undefined);
      expect(refused.statusCode).toBe(403);
      const gone = await as(bare, person, { method: 'DELETE', url: '/api/fitbit' });
      expect(gone.statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('the FITBIT_* settings', () => {
  const base = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kincare-fitbit-config-')),
    JWT_SECRET: 'x'.repeat(40),
  };
  afterAll(() => rmSync(base.DATA_DIR, { recursive: true, force: true }));

  it("default to Fitbit's own addresses, and leave Fitbit off without FITBIT_CLIENT_ID", () => {
    expect(loadConfig(base).fitbit).toBeUndefined();
    const config = loadConfig({
      ...base,
      FITBIT_CLIENT_ID: '23ABCD',
      PUBLIC_URL: 'https://care.example/',
    }).fitbit;
    expect(config).toMatchObject({
      clientId: '23ABCD',
      clientSecret: undefined,
      authorizeUrl: 'https://www.fitbit.com/oauth2/authorize',
      tokenUrl: 'https://api.fitbit.com/oauth2/token',
      apiUrl: 'https://api.fitbit.com',
      redirectUri: 'https://care.example/fitbit/callback',
    });
    expect(config?.tokenKey).toHaveLength(32);
  });

  it('make the token key from FITBIT_TOKEN_KEY when given, else from the server secret', () => {
    const derived = loadConfig({ ...base, FITBIT_CLIENT_ID: 'a' }).fitbit?.tokenKey;
    const own = loadConfig({ ...base, FITBIT_CLIENT_ID: 'a', FITBIT_TOKEN_KEY: 'k'.repeat(32) }).fitbit
      ?.tokenKey;
    expect(own?.equals(derived ?? Buffer.alloc(0))).toBe(false);
    expect(
      loadConfig({ ...base, FITBIT_CLIENT_ID: 'a' }).fitbit?.tokenKey.equals(derived ?? Buffer.alloc(0)),
    ).toBe(true);
  });

  it('refuse a short key, an address with a query, and a client id with spaces, naming the variable', () => {
    const bad: Record<string, string>[] = [
      { FITBIT_TOKEN_KEY: 'too-short' },
      { FITBIT_TOKEN_URL: 'https://api.fitbit.com/oauth2/token?x=1' },
      { FITBIT_API_URL: 'ftp://api.fitbit.com' },
      { FITBIT_CLIENT_ID: 'two words' },
    ];
    for (const env of bad) {
      const name = Object.keys(env)[0] ?? '';
      expect(() => loadConfig({ ...base, FITBIT_CLIENT_ID: 'a', ...env }), name).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, FITBIT_CLIENT_ID: 'a', ...env }), name).toThrow(name);
    }
  });
});
