import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { careLinks, caregivers, patients, users } from '../../src/server/db/schema';
import { bearer, createUser, resetDatabase, startTestApp, type TestContext, type TestUser } from './helpers';

let ctx: TestContext;
let patient: TestUser;
let caregiver: TestUser;
beforeAll(async () => {
  // Two sign-ups per test from one address: the limits have their own tests (auth-rate-limit.test.ts).
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await createUser(ctx, { name: 'Pat Patient', role: 'Patient' });
  caregiver = await createUser(ctx, { name: 'Cara Giver', role: 'Caregiver' });
});

function get(url: string, token: string | null) {
  return ctx.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
}

async function roleIds() {
  const [patientRow] = await ctx.database.db
    .select()
    .from(patients)
    .where(eq(patients.userId, patient.userId));
  const [caregiverRow] = await ctx.database.db
    .select()
    .from(caregivers)
    .where(eq(caregivers.userId, caregiver.userId));
  if (!patientRow || !caregiverRow) throw new Error('role rows missing');
  return { patientId: patientRow.id, caregiverId: caregiverRow.id };
}

async function link() {
  const { patientId, caregiverId } = await roleIds();
  await ctx.database.db.insert(careLinks).values({ patientId, caregiverId, permissions: ['ReadDoctor'] });
}

describe('GET /api/auth/user-info', () => {
  it('tells a patient the id, name and role of their own caregiver with the e-mail, whatever its case, and nothing else', async () => {
    await link();
    // Details the person filled in must not reach whoever knows their e-mail.
    await ctx.database.db
      .update(users)
      .set({ phone: '+1 212 555 0199', address: '1 Main St', city: 'New York', birthDate: '1980-02-29' })
      .where(eq(users.id, caregiver.userId));
    const response = await get(
      `/api/auth/user-info?email=${encodeURIComponent(caregiver.email.toUpperCase())}`,
      patient.token,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { id: caregiver.userId, name: 'Cara Giver', role: 'Caregiver' },
    });
  });

  it('answers every other e-mail exactly like one nobody has: no name, no role, not even that it exists', async () => {
    const otherPatient = await createUser(ctx, { name: 'Other Patient', role: 'Patient' });
    const unknown = await get('/api/auth/user-info?email=nobody@example.com', patient.token);
    expect(unknown.statusCode).toBe(404);
    // A caregiver not linked to the caller, another patient.
    for (const email of [caregiver.email, otherPatient.email]) {
      const answer = await get(`/api/auth/user-info?email=${encodeURIComponent(email)}`, patient.token);
      expect([answer.statusCode, answer.body], email).toEqual([404, unknown.body]);
      expect(answer.body).not.toContain('Giver');
      expect(answer.body).not.toContain('Other Patient');
    }
    // The caller's caregiver once the link is gone.
    await link();
    await ctx.database.db.delete(careLinks);
    const unlinked = await get(`/api/auth/user-info?email=${caregiver.email}`, patient.token);
    expect([unlinked.statusCode, unlinked.body]).toEqual([404, unknown.body]);
  });

  it('answers 403 to anyone but a patient', async () => {
    const response = await get(`/api/auth/user-info?email=${patient.email}`, caregiver.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Only patients can look people up to invite them.' });
  });

  it('answers 404 when nobody has the e-mail', async () => {
    const response = await get('/api/auth/user-info?email=nobody@example.com', patient.token);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'None of your caregivers has this e-mail address.' });
  });

  it.each([
    ['', AUTH_MESSAGES.emailRequired],
    ['?email=', AUTH_MESSAGES.emailRequired],
    ['?email=not-an-email', AUTH_MESSAGES.emailInvalid],
    ['?email=a%00b@example.com', AUTH_MESSAGES.emailInvalid],
    ['?email=a%ED%A0%80b@example.com', AUTH_MESSAGES.emailInvalid],
  ])('refuses a bad email query (%j) with 400', async (query, message) => {
    const response = await get(`/api/auth/user-info${query}`, patient.token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: 'email' }] });
  });

  it('needs a token', async () => {
    expect((await get(`/api/auth/user-info?email=${patient.email}`, null)).statusCode).toBe(401);
  });
});

describe('GET /api/auth/:id', () => {
  it('shows oneself', async () => {
    const response = await get(`/api/auth/${patient.userId}`, patient.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, data: { id: patient.userId, role: 'Patient' } });
  });

  it('shows the other side of a care link, both ways', async () => {
    await link();
    const { caregiverId } = await roleIds();
    const seenByCaregiver = await get(`/api/auth/${patient.userId}`, caregiver.token);
    expect(seenByCaregiver.statusCode).toBe(200);
    expect(seenByCaregiver.json()).toMatchObject({ data: { id: patient.userId, name: 'Pat Patient' } });
    const seenByPatient = await get(`/api/auth/${caregiver.userId}`, patient.token);
    expect(seenByPatient.statusCode).toBe(200);
    expect(seenByPatient.json()).toMatchObject({ data: { id: caregiver.userId, caregiver_id: caregiverId } });
  });

  it('answers an unrelated user exactly like a missing one: 404', async () => {
    const stranger = await createUser(ctx, { role: 'Caregiver' });
    const unrelated = await get(`/api/auth/${patient.userId}`, stranger.token);
    const missing = await get(`/api/auth/${randomUUID()}`, stranger.token);
    for (const response of [unrelated, missing]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'User not found.' });
    }
  });

  it('refuses an id that is not a uuid with 400', async () => {
    const response = await get('/api/auth/not-a-uuid', patient.token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The user id is not valid.',
      errors: [{ msg: 'The user id is not valid.', path: 'id' }],
    });
  });

  it('does not capture /profile, /user-info or /sessions', async () => {
    expect((await get('/api/auth/profile', patient.token)).json()).toMatchObject({
      data: { id: patient.userId },
    });
    expect((await get(`/api/auth/user-info?email=${patient.email}`, patient.token)).json()).toEqual({
      message: 'None of your caregivers has this e-mail address.',
    });
    expect((await get('/api/auth/sessions', patient.token)).json()).toMatchObject({
      data: [{ current: true }],
    });
  });

  it('needs a token', async () => {
    expect((await get(`/api/auth/${patient.userId}`, null)).statusCode).toBe(401);
  });
});
