import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/domain/auth';
import { careLinks, caregivers, patients } from '../../src/server/db/schema';
import { bearer, createUser, resetDatabase, startTestApp, type TestContext, type TestUser } from './helpers';

let ctx: TestContext;
let patient: TestUser;
let caregiver: TestUser;
beforeAll(async () => {
  ctx = await startTestApp();
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
  it('finds a user by e-mail, whatever its case', async () => {
    const { patientId } = await roleIds();
    const response = await get(
      `/api/auth/user-info?email=${encodeURIComponent(patient.email.toUpperCase())}`,
      caregiver.token,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        id: patient.userId,
        name: 'Pat Patient',
        email: patient.email,
        role: 'Patient',
        patient_id: patientId,
        caregiver_id: null,
      },
    });
  });

  it('answers 404 when nobody has the e-mail', async () => {
    const response = await get('/api/auth/user-info?email=nobody@example.com', caregiver.token);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No user found with this email.' });
  });

  it.each([
    ['', AUTH_MESSAGES.emailRequired],
    ['?email=', AUTH_MESSAGES.emailRequired],
    ['?email=not-an-email', AUTH_MESSAGES.emailInvalid],
  ])('refuses a bad email query (%j) with 400', async (query, message) => {
    const response = await get(`/api/auth/user-info${query}`, caregiver.token);
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

  it('does not capture /profile or /user-info', async () => {
    expect((await get('/api/auth/profile', patient.token)).json()).toMatchObject({
      data: { id: patient.userId },
    });
    expect((await get(`/api/auth/user-info?email=${patient.email}`, patient.token)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    expect((await get(`/api/auth/${patient.userId}`, null)).statusCode).toBe(401);
  });
});
