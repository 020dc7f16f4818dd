import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import type { PushChange, PushResult } from '../../src/domain/sync';
import { queryRows } from '../../src/server/db/client';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// POST /api/sync/push writes a run of consecutive creates with one insert (CreateBatch in
// services/records.ts): each item must still be answered exactly as its REST call, in order.

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

const createItem = (patientId: string | null, title: string, id: string = randomUUID()): PushChange => ({
  idempotency_key: `create-${randomUUID()}`,
  resource: 'appointments',
  op: 'create',
  id,
  payload: { patient_id: patientId, appointment_title: title, appointment_date: '2026-12-01T09:30:00.000Z' },
});

async function pushOk(person: Person, changes: PushChange[]): Promise<PushResult[]> {
  const response = await as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: PushResult[] }>().results;
}

const dataOf = (result: PushResult | undefined) =>
  (result?.body as { data?: { id: string; version: number; appointment_title: string } } | undefined)?.data;

async function storedTitles(): Promise<Record<string, string>> {
  const rows = await queryRows<{ id: string; title: string }>(
    ctx.database.db,
    sql`select id, data->>'appointment_title' as title from records`,
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.title]));
}

describe('a run of creates in one push', () => {
  it('answers each create as its REST call, with versions in the order of the items', async () => {
    const changes = Array.from({ length: 6 }, (_, index) => createItem(patient.patientId, `Visit ${index}`));
    const results = await pushOk(patient, changes);
    expect(results.map((result) => [result.idempotency_key, result.status])).toEqual(
      changes.map((change) => [change.idempotency_key, 201]),
    );
    const versions = results.map((result) => dataOf(result)?.version ?? -1);
    expect(versions.every((version, index) => index === 0 || version > (versions[index - 1] ?? 0))).toBe(
      true,
    );
    for (const [index, change] of changes.entries()) {
      const read = await as(ctx, patient, { method: 'GET', url: `/api/appointments/${change.id}` });
      expect(read.json().data).toEqual(dataOf(results[index]));
    }
  });

  it('answers 409 to a create whose id an earlier create of the same push took, and applies the rest', async () => {
    const first = createItem(patient.patientId, 'First');
    const again = createItem(patient.patientId, 'Same id, another change', first.id);
    const other = createItem(patient.patientId, 'Other');
    const results = await pushOk(patient, [first, again, other]);
    expect(results.map((result) => result.status)).toEqual([201, 409, 201]);
    expect(results[1]?.body).toMatchObject({ message: APPOINTMENT_MESSAGES.exists });
    expect(await storedTitles()).toEqual({ [first.id]: 'First', [other.id]: 'Other' });
  });

  it('answers 409 to a create whose id is already stored, and applies the rest', async () => {
    const stored = createItem(patient.patientId, 'Stored before');
    await pushOk(patient, [stored]);
    const before = createItem(patient.patientId, 'Before');
    const taken = createItem(patient.patientId, 'Taken', stored.id);
    const after = createItem(patient.patientId, 'After');
    const results = await pushOk(patient, [before, taken, after]);
    expect(results.map((result) => result.status)).toEqual([201, 409, 201]);
    expect(await storedTitles()).toEqual({
      [stored.id]: 'Stored before',
      [before.id]: 'Before',
      [after.id]: 'After',
    });
  });

  it('writes a create of another resource with the same id as its own record, in the same run', async () => {
    const visit = createItem(patient.patientId, 'Visit');
    const medicine: PushChange = {
      idempotency_key: `create-${randomUUID()}`,
      resource: 'prescriptions',
      op: 'create',
      id: visit.id,
      payload: {
        patient_id: patient.patientId,
        medicine_name: 'Metformin',
        strength: '500 mg',
        form: 'tablet',
        directions: 'Take 1 tablet by mouth daily',
        times: ['08:00'],
        start_date: '2026-11-01',
        time_zone: 'UTC',
      },
    };
    const results = await pushOk(patient, [visit, medicine]);
    expect(results.map((result) => [result.status, dataOf(result)?.id])).toEqual([
      [201, visit.id],
      [201, visit.id],
    ]);
    const rows = await queryRows<{ resource: string }>(
      ctx.database.db,
      sql`select resource from records where id = ${visit.id} order by version`,
    );
    expect(rows.map((row) => row.resource)).toEqual(['appointments', 'prescriptions']);
  });

  it('refuses a create for another patient (403) within the run and applies the others', async () => {
    const stranger = await makePerson(ctx, 'Patient');
    const mine = createItem(patient.patientId, 'Mine');
    const theirs = createItem(stranger.patientId, 'Theirs');
    const alsoMine = createItem(patient.patientId, 'Also mine');
    const results = await pushOk(patient, [mine, theirs, alsoMine]);
    expect(results.map((result) => result.status)).toEqual([201, 403, 201]);
    expect(await storedTitles()).toEqual({ [mine.id]: 'Mine', [alsoMine.id]: 'Also mine' });
    // Sent again, the same push is answered the same and applies nothing twice.
    expect((await pushOk(patient, [mine, theirs, alsoMine])).map((result) => result.status)).toEqual([
      201, 403, 201,
    ]);
    expect(Object.keys(await storedTitles())).toHaveLength(2);
  });
});
