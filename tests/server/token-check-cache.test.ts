import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../src/server/db/schema';
import { startTestApp, type TestContext } from './helpers';
import { as, makePerson } from './fixtures';

// The auth plugin remembers the outcome of a token's signature check (fast-jwt's cache), never the
// session's: a token is refused once it expires, and once its session ends, even right after a call
// that it passed.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const profile = (token: string) => as(ctx, { token }, { method: 'GET', url: '/api/auth/profile' });

describe('the remembered token check', () => {
  it('refuses a token once it has expired, though its session lives on and it was accepted before', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const person = await makePerson(ctx, 'Patient');
    // The session outlives the token, so only the token's own expiry can refuse it.
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
      .where(eq(sessions.userId, person.userId));
    expect((await profile(person.token)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + ctx.config.tokenTtlSeconds * 1000 + 1000);
    expect((await profile(person.token)).statusCode).toBe(401);
  });

  it('refuses a token at once when its session ends, right after a call it passed', async () => {
    const person = await makePerson(ctx, 'Patient');
    expect((await profile(person.token)).statusCode).toBe(200);
    await ctx.database.db
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(eq(sessions.userId, person.userId));
    expect((await profile(person.token)).statusCode).toBe(401);
  });
});
