import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { passwordResets, users } from '../../src/server/db/schema';
import {
  bearer,
  createUser,
  lastMailTo,
  readMailbox,
  resetDatabase,
  resetCodeIn,
  startTestApp,
  TEST_PASSWORD,
  type TestContext,
  type TestUser,
} from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  // The limits have their own test file; here they would cut the five-tries test short.
  ctx = await startTestApp({ RATE_LIMIT_OTP_PER_MINUTE: '100', RATE_LIMIT_LOGIN_PER_MINUTE: '100' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

const NEW_PASSWORD = 'brand-new-pass-2';

function post(url: string, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: `/api/auth/${url}`, payload });
}

/** Asks for a code and returns it from the mailbox. */
async function requestCode(email: string): Promise<string> {
  const response = await post('forgot-password', { email });
  expect(response.statusCode).toBe(200);
  return resetCodeIn(lastMailTo(ctx, email));
}

function wrongCodeFor(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

function profileWith(token: string) {
  return ctx.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });
}

function login(email: string, password: string) {
  return post('login', { email, password });
}

describe('POST /api/auth/forgot-password', () => {
  it('mails a 6-digit code valid for 10 minutes and keeps only its keyed hash', async () => {
    const user = await createUser(ctx);
    const mailsBefore = readMailbox(ctx).length;
    const response = await post('forgot-password', { email: user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: AUTH_MESSAGES.otpSent });
    expect(readMailbox(ctx)).toHaveLength(mailsBefore + 1);
    const code = resetCodeIn(lastMailTo(ctx, user.email));
    const [row] = await ctx.database.db.select().from(passwordResets);
    expect(row?.otpHash).not.toContain(code);
    const minutesValid = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutesValid).toBeGreaterThan(9.9);
    expect(minutesValid).toBeLessThanOrEqual(10);
  });

  it('answers an unknown e-mail exactly the same, and sends nothing', async () => {
    const response = await post('forgot-password', { email: 'nobody@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: AUTH_MESSAGES.otpSent });
    expect(readMailbox(ctx)).toEqual([]);
    expect(await ctx.database.db.select().from(passwordResets)).toEqual([]);
  });

  it('retires the earlier code when a new one is asked for', async () => {
    const user = await createUser(ctx);
    const first = await requestCode(user.email);
    const second = await requestCode(user.email);
    if (first !== second) {
      const old = await post('verify-otp', { email: user.email, otp: first });
      expect(old.json()).toEqual({ message: AUTH_MESSAGES.otpWrong });
    }
    expect((await post('verify-otp', { email: user.email, otp: second })).statusCode).toBe(200);
  });

  it.each([
    [{}, AUTH_MESSAGES.emailRequired],
    [{ email: 'not-an-email' }, AUTH_MESSAGES.emailInvalid],
  ])('refuses a bad email (%j) with 400', async (payload, message) => {
    const response = await post('forgot-password', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: 'email' }] });
  });
});

describe('POST /api/auth/verify-otp', () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await createUser(ctx);
  });

  it('accepts the mailed code and marks it verified', async () => {
    const code = await requestCode(user.email);
    const response = await post('verify-otp', { email: user.email, otp: code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'OTP verified successfully!' });
    const [row] = await ctx.database.db.select().from(passwordResets);
    expect(row?.verifiedAt).toBeInstanceOf(Date);
  });

  it('refuses a wrong code, counting the try', async () => {
    const code = await requestCode(user.email);
    const response = await post('verify-otp', { email: user.email, otp: wrongCodeFor(code) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpWrong });
    const [row] = await ctx.database.db.select().from(passwordResets);
    expect(row?.attempts).toBe(1);
  });

  it('retires the code after five wrong tries, even for the right code afterwards', async () => {
    const code = await requestCode(user.email);
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await post('verify-otp', { email: user.email, otp: wrongCodeFor(code) });
      expect(response.statusCode).toBe(400);
      answers.push(response.json<{ message: string }>().message);
    }
    expect(answers).toEqual([
      ...Array<string>(4).fill(AUTH_MESSAGES.otpWrong),
      AUTH_MESSAGES.otpTooManyTries,
    ]);
    const right = await post('verify-otp', { email: user.email, otp: code });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ message: AUTH_MESSAGES.otpTooManyTries });
    // A new code starts afresh.
    const next = await requestCode(user.email);
    expect((await post('verify-otp', { email: user.email, otp: next })).statusCode).toBe(200);
  });

  it('refuses the right code once 10 minutes have passed', async () => {
    const code = await requestCode(user.email);
    await ctx.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await post('verify-otp', { email: user.email, otp: code });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpWrong });
  });

  it('gives the same answer for an unknown e-mail', async () => {
    const response = await post('verify-otp', { email: 'nobody@example.com', otp: '123456' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpWrong });
  });

  it.each([
    ['otp', { email: 'a@example.com', otp: '12345' }, AUTH_MESSAGES.otpInvalid],
    ['otp', { email: 'a@example.com', otp: 'abcdef' }, AUTH_MESSAGES.otpInvalid],
    ['otp', { email: 'a@example.com' }, AUTH_MESSAGES.otpInvalid],
    ['email', { otp: '123456' }, AUTH_MESSAGES.emailRequired],
    ['email', { email: 'x', otp: '123456' }, AUTH_MESSAGES.emailInvalid],
  ])('refuses a bad %s with 400', async (field, payload, message) => {
    const response = await post('verify-otp', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
  });
});

