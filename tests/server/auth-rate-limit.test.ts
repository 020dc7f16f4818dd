import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { byAddress, LIMIT_FACTORS, limitBy } from '../../src/server/routes/auth-rate-limit';
import type * as Passwords from '../../src/server/services/passwords';
import { hashPassword } from '../../src/server/services/passwords';
import { makePerson } from './fixtures';
import { bearer, createUser, resetDatabase, startTestApp, TEST_PASSWORD, type TestContext } from './helpers';

// The limits count per minute, per route, against several keys at once: the address and the e-mail
// together, the address across e-mails (spraying), the e-mail across addresses (many addresses on one
// account), the person for signed-in calls. The counters live for the app's lifetime, so each test uses
// an address and e-mails of its own.

// The real hashing, watched: a call refused by a limit hashes no password.
vi.mock('../../src/server/services/passwords', async (importOriginal) => {
  const original = await importOriginal<typeof Passwords>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});
const hashCalls = vi.mocked(hashPassword);

const LOGIN = 3;
const OTP = 3;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({
    RATE_LIMIT_LOGIN_PER_MINUTE: String(LOGIN),
    RATE_LIMIT_OTP_PER_MINUTE: String(OTP),
  });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

let addressCounter = 0;
/** An address no other test has used (TEST-NET-2 and -3). */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${100 + Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function post(url: string, payload: Record<string, unknown>, address = '127.0.0.1') {
  return ctx.app.inject({ method: 'POST', url: `/api/auth/${url}`, payload, remoteAddress: address });
}

async function statusesOf(count: number, call: (index: number) => Promise<{ statusCode: number }>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await call(i)).statusCode);
  return statuses;
}

const repeat = <T>(value: T, count: number): T[] => Array<T>(count).fill(value);

describe('sign-in limits', () => {
  it('answers the 4th sign-in for one e-mail from one address with 429 and our message; another e-mail is unaffected', async () => {
    const address = freshAddress();
    const statuses = await statusesOf(LOGIN, () =>
      post('login', { email: 'target@example.com', password: 'guess-1234' }, address),
    );
    expect(statuses).toEqual(repeat(401, LOGIN));
    // The e-mail's case does not open a fresh counter.
    const fourth = await post('login', { email: 'TARGET@example.com', password: 'guess-1234' }, address);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);

    const other = await post('login', { email: 'someone-else@example.com', password: 'guess-1234' }, address);
    expect(other.statusCode).toBe(401);
  });

  it('does not count malformed sign-ins against the address and e-mail', async () => {
    const address = freshAddress();
    await statusesOf(5, () => post('login', { email: 'malformed@example.com' }, address));
    const real = await post('login', { email: 'malformed@example.com', password: 'guess-1234' }, address);
    expect(real.statusCode).toBe(401);
  });

  it('stops one address trying passwords on many accounts (spraying)', async () => {
    const address = freshAddress();
    const max = LOGIN * LIMIT_FACTORS.loginPerAddress;
    const statuses = await statusesOf(max + 1, (i) =>
      post('login', { email: `spray-${i}@example.com`, password: 'Summer2024!' }, address),
    );
    expect(statuses).toEqual([...repeat(401, max), 429]);
    // Another address is unaffected, and so are this address's other calls: each limit counts on its own.
    const elsewhere = await post('login', { email: 'spray-x@example.com', password: 'x1' }, freshAddress());
    expect(elsewhere.statusCode).toBe(401);
    const signUp = await post(
      'register',
      {
        name: 'Spray',
        email: 'spray-new@example.com',
        password: TEST_PASSWORD,
        role: 'Patient',
        zip_code: '10001',
      },
      address,
    );
    expect(signUp.statusCode).toBe(201);
  });

  it('stops many addresses trying passwords on one account', async () => {
    const max = LOGIN * LIMIT_FACTORS.loginPerEmail;
    const statuses = await statusesOf(max + 1, () =>
      post('login', { email: 'victim@example.com', password: 'guess-1234' }, freshAddress()),
    );
    expect(statuses).toEqual([...repeat(401, max), 429]);
  });

  it('counts IPv6 addresses per /64', async () => {
    const statuses = await statusesOf(LOGIN + 1, (i) =>
      post('login', { email: 'v6@example.com', password: 'guess-1234' }, `2001:db8:1:2::${i + 1}`),
    );
    expect(statuses).toEqual([...repeat(401, LOGIN), 429]);
  });
});

