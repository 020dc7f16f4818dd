import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { CARE_MESSAGES } from '../../src/domain/caregivers';
import { careLinks, careRequests, sessions, users } from '../../src/server/db/schema';
import {
  bearer,
  createUser,
  lastMailTo,
  resetDatabase,
  startTestApp,
  TEST_PASSWORD,
  type TestContext,
} from './helpers';
import { as, makePerson, type Person } from './fixtures';

// Invitations of people without an account: the mailed link to /invite/register/:token, registering as a
// caregiver through it (linked at once), and the single-use onboarding token for the first sign-in.
// Both tokens expire and work once; only keyed hashes of them are stored.

let ctx: TestContext;
let patient: Person;
const EMAIL = 'new.carer@example.com';
beforeAll(async () => {
  // Every test here calls the limited public routes; the limits have a test of their own below.
  ctx = await startTestApp({ RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
});

async function inviteToken(email = EMAIL): Promise<string> {
  const sent = await as(ctx, patient, {
    method: 'POST',
    url: '/api/request/send-request',
    payload: {
      caregiver_email: email,
      permissions: ['ReadAppointment', 'ReadDoctor'],
      relationship: 'Friend',
    },
  });
  expect(sent.statusCode).toBe(200);
  const mail = lastMailTo(ctx, email) ?? '';
  const match = /\/invite\/register\/([A-Za-z0-9_-]+)/.exec(mail);
  if (!match?.[1]) throw new Error('no invitation link in the mail');
  expect(mail).toContain(`${ctx.config.publicUrl}/invite/register/${match[1]}`);
  expect(mail).toContain('Pat Patient invited you');
  return match[1];
}

const info = (token: string) => ctx.app.inject({ method: 'GET', url: `/api/auth/invite/${token}` });
const register = (token: string, extra: Record<string, unknown> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/invite-register',
    payload: { token, name: 'New Carer', password: TEST_PASSWORD, zip_code: '10001', ...extra },
  });
const onboard = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/onboarding', payload: { token } });

function expectInvalidInvite(answer: { statusCode: number; json: () => { message: string } }) {
  expect([answer.statusCode, answer.json().message]).toEqual([404, CARE_MESSAGES.inviteInvalid]);
}

describe('invite registration', () => {
  it('mails a link, shows the invitation, registers a linked caregiver and signs them in once', async () => {
    const token = await inviteToken();
    expect(token).toHaveLength(43);
    const [stored] = await ctx.database.db.select().from(careRequests);
    expect(stored?.inviteTokenHash).toBeTruthy();
    expect(stored?.inviteTokenHash).not.toContain(token);

    expect((await info(token)).json()).toEqual({
      success: true,
      data: { email: EMAIL, patient_name: 'Pat Patient', permissions: ['ReadAppointment', 'ReadDoctor'] },
    });
    const registered = await register(token);
    expect(registered.statusCode).toBe(201);
    const body = registered.json();
    expect(body).toEqual({
      success: true,
      message: CARE_MESSAGES.inviteRegistered,
      onboardingToken: expect.any(String),
    });
    expect(body.onboardingToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [account] = await ctx.database.db.select().from(users).where(eq(users.email, EMAIL));
    expect(account).toMatchObject({ role: 'Caregiver', name: 'New Carer' });
    expect(account?.emailVerifiedAt).not.toBeNull();
    const [linkRow] = await ctx.database.db.select().from(careLinks);
    expect(linkRow).toMatchObject({
      patientId: patient.patientId,
      permissions: ['ReadAppointment', 'ReadDoctor'],
      relationship: 'Friend',
      requestId: stored?.id,
    });
    const [used] = await ctx.database.db.select().from(careRequests);
    expect(used).toMatchObject({ status: 'approved', caregiverId: linkRow?.caregiverId });
    expect(used?.onboardingTokenHash).not.toContain(body.onboardingToken);

    // The invitation works once.
    expectInvalidInvite(await register(token, { name: 'Someone Else' }));
    expectInvalidInvite(await info(token));

    const sessionsBefore = (await ctx.database.db.select().from(sessions)).length;
    const signedIn = await onboard(body.onboardingToken);
    expect(signedIn.statusCode).toBe(200);
    const login = signedIn.json();
    expect(login).toEqual({
      success: true,
      accessToken: expect.any(String),
      role: 'Caregiver',
      userId: account?.id,
    });
    expect(await ctx.database.db.select().from(sessions)).toHaveLength(sessionsBefore + 1);
    const patients = await ctx.app.inject({
      method: 'GET',
      url: '/api/request/associate-patients',
      headers: bearer(login.accessToken),
    });
    expect(patients.json().assigned_patients).toMatchObject([
      { patient_id: patient.patientId, name: 'Pat Patient' },
    ]);
    const patientSide = await as(ctx, patient, { method: 'GET', url: '/api/request/approved' });
    expect(patientSide.json().data).toMatchObject([{ name: 'New Carer', email: EMAIL, status: 'approved' }]);

    // The onboarding token works once; the password works as for anyone.
    const again = await onboard(body.onboardingToken);
    expect([again.statusCode, again.json().message]).toEqual([400, CARE_MESSAGES.onboardingInvalid]);
    const password = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: TEST_PASSWORD },
    });
    expect(password.statusCode).toBe(200);
  });

  it('refuses an expired invitation, a deleted one, and an expired onboarding token', async () => {
    const token = await inviteToken();
    await ctx.database.db.update(careRequests).set({ inviteExpiresAt: new Date(Date.now() - 1000) });
    expectInvalidInvite(await info(token));
    expectInvalidInvite(await register(token));
    expect(await ctx.database.db.select().from(users).where(eq(users.email, EMAIL))).toEqual([]);

    await ctx.database.db.delete(careRequests);
    const second = await inviteToken();
    const [request] = await ctx.database.db.select().from(careRequests);
    const deleted = await as(ctx, patient, {
      method: 'POST',
      url: '/api/request/delete',
      payload: { request_id: request?.id, status: 'sent', request_type: 'sent' },
    });
    expect(deleted.statusCode).toBe(200);
    expectInvalidInvite(await register(second));

    const third = await inviteToken();
    const { onboardingToken } = (await register(third)).json();
    await ctx.database.db.update(careRequests).set({ onboardingExpiresAt: new Date(Date.now() - 1000) });
    const late = await onboard(onboardingToken);
    expect([late.statusCode, late.json().message]).toEqual([400, CARE_MESSAGES.onboardingInvalid]);
  });

  it('answers 409 when an account with the e-mail appeared meanwhile, and links nobody', async () => {
    const token = await inviteToken();
    await createUser(ctx, { email: EMAIL, role: 'Caregiver' });
    const answer = await register(token);
    expect([answer.statusCode, answer.json().message]).toEqual([409, AUTH_MESSAGES.emailTaken]);
    expect(await ctx.database.db.select().from(careLinks)).toEqual([]);
    const [request] = await ctx.database.db.select().from(careRequests);
    expect(request).toMatchObject({ status: 'sent', inviteUsedAt: null });
  });

  it('refuses malformed tokens and bodies with the domain messages', async () => {
    const malformed = await info('short');
    expect([malformed.statusCode, malformed.json().message]).toEqual([400, CARE_MESSAGES.inviteInvalid]);
    expectInvalidInvite(await info('A'.repeat(43)));
    expectInvalidInvite(await register('A'.repeat(43)));
    const token = await inviteToken();
    const noName = await register(token, { name: '' });
    expect([noName.statusCode, noName.json().message]).toEqual([400, AUTH_MESSAGES.nameRequired]);
    const badZip = await register(token, { zip_code: 'abc' });
    expect([badZip.statusCode, badZip.json().message]).toEqual([400, AUTH_MESSAGES.zipInvalid]);
    expect((await register('bad')).statusCode).toBe(400);
    const badOnboarding = await onboard('bad');
    expect([badOnboarding.statusCode, badOnboarding.json().message]).toEqual([
      400,
      CARE_MESSAGES.onboardingInvalid,
    ]);
    const unknownOnboarding = await onboard('B'.repeat(43));
    expect([unknownOnboarding.statusCode, unknownOnboarding.json().message]).toEqual([
      400,
      CARE_MESSAGES.onboardingInvalid,
    ]);
    // Still usable after the refused attempts.
    expect((await register(token)).statusCode).toBe(201);
  });
});

describe('limits and logs of the public invitation calls', () => {
  it('limits guesses per address, and keeps invitation tokens out of the log', async () => {
    const limited = await startTestApp({ RATE_LIMIT_OTP_PER_MINUTE: '1' }, { captureLogs: true });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 7; index += 1) {
        const answer = await limited.app.inject({ method: 'GET', url: `/api/auth/invite/${'C'.repeat(43)}` });
        statuses.push(answer.statusCode);
      }
      expect(statuses.slice(0, 6)).toEqual([404, 404, 404, 404, 404, 404]);
      expect(statuses[6]).toBe(429);
      const onboarding: number[] = [];
      for (let index = 0; index < 7; index += 1) {
        const answer = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/onboarding',
          payload: { token: 'D'.repeat(43) },
        });
        onboarding.push(answer.statusCode);
      }
      expect(onboarding[6]).toBe(429);
      // The token in the path of GET /invite/:token is a secret: the request log must not hold it.
      expect(limited.logs()).toContain('/api/auth/onboarding');
      expect(limited.logs()).not.toContain('C'.repeat(43));
    } finally {
      await limited.close();
    }
  });
});
