import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { TEXT_MESSAGES } from '../../src/domain/text';
import { REGISTER_ATTEMPT_NOTICES_PER_HOUR } from '../../src/server/routes/auth-account';
import { caregivers, emailVerifications, patients, users } from '../../src/server/db/schema';
import {
  bearer,
  createUser,
  lastMailTo,
  readMailbox,
  resetDatabase,
  startTestApp,
  TEST_PASSWORD,
  verificationTokenIn,
  type TestContext,
} from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  // Many sign-ups from one address: the limits have their own tests (auth-rate-limit.test.ts).
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

const validBody = {
  name: 'Asha Rao',
  email: 'Asha.Rao@Example.com',
  password: TEST_PASSWORD,
  role: 'Patient',
  zip_code: '10001',
};

function register(payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/register', payload });
}

function login(email: string, password: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

function verify(token: unknown) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
}

describe('POST /api/auth/register', () => {
  it('creates a patient with a lower-cased e-mail, an Argon2id hash and a mailed verification link', async () => {
    const response = await register(validBody);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      success: true,
      message: 'Check your e-mail: we sent a message to this address with the next step.',
    });
    const [user] = await ctx.database.db.select().from(users);
    expect(user?.email).toBe('asha.rao@example.com');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user?.emailVerifiedAt).toBeNull();
    const patientRows = await ctx.database.db.select().from(patients);
    expect(patientRows.map((row) => row.userId)).toEqual([user?.id]);
    expect(await ctx.database.db.select().from(caregivers)).toEqual([]);

    const mail = lastMailTo(ctx, 'asha.rao@example.com');
    expect(mail).toContain(`${ctx.config.publicUrl}/verify-email/`);
    expect(mail).toContain('text/html');
    const token = verificationTokenIn(mail);
    const [stored] = await ctx.database.db.select().from(emailVerifications);
    expect(stored?.tokenHash).not.toBe(token); // only a hash is kept
    const hoursValid = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hoursValid).toBeGreaterThan(23.9);
    expect(hoursValid).toBeLessThanOrEqual(24);
  });

  it('creates a caregivers row for a caregiver', async () => {
    const response = await register({ ...validBody, role: 'Caregiver', zip_code: '560001' });
    expect(response.statusCode).toBe(201);
    expect(await ctx.database.db.select().from(caregivers)).toHaveLength(1);
    expect(await ctx.database.db.select().from(patients)).toHaveLength(0);
  });

  it('answers a taken e-mail, whatever its case, as a new one; creates nothing and tells the owner by mail', async () => {
    const fresh = await register(validBody);
    expect(fresh.statusCode).toBe(201);
    const [owner] = await ctx.database.db.select().from(users);
    const again = await register({
      ...validBody,
      email: 'ASHA.RAO@example.COM',
      name: 'Someone Else',
      password: 'another-pass-77',
      role: 'Caregiver',
    });
    expect([again.statusCode, again.json()]).toEqual([fresh.statusCode, fresh.json()]);
    expect(await ctx.database.db.select().from(users)).toEqual([owner]);
    expect(await ctx.database.db.select().from(caregivers)).toEqual([]);
    expect(await ctx.database.db.select().from(emailVerifications)).toHaveLength(1);

    const mails = readMailbox(ctx).filter((mail) => mail.to === 'asha.rao@example.com');
    expect(mails).toHaveLength(2);
    const notice = lastMailTo(ctx, 'asha.rao@example.com') ?? '';
    expect(notice).toContain('Hello Asha Rao,');
    expect(notice).toContain('Someone tried to create a Kincare account with this e-mail address');
    expect(notice).toContain(`${ctx.config.publicUrl}/login`);
    expect(notice).toContain('Forgot password?');
    expect(notice).not.toContain('/verify-email/');
    expect(notice).not.toContain('Someone Else');
    // The owner still signs in with their own password; the one sent with the attempt opens nothing.
    expect((await login('asha.rao@example.com', 'another-pass-77')).statusCode).toBe(401);
  });

  it('tells the owner of a taken e-mail a few times an hour at most, however often someone tries', async () => {
    // An address of its own: the counts of this app outlive the database's reset between tests.
    const body = { ...validBody, email: 'flooded.owner@example.com' };
    expect((await register(body)).statusCode).toBe(201);
    for (let attempt = 0; attempt < REGISTER_ATTEMPT_NOTICES_PER_HOUR + 3; attempt += 1) {
      expect((await register(body)).statusCode).toBe(201);
    }
    const mails = readMailbox(ctx).filter((mail) => mail.to === body.email);
    expect(mails).toHaveLength(1 + REGISTER_ATTEMPT_NOTICES_PER_HOUR);
  });

  it.each([
    ['name', '', AUTH_MESSAGES.nameRequired],
    ['name', 'x'.repeat(101), AUTH_MESSAGES.nameTooLong],
    ['email', '', AUTH_MESSAGES.emailRequired],
    ['email', 'not-an-email', AUTH_MESSAGES.emailInvalid],
    ['password', '', PASSWORD_MESSAGES.required],
    ['password', 'abc1', PASSWORD_MESSAGES.tooShort],
    ['password', `a1${'x'.repeat(127)}`, PASSWORD_MESSAGES.tooLong],
    ['password', 'onlyletters', PASSWORD_MESSAGES.needsLetterAndNumber],
    ['role', 'Admin', AUTH_MESSAGES.roleInvalid],
    ['zip_code', '1234', AUTH_MESSAGES.zipInvalid],
  ])('refuses a bad %s (%j) with 400 and its message', async (field, value, message) => {
    const response = await register({ ...validBody, [field]: value });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { msg: string; path: string }[] }>();
    expect(body.message).toBe(message);
    expect(body.errors[0]).toEqual({ msg: message, path: field });
    expect(body.errors.every((error) => error.path === field)).toBe(true);
    expect(await ctx.database.db.select().from(users)).toHaveLength(0);
  });

  it.each(['password1', 'Password1!', 'qwerty123', 'Healthy123'])(
    'refuses the easy password %j with its message, though it passes the length and letter-and-number rule',
    async (password) => {
      const response = await register({ ...validBody, password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: PASSWORD_MESSAGES.tooEasy,
        errors: [{ msg: PASSWORD_MESSAGES.tooEasy, path: 'password' }],
      });
      expect(await ctx.database.db.select().from(users)).toHaveLength(0);
    },
  );

  it.each([
    ['a NUL byte', 'Asha\u0000Rao', TEXT_MESSAGES.controlCharacters],
    ['a lone surrogate', 'Asha\uD800Rao', TEXT_MESSAGES.brokenCharacters],
  ])('refuses a name with %s with 400 and its message, never 500', async (_label, name, message) => {
    const response = await register({ ...validBody, name });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: 'name' }] });
    expect(await ctx.database.db.select().from(users)).toHaveLength(0);
  });

  it('lists every missing field', async () => {
    const response = await register({});
    expect(response.statusCode).toBe(400);
    const paths = response.json<{ errors: { path: string }[] }>().errors.map((error) => error.path);
    expect(paths).toEqual(['name', 'email', 'password', 'role', 'zip_code']);
  });
});