describe('password reset limits', () => {
  it('limits forgot-password per e-mail, keeping the same answer until the limit', async () => {
    const address = freshAddress();
    const statuses = await statusesOf(OTP, () =>
      post('forgot-password', { email: 'otp-target@example.com' }, address),
    );
    expect(statuses).toEqual(repeat(200, OTP));
    const fourth = await post('forgot-password', { email: 'otp-target@example.com' }, address);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect((await post('forgot-password', { email: 'otp-other@example.com' }, address)).statusCode).toBe(200);
  });

  it('limits the codes asked for one e-mail from many addresses', async () => {
    const max = OTP * LIMIT_FACTORS.otpPerEmail;
    const statuses = await statusesOf(max + 1, () =>
      post('forgot-password', { email: 'mailbomb@example.com' }, freshAddress()),
    );
    expect(statuses).toEqual([...repeat(200, max), 429]);
  });

  it('limits verify-otp per e-mail, and per address across e-mails', async () => {
    const address = freshAddress();
    const statuses = await statusesOf(OTP + 1, () =>
      post('verify-otp', { email: 'guess@example.com', otp: '123456' }, address),
    );
    expect(statuses).toEqual([...repeat(400, OTP), 429]);
    expect(
      (await post('verify-otp', { email: 'guess-other@example.com', otp: '123456' }, address)).statusCode,
    ).toBe(400);

    const sprayer = freshAddress();
    const max = OTP * LIMIT_FACTORS.otpPerAddress;
    const spray = await statusesOf(max + 1, (i) =>
      post('verify-otp', { email: `guess-${i}@example.com`, otp: '123456' }, sprayer),
    );
    expect(spray).toEqual([...repeat(400, max), 429]);
  });

  it('limits reset-password, and hashes no password for a refused call', async () => {
    const address = freshAddress();
    const attempt = () =>
      post(
        'reset-password',
        { email: 'reset-target@example.com', newPassword: 'brand-new-pass-2', resetToken: 'x'.repeat(43) },
        address,
      );
    hashCalls.mockClear();
    expect(await statusesOf(OTP + 1, attempt)).toEqual([...repeat(400, OTP), 429]);
    expect(hashCalls).not.toHaveBeenCalled();
  });
});

describe('sign-up limits', () => {
  it('limits new accounts per address, refusing before any password is hashed', async () => {
    const address = freshAddress();
    const max = OTP * LIMIT_FACTORS.registerPerAddress;
    const signUp = (i: number) =>
      post(
        'register',
        {
          name: 'Many Accounts',
          email: `many-${i}@example.com`,
          password: TEST_PASSWORD,
          role: 'Patient',
          zip_code: '10001',
        },
        address,
      );
    expect(await statusesOf(max, signUp)).toEqual(repeat(201, max));
    hashCalls.mockClear();
    const over = await signUp(max);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect(hashCalls).not.toHaveBeenCalled();
  });
});

describe('signed-in limits', () => {
  it('limits change-password per account', async () => {
    const user = await createUser(ctx, { email: 'changer@example.com' });
    const attempt = () =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/change-password',
        headers: bearer(user.token),
        payload: {
          old_password: 'wrong-old-1',
          new_password: 'brand-new-pass-2',
          confirm_password: 'brand-new-pass-2',
        },
      });
    expect(await statusesOf(LOGIN + 1, attempt)).toEqual([...repeat(400, LOGIN), 429]);
    // The real password holder can still sign in: the limit is on this call, not the account.
    const login = await post(
      'login',
      { email: 'changer@example.com', password: TEST_PASSWORD },
      freshAddress(),
    );
    expect(login.statusCode).toBe(200);
  });

  it('limits user-info per person', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const other = await makePerson(ctx, 'Patient');
    const lookUp = (token: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/auth/user-info?email=someone@example.com',
        headers: bearer(token),
        remoteAddress: freshAddress(),
      });
    const max = OTP * LIMIT_FACTORS.userInfoPerUser;
    expect(await statusesOf(max + 1, () => lookUp(patient.token))).toEqual([...repeat(404, max), 429]);
    expect((await lookUp(other.token)).statusCode).toBe(404);
  });
});

describe('limits shared through Redis', () => {
  // Two servers on one Redis, as behind a load balancer: the counter is one, whichever server answers.
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  const servers: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    redis.disconnect();
  });

  async function serverOnRedis(limitName: string): Promise<FastifyInstance> {
    const server = Fastify();
    await server.register(rateLimit, { global: false, redis });
    const ok = async () => ({ ok: true });
    server.post('/try', { preHandler: limitBy(server, [{ name: limitName, max: 3, key: byAddress }]) }, ok);
    server.post(
      '/other',
      { preHandler: limitBy(server, [{ name: `${limitName}-other`, max: 3, key: byAddress }]) },
      ok,
    );
    await server.ready();
    servers.push(server);
    return server;
  }

  it('holds across two servers, each limit with its own counter', async () => {
    await redis.connect().catch((error: unknown) => {
      throw new Error(`these tests need Redis at 127.0.0.1:6379: ${String(error)}`);
    });
    // Counters and an address of this run's own: Redis keeps them for a minute.
    const name = `test-${randomUUID()}`;
    const octet = () => Math.floor(Math.random() * 250) + 1;
    const network = `10.${octet()}.${octet()}`;
    const address = `${network}.1`;
    const [first, second] = [await serverOnRedis(name), await serverOnRedis(name)];
    if (!first || !second) throw new Error('no servers');
    const attempt = (server: FastifyInstance, url: string, remoteAddress = address) =>
      server.inject({ method: 'POST', url, remoteAddress }).then((response) => response.statusCode);
    const statuses: number[] = [];
    for (const server of [first, second, first, second]) statuses.push(await attempt(server, '/try'));
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await attempt(second, '/try', `${network}.2`)).toBe(200);
    expect(await attempt(first, '/other')).toBe(200);
  });
});
