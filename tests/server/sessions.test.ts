import { createHmac, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionListResponseSchema, type Session } from '../../src/domain/auth';
import { passwordResets, sessions } from '../../src/server/db/schema';
import type * as Sessions from '../../src/server/services/sessions';
import { SESSION_USER_AGENT_MAX, touchSession } from '../../src/server/services/sessions';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import {
  bearer,
  createUser,
  lastMailTo,
  resetCodeIn,
  resetDatabase,
  startTestApp,
  TEST_PASSWORD,
  type TestContext,
  type TestUser,
} from './helpers';

// Sessions kept on the server: a token names its session, and ending the session (logout, logout-all,
// ending it from the list, a password change or reset) stops the token at once.

// The real writes of last_seen_at, watched: a request within the minute must not even try one.
vi.mock('../../src/server/services/sessions', async (importOriginal) => {
  const original = await importOriginal<typeof Sessions>();
  return { ...original, touchSession: vi.fn(original.touchSession) };
});
const touches = vi.mocked(touchSession);

let ctx: TestContext;
beforeAll(async () => {
  // These tests sign in many times; the limits have their own tests (auth-rate-limit.test.ts).
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

const SIGNED_OUT = 'Signed out.';
const SIGNED_OUT_EVERYWHERE = 'Signed out of all devices.';
const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';
/** The user agent of inject() calls that set none, as createUser's sign-in. */
const INJECT_AGENT = 'lightMyRequest';

async function signIn(
  user: TestUser,
  device: { userAgent?: string; address?: string } = {},
): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
    headers: { 'user-agent': device.userAgent ?? 'Test Browser/1.0' },
    remoteAddress: device.address ?? '127.0.0.1',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}

function call(method: 'GET' | 'POST' | 'DELETE', path: string, token: string) {
  return ctx.app.inject({ method, url: `/api/auth/${path}`, headers: bearer(token) });
}

const profileStatus = async (token: string) => (await call('GET', 'profile', token)).statusCode;

async function listSessions(token: string): Promise<Session[]> {
  const response = await call('GET', 'sessions', token);
  expect(response.statusCode, response.body).toBe(200);
  return sessionListResponseSchema.parse(response.json()).data;
}

function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A token signed with the server's secret, carrying exactly these claims. */
function signedToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${head}.${createHmac('sha256', ctx.config.jwtSecret).update(head).digest('base64url')}`;
}

describe('signing in', () => {
  it('opens a session with the browser and address, and a token naming it that expires', async () => {
    const user = await createUser(ctx);
    const longAgent = `Mozilla/5.0 ${'x'.repeat(1000)}`;
    const token = await signIn(user, { userAgent: longAgent, address: '203.0.113.7' });
    const claims = claimsOf(token);
    expect(claims.sub).toBe(user.userId);
    expect(typeof claims.sid).toBe('string');
    expect(typeof claims.exp).toBe('number');
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'sid', 'sub']);

    const [row] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, String(claims.sid)));
    expect(row?.userId).toBe(user.userId);
    expect(row?.address).toBe('203.0.113.7');
    expect(row?.userAgent).toBe(longAgent.slice(0, SESSION_USER_AGENT_MAX));
    expect(row?.endedAt).toBeNull();
    const hoursValid = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hoursValid).toBeGreaterThan(ctx.config.tokenTtlSeconds / 3600 - 0.1);
    expect(hoursValid).toBeLessThanOrEqual(ctx.config.tokenTtlSeconds / 3600);
  });

  it('refuses a token once its session has expired', async () => {
    const user = await createUser(ctx);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.userId));
    const response = await call('GET', 'profile', user.token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: SESSION_ENDED_MESSAGE });
  });
});

describe('POST /api/auth/logout', () => {
  it('ends this session only: its token is refused, another device stays signed in', async () => {
    const user = await createUser(ctx);
    const phone = await signIn(user, { userAgent: 'Phone' });
    const response = await call('POST', 'logout', user.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: SIGNED_OUT });
    expect(await profileStatus(user.token)).toBe(401);
    expect((await call('POST', 'logout', user.token)).statusCode).toBe(401);
    expect(await profileStatus(phone)).toBe(200);
  });
});

describe('POST /api/auth/logout-all', () => {
  it('ends every session of the person, this one too, and nobody else’s', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const phone = await signIn(user, { userAgent: 'Phone' });
    const response = await call('POST', 'logout-all', user.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: SIGNED_OUT_EVERYWHERE });
    expect(await profileStatus(user.token)).toBe(401);
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(other.token)).toBe(200);
    // Signing in again works, on a new session.
    expect(await profileStatus(await signIn(user))).toBe(200);
  });
});

describe('GET /api/auth/sessions', () => {
  it('lists the live sessions, newest first, marking the current one, without ended or others’', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const laptop = await signIn(user, { userAgent: 'Laptop', address: '198.51.100.2' });
    const phone = await signIn(user, { userAgent: 'Phone', address: '198.51.100.3' });
    const ended = await signIn(user, { userAgent: 'Ended' });
    await call('POST', 'logout', ended);
    // Created one after another in the same millisecond would tie: spread them out.
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.userId));
    for (const row of rows) {
      const order = { [INJECT_AGENT]: 3, Laptop: 2, Phone: 1, Ended: 0 }[row.userAgent] ?? 0;
      await ctx.database.db
        .update(sessions)
        .set({ createdAt: new Date(Date.now() - order * 60_000) })
        .where(eq(sessions.id, row.id));
    }

    const list = await listSessions(laptop);
    expect(list.map((session) => [session.user_agent, session.address, session.current])).toEqual([
      ['Phone', '198.51.100.3', false],
      ['Laptop', '198.51.100.2', true],
      [INJECT_AGENT, '127.0.0.1', false],
    ]);
    for (const session of list) {
      expect(new Date(session.created_at).toISOString()).toBe(session.created_at);
      expect(new Date(session.last_seen_at).toISOString()).toBe(session.last_seen_at);
    }
    expect((await listSessions(phone)).find((session) => session.current)?.user_agent).toBe('Phone');
    expect((await listSessions(other.token)).map((session) => session.current)).toEqual([true]);
  });

  it('shows at most 20', async () => {
    const user = await createUser(ctx);
    await ctx.database.db.insert(sessions).values(
      Array.from({ length: 25 }, (_, index) => ({
        userId: user.userId,
        createdAt: new Date(Date.now() - (index + 1) * 60_000),
        expiresAt: new Date(Date.now() + 3_600_000),
        userAgent: `Old ${index}`,
      })),
    );
    const list = await listSessions(user.token);
    expect(list).toHaveLength(20);
    expect(list[0]?.current).toBe(true);
    expect(list[19]?.user_agent).toBe('Old 18');
  });

  it('needs a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/auth/sessions/:id', () => {
  it('ends another session of the person, whose token then stops', async () => {
    const user = await createUser(ctx);
    const phone = await signIn(user, { userAgent: 'Phone' });
    const phoneSession = String(claimsOf(phone).sid);
    const response = await call('DELETE', `sessions/${phoneSession}`, user.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Session ended.' });
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(user.token)).toBe(200);
    // Already ended: not found, like any other id that is not a live session of theirs.
    expect((await call('DELETE', `sessions/${phoneSession}`, user.token)).statusCode).toBe(404);
  });

  it('answers 404 for another person’s session, which goes on working, and for an unknown id', async () => {
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    for (const id of [String(claimsOf(stranger.token).sid), randomUUID()]) {
      const response = await call('DELETE', `sessions/${id}`, user.token);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Session not found.' });
    }
    expect(await profileStatus(stranger.token)).toBe(200);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const user = await createUser(ctx);
    const response = await call('DELETE', 'sessions/not-a-uuid', user.token);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe('The session id is not valid.');
  });

  it('can end the caller’s own session', async () => {
    const user = await createUser(ctx);
    const own = String(claimsOf(user.token).sid);
    expect((await call('DELETE', `sessions/${own}`, user.token)).statusCode).toBe(200);
    expect(await profileStatus(user.token)).toBe(401);
  });
});

describe('tokens the server did not issue as they are', () => {
  it('answers 401, never 500, for tokens signed with the secret but with claims it does not issue', async () => {
    const user = await createUser(ctx);
    const { sub, sid, exp } = claimsOf(user.token);
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, Record<string, unknown>> = {
      'no exp': { sub, sid, iat: now },
      'an expired exp': { sub, sid, iat: now - 7200, exp: now - 3600 },
      'exp as text': { sub, sid, iat: now, exp: String(exp) },
      'no sid (an older token)': { sub, tv: 0, iat: now, exp },
      'a sid that is not a UUID': { sub, sid: 'nope', iat: now, exp },
      'a sub that is not a UUID': { sub: 'admin', sid, iat: now, exp },
      'a sub with a NUL': { sub: `${String(sub)}\u0000`, sid, iat: now, exp },
      'a numeric sub': { sub: 42, sid, iat: now, exp },
      'an object sid': { sub, sid: { id: sid }, iat: now, exp },
      'another person’s sub on this session': { sub: randomUUID(), sid, iat: now, exp },
      'an unknown session': { sub, sid: randomUUID(), iat: now, exp },
    };
    for (const [label, claims] of Object.entries(cases)) {
      const response = await call('GET', 'profile', signedToken(claims));
      expect(response.statusCode, label).toBe(401);
      expect(response.json(), label).toEqual({ message: SESSION_ENDED_MESSAGE });
    }
    // The same claims as issued do pass: the cases above fail for their claims, not for the signing.
    expect(await profileStatus(signedToken({ sub, sid, iat: now, exp }))).toBe(200);
  });
});

describe('last seen', () => {
  it('is written at most once a minute, not on every request', async () => {
    const user = await createUser(ctx);
    const sid = String(claimsOf(user.token).sid);
    const lastSeen = async () => {
      const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, sid));
      return row?.lastSeenAt.getTime();
    };
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    const thirtySecondsAgo = new Date(Date.now() - 30_000);

    await ctx.database.db.update(sessions).set({ lastSeenAt: thirtySecondsAgo }).where(eq(sessions.id, sid));
    touches.mockClear();
    for (let i = 0; i < 3; i += 1) expect(await profileStatus(user.token)).toBe(200);
    expect(await lastSeen()).toBe(thirtySecondsAgo.getTime());
    expect(touches.mock.calls.length).toBe(0); // (the calls hold the database object: too big to print)

    await ctx.database.db.update(sessions).set({ lastSeenAt: twoMinutesAgo }).where(eq(sessions.id, sid));
    const before = Date.now();
    expect(await profileStatus(user.token)).toBe(200);
    expect(await lastSeen()).toBeGreaterThanOrEqual(before - 5);
  });
});

describe('a password change or reset', () => {
  it('change-password ends every session and answers a token of a new one for this device', async () => {
    const user = await createUser(ctx);
    const phone = await signIn(user, { userAgent: 'Phone' });
    const newPassword = 'brand-new-pass-2';
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: { ...bearer(user.token), 'user-agent': 'Laptop' },
      payload: { old_password: TEST_PASSWORD, new_password: newPassword, confirm_password: newPassword },
    });
    expect(response.statusCode, response.body).toBe(200);
    const fresh = response.json<{ accessToken: string }>().accessToken;
    expect(await profileStatus(user.token)).toBe(401);
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(fresh)).toBe(200);
    expect((await listSessions(fresh)).map((session) => [session.user_agent, session.current])).toEqual([
      ['Laptop', true],
    ]);
  });

  it('reset-password ends every session of the person', async () => {
    const user = await createUser(ctx);
    const phone = await signIn(user, { userAgent: 'Phone' });
    const other = await createUser(ctx);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    const code = await waitFor(() => resetCodeOrNull(user.email));
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email: user.email, otp: code },
    });
    const { resetToken } = verified.json<{ resetToken: string }>();
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: user.email, newPassword: 'brand-new-pass-2', resetToken },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await profileStatus(user.token)).toBe(401);
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(other.token)).toBe(200);
    expect(await ctx.database.db.select().from(passwordResets)).toHaveLength(1);
  });
});

describe('purgeOldSessions, in the daily housekeeping', () => {
  it('removes sessions that ended or expired over 30 days ago and keeps the rest', async () => {
    const user = await createUser(ctx);
    const day = 24 * 3_600_000;
    const now = Date.now();
    const rows = {
      live: { expiresAt: new Date(now + day) },
      endedRecently: { expiresAt: new Date(now + day), endedAt: new Date(now - 29 * day) },
      expiredRecently: { expiresAt: new Date(now - 29 * day) },
      endedLongAgo: { expiresAt: new Date(now + day), endedAt: new Date(now - 31 * day) },
      expiredLongAgo: { expiresAt: new Date(now - 31 * day) },
    };
    for (const [label, row] of Object.entries(rows)) {
      await ctx.database.db.insert(sessions).values({ userId: user.userId, userAgent: label, ...row });
    }
    // The daily housekeeping does it.
    expect((await runHousekeeping(ctx.app, now)).sessions).toBe(2);
    const left = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.userId));
    expect(left.map((row) => row.userAgent).sort()).toEqual(
      [INJECT_AGENT, 'endedRecently', 'expiredRecently', 'live'].sort(),
    );
  });
});

function resetCodeOrNull(email: string): string | null {
  try {
    return resetCodeIn(lastMailTo(ctx, email));
  } catch {
    return null;
  }
}

async function waitFor<T>(probe: () => T | null, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
