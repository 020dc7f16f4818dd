import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './helpers';
import { makePerson, as } from './fixtures';

// Limits that hold however the server is deployed: counted in one Redis by every server (REDIS_URL), and
// keyed on the real client behind a proxy (TRUST_PROXY). The Redis tests use the machine's Redis (.ci/run
// starts it and sets REDIS_URL), each run under its own key prefix so runs never share a counter.

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) {
  console.warn('rate-limit-store.test.ts: REDIS_URL is not set, so the shared-limit tests are skipped.');
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');

/** A sign-in with a wrong password (the limit counts attempts, right or wrong), from `address` if given. */
function attemptLogin(ctx: TestContext, email: string, forwardedFor?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'not-the-password-1' },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

function uploadPdf(
  ctx: TestContext,
  person: { token: string; userId: string; patientId: string | null; caregiverId: string | null },
) {
  const boundary = `----rate-${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=lab',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe.skipIf(!REDIS_URL)('limits shared through Redis (REDIS_URL)', () => {
  const prefix = `kincare-test-${randomUUID()}:`;
  const env = {
    REDIS_URL: REDIS_URL ?? '',
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_LOGIN_PER_MINUTE: '3',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '2',
  };
  let first: TestContext;
  let second: TestContext;
  let redis: Redis;
  beforeAll(async () => {
    first = await startTestApp(env, { captureLogs: true });
    // A second server on the same database and the same Redis, as behind a load balancer.
    second = await startTestApp(env, { sharesDatabaseWith: first, captureLogs: true });
    redis = new Redis(REDIS_URL ?? '');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  /** Anything the servers said about counting without Redis: the reason a shared limit did not hold. */
  const redisTrouble = () =>
    [first, second]
      .flatMap((server) => server.logs().split('\n'))
      .filter((line) => line.includes('Redis'))
      .join('\n');

  it('holds a sign-in limit across two servers', async () => {
    const email = `shared-${randomUUID()}@example.com`;
    const answers = [];
    for (const server of [first, second, first]) answers.push((await attemptLogin(server, email)).statusCode);
    expect(answers).not.toContain(429);
    // The fourth attempt is over the limit of 3 on whichever server it reaches.
    expect((await attemptLogin(second, email)).statusCode, redisTrouble()).toBe(429);
    expect((await attemptLogin(first, email)).statusCode, redisTrouble()).toBe(429);
    // The counters are in Redis, under this run's prefix, and their names do not hold the e-mail.
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join('\n')).not.toContain(email);
  });

  it('holds a route limit (uploads per person) across two servers', async () => {
    const person = await makePerson(first, 'Patient');
    expect((await uploadPdf(first, person)).statusCode).toBe(201);
    expect((await uploadPdf(second, person)).statusCode).toBe(201);
    expect((await uploadPdf(first, person)).statusCode, redisTrouble()).toBe(429);
    expect((await uploadPdf(second, person)).statusCode, redisTrouble()).toBe(429);
  });

  it('keeps the counters of another prefix apart (another install, or another test run)', async () => {
    const email = `apart-${randomUUID()}@example.com`;
    const other = await startTestApp({ ...env, REDIS_KEY_PREFIX: `${prefix}other:` });
    try {
      for (let i = 0; i < 4; i += 1) await attemptLogin(first, email);
      expect((await attemptLogin(first, email)).statusCode).toBe(429);
      expect((await attemptLogin(other, email)).statusCode).not.toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('a Redis that does not answer', () => {
  it('neither stops nor holds requests: limits are counted in memory until it is back', async () => {
    // Port 1 refuses connections at once; the server must start, answer quickly, and keep its limits.
    const ctx = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_LOGIN_PER_MINUTE: '2' });
    try {
      const email = `offline-${randomUUID()}@example.com`;
      const started = Date.now();
      expect((await attemptLogin(ctx, email)).statusCode).not.toBe(429);
      expect((await attemptLogin(ctx, email)).statusCode).not.toBe(429);
      expect((await attemptLogin(ctx, email)).statusCode).toBe(429);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await ctx.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  let trusting: TestContext;
  let direct: TestContext;
  beforeAll(async () => {
    // inject() connects from 127.0.0.1: here, the proxy.
    trusting = await startTestApp(
      { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_LOGIN_PER_MINUTE: '2' },
      { captureLogs: true },
    );
    direct = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '2' }, { captureLogs: true });
  });
  afterAll(async () => {
    await trusting.close();
    await direct.close();
  });

  /** The addresses the app logged its requests as coming from. */
  const loggedAddresses = (ctx: TestContext) =>
    ctx
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { req?: { remoteAddress?: string } })
      .flatMap((entry) => (entry.req?.remoteAddress ? [entry.req.remoteAddress] : []));

  it("behind a trusted proxy, keys limits (and logs) on the client's address from X-Forwarded-For", async () => {
    const email = `proxied-${randomUUID()}@example.com`;
    expect((await attemptLogin(trusting, email, '203.0.113.7')).statusCode).not.toBe(429);
    expect((await attemptLogin(trusting, email, '203.0.113.7')).statusCode).not.toBe(429);
    expect((await attemptLogin(trusting, email, '203.0.113.7')).statusCode).toBe(429);
    // Another client behind the same proxy has its own count.
    expect((await attemptLogin(trusting, email, '198.51.100.9')).statusCode).not.toBe(429);
    expect(loggedAddresses(trusting)).toContain('203.0.113.7');
    expect(loggedAddresses(trusting)).toContain('198.51.100.9');
    expect(loggedAddresses(trusting)).not.toContain('127.0.0.1');
  });

  it('without TRUST_PROXY, ignores X-Forwarded-For: a client cannot pick a fresh address per attempt', async () => {
    const email = `direct-${randomUUID()}@example.com`;
    expect((await attemptLogin(direct, email, '203.0.113.7')).statusCode).not.toBe(429);
    expect((await attemptLogin(direct, email, '203.0.113.8')).statusCode).not.toBe(429);
    expect((await attemptLogin(direct, email, '198.51.100.9')).statusCode).toBe(429);
    expect(new Set(loggedAddresses(direct))).toEqual(new Set(['127.0.0.1']));
  });

  it('with a hop count, trusts that many proxies and no more', async () => {
    const hops = await startTestApp({ TRUST_PROXY: '1' }, { captureLogs: true });
    try {
      // The nearest proxy (127.0.0.1) is trusted and says 203.0.113.50; what the client put before it is not believed.
      await hops.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.50' },
      });
      expect(loggedAddresses(hops)).toContain('203.0.113.50');
      expect(loggedAddresses(hops)).not.toContain('10.9.9.9');
    } finally {
      await hops.close();
    }
  });
});