describe('POST /api/auth/reset-password', () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await createUser(ctx);
  });

  it('sets the new password once the code is verified; old tokens and the code stop working', async () => {
    const code = await requestCode(user.email);
    expect((await post('verify-otp', { email: user.email, otp: code })).statusCode).toBe(200);
    const response = await post('reset-password', { email: user.email, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Reset password successfully!' });

    expect((await profileWith(user.token)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    // Single use: neither the code nor the reset works a second time.
    const again = await post('reset-password', { email: user.email, newPassword: 'yet-another-pass-3' });
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.otpNotVerified });
    const reuse = await post('verify-otp', { email: user.email, otp: code });
    expect(reuse.json()).toEqual({ message: AUTH_MESSAGES.otpWrong });
  });

  it('refuses without a verified code', async () => {
    await requestCode(user.email);
    const response = await post('reset-password', { email: user.email, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpNotVerified });
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses when the code was verified more than 10 minutes ago', async () => {
    const code = await requestCode(user.email);
    await post('verify-otp', { email: user.email, otp: code });
    await ctx.database.db.update(passwordResets).set({ verifiedAt: new Date(Date.now() - 11 * 60_000) });
    const response = await post('reset-password', { email: user.email, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpNotVerified });
  });

  it('refuses an unknown e-mail the same way', async () => {
    const response = await post('reset-password', { email: 'nobody@example.com', newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.otpNotVerified });
  });

  it('marks an unverified account verified: the code proved the mailbox', async () => {
    await post('register', {
      name: 'New Person',
      email: 'new.person@example.com',
      password: TEST_PASSWORD,
      role: 'Patient',
      zip_code: '10001',
    });
    const code = await requestCode('new.person@example.com');
    await post('verify-otp', { email: 'new.person@example.com', otp: code });
    await post('reset-password', { email: 'new.person@example.com', newPassword: NEW_PASSWORD });
    expect((await login('new.person@example.com', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it.each([
    ['newPassword', { email: 'a@example.com' }, PASSWORD_MESSAGES.required],
    ['newPassword', { email: 'a@example.com', newPassword: 'short1' }, PASSWORD_MESSAGES.tooShort],
    [
      'newPassword',
      { email: 'a@example.com', newPassword: 'lettersonly' },
      PASSWORD_MESSAGES.needsLetterAndNumber,
    ],
    [
      'newPassword',
      { email: 'a@example.com', newPassword: `a1${'x'.repeat(127)}` },
      PASSWORD_MESSAGES.tooLong,
    ],
    ['email', { newPassword: NEW_PASSWORD }, AUTH_MESSAGES.emailRequired],
  ])('refuses a bad %s with 400', async (field, payload, message) => {
    const response = await post('reset-password', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(message);
    expect(response.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe(field);
  });
});

describe('PUT /api/auth/change-password', () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await createUser(ctx);
  });

  function change(token: string | null, payload: Record<string, unknown>) {
    return ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: token ? bearer(token) : {},
      payload,
    });
  }

  const valid = { old_password: TEST_PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };

  it('changes the password and answers a new token; the old token stops working', async () => {
    const response = await change(user.token, valid);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ success: boolean; message: string; accessToken: string }>();
    expect(body).toEqual({
      success: true,
      message: 'Password changed successfully',
      accessToken: expect.any(String),
    });
    expect((await profileWith(user.token)).statusCode).toBe(401);
    expect((await profileWith(body.accessToken)).statusCode).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.userId));
    expect(row?.tokenVersion).toBe(1);
  });

  it('refuses a wrong old password', async () => {
    const response = await change(user.token, { ...valid, old_password: 'not-my-password-1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.oldPasswordWrong });
    expect((await profileWith(user.token)).statusCode).toBe(200);
  });

  it.each([
    ['old_password', { ...valid, old_password: '' }, PASSWORD_MESSAGES.required],
    [
      'new_password',
      { ...valid, new_password: 'short1', confirm_password: 'short1' },
      PASSWORD_MESSAGES.tooShort,
    ],
    ['confirm_password', { ...valid, confirm_password: 'different-pass-9' }, PASSWORD_MESSAGES.mismatch],
    [
      'new_password',
      { ...valid, new_password: TEST_PASSWORD, confirm_password: TEST_PASSWORD },
      PASSWORD_MESSAGES.sameAsOld,
    ],
  ])('refuses a bad %s with 400 and an errors list', async (field, payload, message) => {
    const response = await change(user.token, payload);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { msg: string; path: string }[] }>();
    expect(body.errors).toContainEqual({ msg: message, path: field });
  });

  it('needs a valid token', async () => {
    for (const token of [null, 'nonsense']) {
      const response = await change(token, valid);
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses an old token after a change', async () => {
    const first = await change(user.token, valid);
    expect(first.statusCode).toBe(200);
    const response = await change(user.token, {
      ...valid,
      old_password: NEW_PASSWORD,
      new_password: 'third-pass-3',
      confirm_password: 'third-pass-3',
    });
    expect(response.statusCode).toBe(401);
  });
});