describe('POST /api/auth/verify-email', () => {
  it('verifies the account once; the link then stops working', async () => {
    await register(validBody);
    const token = verificationTokenIn(lastMailTo(ctx, 'asha.rao@example.com'));
    const first = await verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      message: 'Your e-mail address is verified. You can sign in now.',
      already_verified: false,
    });
    const [user] = await ctx.database.db.select().from(users);
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);

    // Opening the link from the e-mail again is no error: the person is told to sign in.
    const second = await verify(token);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({
      success: true,
      message: AUTH_MESSAGES.emailAlreadyVerified,
      already_verified: true,
    });
    const [after] = await ctx.database.db.select().from(users);
    expect(after?.emailVerifiedAt?.getTime()).toBe(user?.emailVerifiedAt?.getTime()); // not verified anew
  });

  it('says "already verified" for an expired link of a verified account, and refuses it for an unverified one', async () => {
    await register(validBody);
    const token = verificationTokenIn(lastMailTo(ctx, 'asha.rao@example.com'));
    await ctx.database.db.update(emailVerifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await verify(token)).statusCode).toBe(400); // the account is not verified: the link is dead

    await ctx.database.db.update(users).set({ emailVerifiedAt: new Date() }); // verified by a newer link
    const response = await verify(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ already_verified: true });
  });

  it('does not take a used link of one account as verifying anyone else', async () => {
    await register(validBody);
    await register({ ...validBody, email: 'other@example.com' });
    const token = verificationTokenIn(lastMailTo(ctx, 'asha.rao@example.com'));
    expect((await verify(token)).statusCode).toBe(200);
    expect((await verify(token)).json()).toMatchObject({ already_verified: true });
    const [other] = await ctx.database.db.select().from(users).where(eq(users.email, 'other@example.com'));
    expect(other?.emailVerifiedAt).toBeNull();
  });

  it('refuses an expired link', async () => {
    await register(validBody);
    const token = verificationTokenIn(lastMailTo(ctx, 'asha.rao@example.com'));
    await ctx.database.db.update(emailVerifications).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await verify(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.verifyLinkInvalid });
  });

  it.each([
    ['an unknown token', 'a'.repeat(43)],
    ['a malformed token', 'short'],
    ['a token with bad characters', `${'a'.repeat(30)}/../x`],
    ['no token', undefined],
  ])('refuses %s with 400', async (_label, token) => {
    const response = await verify(token);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(AUTH_MESSAGES.verifyLinkInvalid);
  });
});

