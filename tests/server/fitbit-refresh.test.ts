import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openToken } from '../../src/server/services/fitbit/token-box';
import { fitbitEnv, startFakeFitbit, type FakeFitbit } from './fake-fitbit';
import { makePerson, type Person } from './fixtures';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { connect, connectionRow, makeStale, readData, type Data } from './fitbit-support';

// Keeping a Fitbit connection alive against the local fake Fitbit: the days kept and
// Fitbit asked at most every 15 minutes, an expired access token refreshed once (Fitbit rotates the
// refresh token: the new one is kept), a revoked refresh token ending the connection (reconnect), and
// Fitbit down answered with the days kept. A confidential client sends its secret.

let fake: FakeFitbit;
let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  fake = await startFakeFitbit();
  ctx = await startTestApp(fitbitEnv(fake), { captureLogs: true });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await fake.stop();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  fake.reset();
  patient = await makePerson(ctx, 'Patient', 'Pat Fitbit');
  await connect(ctx, fake, patient);
});

const apiReads = () => fake.requests.filter((request) => request.path.startsWith('/1'));
const refreshes = () => fake.tokenRequests.filter((sent) => sent.form.get('grant_type') === 'refresh_token');

async function storedTokens() {
  const [row] = await connectionRow(ctx, patient);
  const key = ctx.config.fitbit?.tokenKey;
  if (!row || !key) throw new Error('no connection');
  return {
    row,
    access: openToken(key, row.accessTokenEnc, row.patientId),
    refresh: openToken(key, row.refreshTokenEnc, row.patientId),
  };
}

describe('reading Fitbit', () => {
  it('keeps the days and asks Fitbit again only after 15 minutes', async () => {
    const first = (await readData(ctx, patient)).json<Data>();
    expect(apiReads()).toHaveLength(3);
    fake.days = fake.days.map((day) => ({ ...day, steps: day.steps + 1 }));
    const second = (await readData(ctx, patient)).json<Data>();
    expect(apiReads()).toHaveLength(3);
    expect(second.days).toEqual(first.days);
    await makeStale(ctx, patient);
    const third = (await readData(ctx, patient)).json<Data>();
    expect(apiReads()).toHaveLength(6);
    expect(third.days[0]?.steps).toBe((first.days[0]?.steps ?? 0) + 1);
  });

  it('refreshes an expired access token once, keeps the rotated pair, and answers the days', async () => {
    const before = await storedTokens();
    fake.expireAccessTokens();
    const answer = await readData(ctx, patient);
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json<Data>();
    expect(data.connected).toBe(true);
    expect(data.days).toHaveLength(30);
    expect(refreshes()).toHaveLength(1);
    expect(refreshes()[0]?.form.get('refresh_token')).toBe(before.refresh);
    expect(refreshes()[0]?.form.get('client_id')).toBe(fake.clientId);
    const after = await storedTokens();
    const live = fake.liveTokens();
    expect(after.refresh).not.toBe(before.refresh);
    expect(live.refresh).toEqual([after.refresh]);
    expect(live.access).toContain(after.access);
    // Kept encrypted as well.
    expect(JSON.stringify(after.row)).not.toContain(after.refresh);
  });

  it('ends the connection when Fitbit refuses the refresh token, and asks to connect again', async () => {
    await readData(ctx, patient);
    fake.expireAccessTokens();
    fake.revokeRefreshTokens();
    await makeStale(ctx, patient);
    const answer = await readData(ctx, patient);
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json<Data>();
    expect(data).toMatchObject({ connected: false, reconnect: true });
    expect((await storedTokens()).row.status).toBe('ended');
    // Ended: Fitbit is not asked again until the patient connects again.
    await makeStale(ctx, patient);
    const asked = fake.requests.length;
    expect((await readData(ctx, patient)).json<Data>().reconnect).toBe(true);
    expect(fake.requests.length).toBe(asked);
    await connect(ctx, fake, patient);
    expect((await readData(ctx, patient)).json<Data>()).toMatchObject({ connected: true, reconnect: false });
  });

  it('answers the days kept when Fitbit is down (no 5xx), and logs it without any token', async () => {
    const kept = (await readData(ctx, patient)).json<Data>();
    fake.down = true;
    await makeStale(ctx, patient);
    const answer = await readData(ctx, patient);
    expect(answer.statusCode).toBe(200);
    const data = answer.json<Data>();
    expect(data.connected).toBe(true);
    expect(data.days).toEqual(kept.days);
    expect(data.fetched_at).toBe(kept.fetched_at);
    expect(ctx.logs()).toContain('Fitbit could not be read');
    const { access, refresh } = fake.liveTokens();
    for (const token of [...access, ...refresh]) expect(ctx.logs()).not.toContain(token);
  });
});

describe('a confidential Fitbit app', () => {
  it('sends its client secret in Basic auth to the token endpoint', async () => {
    const confidential = await startFakeFitbit({ clientId: 'server-app', clientSecret: 's3cret-of-the-app' });
    const app = await startTestApp(fitbitEnv(confidential));
    try {
      const person = await makePerson(app, 'Patient');
      await connect(app, confidential, person);
      const expected = `Basic ${Buffer.from('server-app:s3cret-of-the-app').toString('base64')}`;
      expect(confidential.tokenRequests[0]?.authorization).toBe(expected);
    } finally {
      await app.close();
      await confidential.stop();
    }
  });
});
