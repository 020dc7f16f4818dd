import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BETA_POLICY_MESSAGES, BETA_POLICY_NOT_ACCEPTED } from '../../src/domain/auth';
import type { PushChange, PushResult } from '../../src/domain/sync';
import { idempotencyKeys, records, uploads, users } from '../../src/server/db/schema';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// Writes need the beta-user policy accepted: the app asks on the first sign-in, and the server holds to it
// for any client (the REST calls, the sync engine's batches and uploads). Reads keep working.

let ctx: TestContext;
let newcomer: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  newcomer = await makePerson(ctx, 'Patient', 'Newcomer', { acceptedBetaPolicy: false });
});

const REFUSAL = { message: BETA_POLICY_MESSAGES.notAccepted, code: BETA_POLICY_NOT_ACCEPTED };
const ALL_TICKED = {
  notHipaa: true,
  notForMedicalDecisions: true,
  dataMayBeDeleted: true,
  agreeToPolicy: true,
};

const visit = (patientId: string | null, extra: Record<string, unknown> = {}) => ({
  patient_id: patientId,
  appointment_title: 'Cardiology check-up',
  appointment_date: '2026-12-01T09:30:00.000Z',
  ...extra,
});

const createItem = (patientId: string | null, key = randomUUID()): PushChange => ({
  idempotency_key: key,
  resource: 'appointments',
  op: 'create',
  id: randomUUID(),
  payload: visit(patientId),
});

const push = (person: Person, changes: unknown[]) =>
  as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });

function upload(person: Person) {
  const form = multipartForm({}, [
    { field: 'image', filename: 'letter.pdf', contentType: 'application/pdf', bytes: PDF },
  ]);
  return as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=appointment',
    payload: form.payload,
    headers: form.headers,
  });
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function filesStored(): number {
  const dir = join(ctx.dataDir, 'files');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

async function accept(person: Person) {
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/auth/beta-policy',
    payload: ALL_TICKED,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function withdraw(person: Person) {
  await ctx.database.db.update(users).set({ betaPolicyAcceptedAt: null }).where(eq(users.id, person.userId));
}

describe('an account that has not accepted the beta policy', () => {
  it('may not create an appointment by REST (403, nothing stored), and may once it accepts', async () => {
    const body = { id: randomUUID(), ...visit(newcomer.patientId) };
    const refused = await as(ctx, newcomer, {
      method: 'POST',
      url: '/api/appointments',
      payload: body,
      headers: { 'idempotency-key': 'rest-create-1' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(REFUSAL);
    expect(await ctx.database.db.select().from(records)).toEqual([]);

    // The same request sent again under its key (a device's queue) is judged afresh once accepted.
    await accept(newcomer);
    const created = await as(ctx, newcomer, {
      method: 'POST',
      url: '/api/appointments',
      payload: body,
      headers: { 'idempotency-key': 'rest-create-1' },
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('may not edit or delete its appointments by REST; it may still read them', async () => {
    await accept(newcomer);
    const body = { id: randomUUID(), ...visit(newcomer.patientId) };
    expect(
      (await as(ctx, newcomer, { method: 'POST', url: '/api/appointments', payload: body })).statusCode,
    ).toBe(201);
    await withdraw(newcomer);

    const edited = await as(ctx, newcomer, {
      method: 'PUT',
      url: `/api/appointments/${body.id}`,
      payload: { appointment_title: 'Changed' },
    });
    expect(edited.statusCode).toBe(403);
    expect(edited.json()).toEqual(REFUSAL);
    const deleted = await as(ctx, newcomer, { method: 'DELETE', url: `/api/appointments/${body.id}` });
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json()).toEqual(REFUSAL);

    const [row] = await ctx.database.db.select().from(records);
    expect(row?.data).toMatchObject({ appointment_title: 'Cardiology check-up' });
    expect(row?.deletedAt).toBeNull();
    const list = await as(ctx, newcomer, { method: 'GET', url: '/api/appointments' });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    const pull = await as(ctx, newcomer, { method: 'GET', url: '/api/sync/pull' });
    expect(pull.statusCode).toBe(200);
  });

  it('gets each pushed change refused with the REST answer (a malformed one still gets its 400)', async () => {
    const results = (
      await push(newcomer, [
        createItem(newcomer.patientId),
        { ...createItem(newcomer.patientId), payload: visit(newcomer.patientId, { appointment_title: '' }) },
        createItem(newcomer.patientId),
      ])
    ).json<{ results: PushResult[] }>().results;
    expect(results.map((result) => result.status)).toEqual([403, 400, 403]);
    expect(results[0]?.body).toEqual(REFUSAL);
    expect(results[2]?.body).toEqual(REFUSAL);
    expect(await ctx.database.db.select().from(records)).toEqual([]);

    // Accepted: a new batch goes through.
    await accept(newcomer);
    const later = (await push(newcomer, [createItem(newcomer.patientId)])).json<{ results: PushResult[] }>();
    expect(later.results.map((result) => result.status)).toEqual([201]);
  });

  it('keeps no refusal under its key: the queued change sent again once the policy is accepted goes in', async () => {
    const item = createItem(newcomer.patientId);
    const first = (await push(newcomer, [item])).json<{ results: PushResult[] }>().results;
    expect(first[0]?.status).toBe(403);
    expect(await ctx.database.db.select().from(idempotencyKeys)).toEqual([]);

    await accept(newcomer);
    const again = (await push(newcomer, [item])).json<{ results: PushResult[] }>().results;
    expect(again.map((result) => result.status)).toEqual([201]);
    const stored = await ctx.database.db.select().from(records);
    expect(stored.map((row) => row.id)).toEqual([item.id]);
    // And a late copy of it now replays the one answer, adding nothing.
    const late = (await push(newcomer, [item])).json<{ results: PushResult[] }>().results;
    expect(late.map((result) => result.status)).toEqual([201]);
    expect(await ctx.database.db.select().from(records)).toHaveLength(1);
  });

  it('may not upload a file (403, no file and no row kept)', async () => {
    const refused = await upload(newcomer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(REFUSAL);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
    expect(filesStored()).toBe(0);

    await accept(newcomer);
    expect((await upload(newcomer)).statusCode).toBe(201);
  });

  it('as a caregiver with every permission, may not write for the patient either', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const carer = await makePerson(ctx, 'Caregiver', 'Carer', { acceptedBetaPolicy: false });
    await link(ctx, patient, carer, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const refused = await as(ctx, carer, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: randomUUID(), ...visit(patient.patientId) },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(REFUSAL);
    const pushed = (await push(carer, [createItem(patient.patientId)])).json<{ results: PushResult[] }>();
    expect(pushed.results[0]?.status).toBe(403);
    expect(await ctx.database.db.select().from(records)).toEqual([]);

    // The patient's own acceptance does not count for the caregiver; the caregiver's does.
    await accept(carer);
    const allowed = await as(ctx, carer, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: randomUUID(), ...visit(patient.patientId) },
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });
});
