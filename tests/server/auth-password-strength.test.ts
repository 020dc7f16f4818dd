import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { users } from '../../src/server/db/schema';
import {
  bearer,
  createUser,
  lastMailTo,
  resetCodeIn,
  resetDatabase,
  startTestApp,
  TEST_PASSWORD,
  type TestContext,
} from './helpers';
import { as, makePerson } from './fixtures';

// Passwords an attacker tries first against this site: its own name in every dress (Kincare1!,
// kincare2026, k1nc4re, KINCARE2026!!) and the person's own name and e-mail with digits, years and
// symbols around them. Refused wherever a password is set: register, invite registration, reset and
// change, with a sentence that says why; a password that is strong without those words stays welcome.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

const PRODUCT_VARIANTS = [
  'kincare2026',
  'Kincare1!',
  'KinCare123',
  'k1nc4re2026',
  'K1nC4r3!!',
  'KINCARE2026!!',
  '2026kincare!',
  'kinCare#2025!',
  'Kincare@2026',
  'k!nc@re99',
  'kincareKINCARE1',
  'eracnik2026!',
];

const person = { name: 'Asha Rao', email: 'asha.rao@example.com' };
const PERSONAL = [
  'AshaRao1980!',
  'asha.rao2026',
  'Rao-Asha-77',
  'ASHA.RAO@2026',
  '4sh4r40!99',
  'example2026!',
];

/** Strong on their own; the product's name in one of them adds nothing and takes nothing away. */
const STRONG = [TEST_PASSWORD, 'lilac-bicycle-42', 'kincare lilac bicycle 42', 'Tr0ub4dor&3x'];

const refusal = (field: string) => ({
  message: PASSWORD_MESSAGES.tooPersonal,
  errors: [{ msg: PASSWORD_MESSAGES.tooPersonal, path: field }],
});

function register(password: string, who = person) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { ...who, password, role: 'Patient', zip_code: '10001' },
  });
}

describe('register', () => {
  it.each(PRODUCT_VARIANTS)('refuses %j, the product name with a little around it', async (password) => {
    const answer = await register(password);
    expect([answer.statusCode, answer.json()]).toEqual([400, refusal('password')]);
    expect(await ctx.database.db.select().from(users)).toEqual([]);
  });

  it.each(PERSONAL)("refuses %j, built on the person's own name or e-mail", async (password) => {
    const answer = await register(password);
    expect([answer.statusCode, answer.json()]).toEqual([400, refusal('password')]);
    expect(await ctx.database.db.select().from(users)).toEqual([]);
  });

  it("judges a password by the person who signs up: another person's name is not theirs", async () => {
    // Strong for anyone but Asha Rao.
    expect(
      (await register('AshaRao-lilac-1980', { name: 'Bo Lee', email: 'bo@example.com' })).statusCode,
    ).toBe(201);
  });

  it.each(STRONG)('accepts %j', async (password) => {
    expect((await register(password)).statusCode).toBe(201);
  });
});

describe('the other places a password is set', () => {
  it('invite registration judges the password by the name given and the invitation e-mail', async () => {
    const patient = await makePerson(ctx, 'Patient', 'Pat Patient');
    const sent = await as(ctx, patient, {
      method: 'POST',
      url: '/api/request/send-request',
      payload: { caregiver_email: 'jordan.quill@example.com', permissions: ['ReadAppointment'] },
    });
    expect(sent.statusCode).toBe(200);
    const token = /\/invite\/register\/([A-Za-z0-9_-]+)/.exec(
      lastMailTo(ctx, 'jordan.quill@example.com') ?? '',
    )?.[1];
    const registerWith = (name: string, password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/invite-register',
        payload: { token, name, password, zip_code: '10001' },
      });
    for (const [name, password] of [
      ['Morgan Blythe', 'MorganBlythe2026!'],
      ['Morgan Blythe', 'JordanQuill2026!'],
      ['Morgan Blythe', 'Kincare2026!'],
    ] as const) {
      const answer = await registerWith(name, password);
      expect([answer.statusCode, answer.json()], password).toEqual([400, refusal('password')]);
    }
    expect(await ctx.database.db.select().from(users)).toHaveLength(1);
    expect((await registerWith('Morgan Blythe', TEST_PASSWORD)).statusCode).toBe(201);
  });

  it("reset-password judges the new password by the account's name and e-mail", async () => {
    const user = await createUser(ctx, { name: 'Asha Rao', email: person.email });
    const forgot = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    let mail: string | undefined;
    for (let attempt = 0; attempt < 100 && !/password is/.test(mail ?? ''); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      mail = lastMailTo(ctx, user.email);
    }
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email: user.email, otp: resetCodeIn(mail) },
    });
    const resetToken = verified.json<{ resetToken: string }>().resetToken;
    const reset = (newPassword: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: user.email, newPassword, resetToken },
      });
    for (const password of ['AshaRao1980!', 'Kincare2026!']) {
      const answer = await reset(password);
      expect([answer.statusCode, answer.json()], password).toEqual([400, refusal('newPassword')]);
    }
    // The refusals used nothing up: the same reset token still sets a good password.
    expect((await reset('brand-new-pass-2')).statusCode).toBe(200);
  });

  it("change-password judges the new password by the signed-in person's name and e-mail", async () => {
    const user = await createUser(ctx, { name: 'Asha Rao', email: person.email });
    const change = (newPassword: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/change-password',
        headers: bearer(user.token),
        payload: { old_password: TEST_PASSWORD, new_password: newPassword, confirm_password: newPassword },
      });
    for (const password of ['AshaRao1980!', 'asha.rao2026', 'KinCare123']) {
      const answer = await change(password);
      expect([answer.statusCode, answer.json()], password).toEqual([400, refusal('new_password')]);
    }
    expect((await change('brand-new-pass-2')).statusCode).toBe(200);
  });
});
