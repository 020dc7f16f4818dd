import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { bearer, createUser, resetDatabase, startTestApp, TEST_PASSWORD, type TestContext } from './helpers';

// The limits count per IP and e-mail (per account for change-password), per route, for one minute.
// Each test uses e-mails of its own, because the counters live in memory for the app's lifetime.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '3', RATE_LIMIT_OTP_PER_MINUTE: '3' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

function post(url: string, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: `/api/auth/${url}`, payload });
}

async function statusesOf(count: number, call: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await call()).statusCode);
  return statuses;
}

describe('rate limits', () => {
  it('answers the 4th sign-in for one e-mail with 429 and our message; another e-mail is unaffected', async () => {
    const statuses = await statusesOf(3, () =>
      post('login', { email: 'target@example.com', password: 'guess-1234' }),
    );
    expect(statuses).toEqual([401, 401, 401]);
    // The e-mail's case does not open a fresh counter.
    const fourth = await post('login', { email: 'TARGET@example.com', password: 'guess-1234' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect(fourth.headers['retry-after']).toBeDefined();

    const other = await post('login', { email: 'someone-else@example.com', password: 'guess-1234' });
    expect(other.statusCode).toBe(401);
  });

  it('does not count malformed sign-ins against the limit', async () => {
    await statusesOf(5, () => post('login', { email: 'malformed@example.com' }));
    const real = await post('login', { email: 'malformed@example.com', password: 'guess-1234' });
    expect(real.statusCode).toBe(401);
  });

  it('limits forgot-password per e-mail, keeping the same answer until the limit', async () => {
    const statuses = await statusesOf(3, () => post('forgot-password', { email: 'otp-target@example.com' }));
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await post('forgot-password', { email: 'otp-target@example.com' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect((await post('forgot-password', { email: 'otp-other@example.com' })).statusCode).toBe(200);
  });

  it('limits verify-otp per e-mail', async () => {
    const statuses = await statusesOf(4, () =>
      post('verify-otp', { email: 'guess@example.com', otp: '123456' }),
    );
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await post('verify-otp', { email: 'guess-other@example.com', otp: '123456' })).statusCode).toBe(
      400,
    );
  });

  it('limits change-password per account', async () => {
    const user = await createUser(ctx, { email: 'changer@example.com' });
    const attempt = () =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/change-password',
        headers: bearer(user.token),
        payload: {
          old_password: 'wrong-old-1',
          new_password: 'new-pass-123',
          confirm_password: 'new-pass-123',
        },
      });
    expect(await statusesOf(4, attempt)).toEqual([400, 400, 400, 429]);
    // The real password holder can still sign in: the limit is on this call, not the account.
    expect((await post('login', { email: 'changer@example.com', password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
  });
});