function resend(email: unknown, remoteAddress = '127.0.0.1') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/resend-verification',
    payload: { email },
    remoteAddress,
  });
}

/** Makes the newest verification link look older than the resend interval (5 minutes). */
async function ageLinks() {
  await ctx.database.db
    .update(emailVerifications)
    .set({ expiresAt: new Date(Date.now() + 24 * 3_600_000 - 10 * 60_000) });
}

describe('POST /api/auth/resend-verification', () => {
  it('gives the same answer for an unverified, a verified and an unknown e-mail; mails only the unverified', async () => {
    await register(validBody);
    const verified = await createUser(ctx, { email: 'done@example.com' });
    await ageLinks();
    const mailsBefore = readMailbox(ctx).length;
    const answers = [
      await resend('ASHA.RAO@example.com'),
      await resend(verified.email),
      await resend('nobody@example.com'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true, message: AUTH_MESSAGES.verificationResent });
    }
    const mails = readMailbox(ctx).slice(mailsBefore);
    expect(mails.map((mail) => mail.to)).toEqual(['asha.rao@example.com']);
    // The new link verifies the account.
    const fresh = verificationTokenIn(lastMailTo(ctx, 'asha.rao@example.com'));
    expect((await verify(fresh)).json()).toMatchObject({ already_verified: false });
    // Verified: what stops the sign-in now is only that a new patient has not chosen a plan yet.
    expect((await login(validBody.email, TEST_PASSWORD)).json()).toMatchObject({
      code: 'SUBSCRIPTION_REQUIRED',
    });
  });

  it('sends at most one link every few minutes, however often it is asked', async () => {
    await register(validBody);
    const before = readMailbox(ctx).length;
    for (let i = 0; i < 3; i += 1) expect((await resend(validBody.email)).statusCode).toBe(200);
    expect(readMailbox(ctx).length).toBe(before); // the registration mail is recent
  });

  it.each([
    ['no e-mail', undefined, AUTH_MESSAGES.emailRequired],
    ['a malformed e-mail', 'nope', AUTH_MESSAGES.emailInvalid],
  ])('refuses %s with 400', async (_label, email, message) => {
    const response = await resend(email);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(message);
  });

  it('is limited per address and e-mail (429), while another e-mail from the address still works', async () => {
    const limited = await startTestApp({ RATE_LIMIT_OTP_PER_MINUTE: '2' });
    try {
      const call = (email: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/resend-verification',
          payload: { email },
          remoteAddress: '203.0.113.9',
        });
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await call('someone@example.com')).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await call('someone@example.com');
      expect(refused.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await call('someone-else@example.com')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/auth/login', () => {
  it('answers a token, the role and the user id; the token opens the profile', async () => {
    const user = await createUser(ctx, { email: 'Login.Me@example.com', role: 'Caregiver' });
    const response = await login('LOGIN.ME@example.com', TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ success: boolean; accessToken: string; role: string; userId: string }>();
    expect(body).toEqual({
      success: true,
      accessToken: expect.any(String),
      role: 'Caregiver',
      userId: user.userId,
    });
    const profile = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(body.accessToken),
    });
    expect(profile.statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown e-mail', async () => {
    const user = await createUser(ctx);
    const wrongPassword = await login(user.email, 'wrong-password-1');
    const unknownEmail = await login('nobody@example.com', TEST_PASSWORD);
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: AUTH_MESSAGES.invalidCredentials });
    }
  });

  it('refuses an unverified account with 403 EMAIL_NOT_VERIFIED, and re-sends the link when the last is old', async () => {
    await register(validBody);
    const early = await login(validBody.email, TEST_PASSWORD);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: AUTH_MESSAGES.emailNotVerified, code: 'EMAIL_NOT_VERIFIED' });
    expect(readMailbox(ctx)).toHaveLength(1); // the registration mail is recent: no second one yet

    // Ten minutes later the first link may be lost: signing in sends a fresh one, which works.
    await ctx.database.db
      .update(emailVerifications)
      .set({ expiresAt: new Date(Date.now() + 24 * 3_600_000 - 10 * 60_000) });
    const later = await login(validBody.email, TEST_PASSWORD);
    expect(later.statusCode).toBe(403);
    expect(readMailbox(ctx)).toHaveLength(2);
    const freshToken = verificationTokenIn(lastMailTo(ctx, validBody.email));
    expect((await verify(freshToken)).statusCode).toBe(200);
    expect((await login(validBody.email, TEST_PASSWORD)).json()).toMatchObject({
      code: 'SUBSCRIPTION_REQUIRED',
    });
  });

  it('does not say "not verified" to someone without the password', async () => {
    await register(validBody);
    const response = await login(validBody.email, 'wrong-password-1');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.invalidCredentials });
  });

  it.each([
    ['email', { password: TEST_PASSWORD }, AUTH_MESSAGES.emailRequired],
    ['email', { email: 'nope', password: TEST_PASSWORD }, AUTH_MESSAGES.emailInvalid],
    ['password', { email: 'a@example.com' }, PASSWORD_MESSAGES.required],
    ['password', { email: 'a@example.com', password: '' }, PASSWORD_MESSAGES.required],
  ])('refuses a bad %s with 400', async (field, payload, message) => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
  });

  it('signs nobody in with a tampered or foreign token', async () => {
    const user = await createUser(ctx);
    const [header, payload] = user.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const headers of [bearer(forged), bearer('not-a-jwt'), {}]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
      expect(response.statusCode).toBe(401);
    }
  });

  it('stops a token once the account is gone', async () => {
    const user = await createUser(ctx);
    await ctx.database.db.delete(users).where(eq(users.id, user.userId));
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('describes every /auth route under the auth tag', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const authPaths = Object.keys(doc.paths).filter((path) => path.startsWith('/api/auth/'));
    expect(authPaths.sort()).toEqual(
      [
        '/api/auth/register',
        '/api/auth/verify-email',
        '/api/auth/resend-verification',
        '/api/auth/login',
        '/api/auth/forgot-password',
        '/api/auth/verify-otp',
        '/api/auth/reset-password',
        '/api/auth/change-password',
        '/api/auth/profile',
        '/api/auth/beta-policy',
        '/api/auth/validate-address',
        '/api/auth/update-profile',
        '/api/auth/user-info',
        '/api/auth/logout',
        '/api/auth/logout-all',
        '/api/auth/sessions',
        '/api/auth/sessions/{id}',
        '/api/auth/{id}',
        '/api/auth/invite/{token}',
        '/api/auth/invite-register',
        '/api/auth/onboarding',
      ].sort(),
    );
    for (const path of authPaths) {
      for (const operation of Object.values(doc.paths[path] ?? {})) expect(operation.tags).toEqual(['auth']);
    }
  });
});
