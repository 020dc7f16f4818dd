import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import { TEXT_MESSAGES } from '../../src/domain/text';
import { doseMarkId } from '../../src/domain/medicine-schedule';
import { PUSH_BATCH_MAX, type PushChange, type PushResult } from '../../src/domain/sync';
import { queryRows } from '../../src/server/db/client';
import { careLinks } from '../../src/server/db/schema';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// POST /api/sync/push on the real app: each item is applied once, in order, with the answer of the REST
// call it stands for.

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

let keyCounter = 0;
const newKey = () => `push-key-${++keyCounter}-${randomUUID().slice(0, 8)}`;

const visit = (patientId: string | null, extra: Record<string, unknown> = {}) => ({
  patient_id: patientId,
  appointment_title: 'Cardiology check-up',
  appointment_date: '2026-12-01T09:30:00.000Z',
  ...extra,
});

const createItem = (patientId: string | null, extra: Record<string, unknown> = {}): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'create',
  id: randomUUID(),
  payload: visit(patientId, extra),
});
const updateItem = (id: string, payload: Record<string, unknown>, base_version?: number): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'update',
  id,
  ...(base_version === undefined ? {} : { base_version }),
  payload,
});
const deleteItem = (id: string): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'delete',
  id,
});

const push = (person: Person, changes: unknown[]) =>
  as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });

async function pushOk(person: Person, changes: unknown[]): Promise<PushResult[]> {
  const response = await push(person, changes);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: PushResult[] }>().results;
}

type Row = { id: string; version: number; deleted: boolean; data: Record<string, unknown> };
async function storedRecords(): Promise<Row[]> {
  const rows = await queryRows<{
    id: string;
    version: string;
    deleted: boolean;
    data: Record<string, unknown>;
  }>(
    ctx.database.db,
    sql`select id, version, deleted_at is not null as deleted, data from records order by version`,
  );
  return rows.map((row) => ({ ...row, version: Number(row.version) }));
}
const storedKeys = async () =>
  (await queryRows<{ key: string }>(ctx.database.db, sql`select key from idempotency_keys order by key`)).map(
    (row) => row.key,
  );

const versionOf = (result: PushResult | undefined) =>
  (result?.body as { data: { version: number } } | undefined)?.data.version ?? -1;

describe('Idempotency-Keys are each person’s own', () => {
  it('takes another person’s key as a new request, by push and by REST, and replays each their own answer', async () => {
    const other = await makePerson(ctx, 'Patient', 'Olga Other');
    const key = 'shared-key-0001';
    const mine = { ...createItem(patient.patientId, { appointment_title: 'Mine' }), idempotency_key: key };
    const theirs = { ...createItem(other.patientId, { appointment_title: 'Theirs' }), idempotency_key: key };
    const [first] = await pushOk(patient, [mine]);
    const [second] = await pushOk(other, [theirs]);
    expect([first?.status, second?.status]).toEqual([201, 201]);
    // Each replay answers its own person's change, never the other's (nor "already used").
    const [mineAgain] = await pushOk(patient, [mine]);
    const [theirsAgain] = await pushOk(other, [theirs]);
    expect([mineAgain?.status, theirsAgain?.status]).toEqual([201, 201]);
    expect(JSON.stringify(mineAgain)).toContain(mine.id);
    expect(JSON.stringify(theirsAgain)).toContain(theirs.id);
    expect(JSON.stringify(theirsAgain)).not.toContain(mine.id);

    const rest = (person: Person, body: Record<string, unknown>) =>
      as(ctx, person, {
        method: 'POST',
        url: '/api/appointments',
        payload: body,
        headers: { 'idempotency-key': 'shared-rest-key-0001' },
      });
    const restMine = { id: randomUUID(), ...visit(patient.patientId, { appointment_title: 'Mine by REST' }) };
    const restTheirs = {
      id: randomUUID(),
      ...visit(other.patientId, { appointment_title: 'Theirs by REST' }),
    };
    expect((await rest(patient, restMine)).statusCode).toBe(201);
    expect((await rest(other, restTheirs)).statusCode).toBe(201);
    for (const [person, body] of [
      [other, restTheirs],
      [patient, restMine],
    ] as const) {
      const replay = await rest(person, body);
      expect([replay.statusCode, replay.headers['idempotent-replayed'], replay.json().data.id]).toEqual([
        201,
        'true',
        body.id,
      ]);
    }
    const titles = (await storedRecords()).map((row) => row.data.appointment_title).sort();
    expect(titles).toEqual(['Mine', 'Mine by REST', 'Theirs', 'Theirs by REST']);
  });
});

describe('POST /api/sync/push', () => {
  it('applies creates, updates and deletes in order and answers each as its REST call', async () => {
    const first = createItem(patient.patientId, { location: 'City Clinic' });
    const second = createItem(patient.patientId, { appointment_title: 'Dentist' });
    const changes = [
      first,
      updateItem(first.id, { notes: 'Bring the blood test' }),
      second,
      deleteItem(second.id),
      updateItem(first.id, { status: 'completed', changed_at: Date.now() }),
    ];
    const results = await pushOk(patient, changes);
    expect(results.map((result) => [result.idempotency_key, result.status])).toEqual(
      changes.map((change, index) => [change.idempotency_key, index === 0 || index === 2 ? 201 : 200]),
    );
    expect(results[0]?.body).toMatchObject({
      success: true,
      merged: false,
      data: { id: first.id, patient_id: patient.patientId, location: 'City Clinic', status: 'scheduled' },
    });
    expect(results[3]?.body).toMatchObject({
      success: true,
      message: 'Appointment deleted',
      data: { id: second.id, deleted: true },
    });
    expect(results[4]?.body).toMatchObject({
      merged: false,
      data: { notes: 'Bring the blood test', status: 'completed', location: 'City Clinic' },
    });
    // Each item drew its version after the one before it: the order a pull will bring them in.
    const versions = results.map(versionOf);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);

    const read = await as(ctx, patient, { method: 'GET', url: `/api/appointments/${first.id}` });
    expect(read.json().data).toEqual((results[4]?.body as { data: unknown }).data);
    expect(
      (await as(ctx, patient, { method: 'GET', url: `/api/appointments/${second.id}` })).statusCode,
    ).toBe(404);
  });

  it('applies nothing twice when the same batch comes again, and answers the same', async () => {
    const created = createItem(patient.patientId);
    const changes = [created, updateItem(created.id, { notes: 'once' }), deleteItem(created.id)];
    const first = await pushOk(patient, changes);
    const before = await storedRecords();
    const again = await pushOk(patient, changes);
    // The record is deleted now: the create and the edit are answered as done, with no fields of it.
    const deleted = { id: created.id, version: versionOf(first[2]), deleted: true };
    expect(again).toEqual([
      { ...first[0], body: { ...(first[0]?.body as object), data: deleted } },
      { ...first[1], body: { ...(first[1]?.body as object), data: deleted } },
      first[2],
    ]);
    expect(await storedRecords()).toEqual(before);
    // The same change twice in one batch is one change too.
    const twice = createItem(patient.patientId);
    const results = await pushOk(patient, [twice, twice]);
    expect(results.map((result) => result.status)).toEqual([201, 201]);
    expect(results[1]).toEqual(results[0]);
    expect((await storedRecords()).filter((row) => row.id === twice.id)).toHaveLength(1);
  });

  it('recognises a change sent by REST and sent again in a batch, and the reverse', async () => {
    const created = createItem(patient.patientId, { changed_at: Date.now() - 1000 });
    const rest = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: created.id, ...created.payload },
      headers: { 'idempotency-key': created.idempotency_key },
    });
    expect(rest.statusCode).toBe(201);
    const edit = updateItem(
      created.id,
      { notes: 'edited', changed_at: Date.now() },
      rest.json().data.version,
    );
    const removal = deleteItem(created.id);
    const batch = await pushOk(patient, [created, edit, removal]);
    expect(batch[0]).toEqual({ idempotency_key: created.idempotency_key, status: 201, body: rest.json() });
    expect(batch.map((result) => result.status)).toEqual([201, 200, 200]);
    // The edit and the delete, whose answers were lost, come again one at a time by REST.
    const restEdit = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${created.id}`,
      payload: { ...edit.payload, base_version: edit.base_version },
      headers: { 'idempotency-key': edit.idempotency_key },
    });
    expect([restEdit.statusCode, restEdit.headers['idempotent-replayed']]).toEqual([200, 'true']);
    // The record was deleted since (by the batch): the edit is answered as made, with no fields of it.
    expect(restEdit.json()).toEqual({
      ...(batch[1]?.body as object),
      data: { id: created.id, version: versionOf(batch[2]), deleted: true },
    });
    const restDelete = await as(ctx, patient, {
      method: 'DELETE',
      url: `/api/appointments/${created.id}`,
      headers: { 'idempotency-key': removal.idempotency_key },
    });
    expect([restDelete.statusCode, restDelete.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(restDelete.json()).toEqual(batch[2]?.body);
    const rows = await storedRecords();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.version).toBe(versionOf(batch[2]));
  });

  it('refuses a key used before for a different change, like REST', async () => {
    const created = createItem(patient.patientId);
    await pushOk(patient, [created]);
    const other = { ...createItem(patient.patientId), idempotency_key: created.idempotency_key };
    const results = await pushOk(patient, [other]);
    expect(results[0]).toEqual({
      idempotency_key: created.idempotency_key,
      status: 409,
      body: { message: 'This Idempotency-Key was already used for a different request.' },
    });
    const rest = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: other.id, ...other.payload },
      headers: { 'idempotency-key': created.idempotency_key },
    });
    expect([rest.statusCode, rest.json()]).toEqual([409, results[0]?.body]);
    expect((await storedRecords()).map((row) => row.id)).toEqual([created.id]);
  });

  const valid = () => createItem(patient.patientId);
  it.each<[string, () => unknown[], string, string]>([
    [
      'an unknown resource',
      () => [{ ...valid(), resource: 'horoscopes' }],
      'changes.0.resource',
      'resource is not a synced resource.',
    ],
    [
      'a bad op',
      () => [valid(), { ...valid(), op: 'upsert' }],
      'changes.1.op',
      "op must be 'create', 'update' or 'delete'.",
    ],
    ['an id that is not a UUID', () => [{ ...valid(), id: 'temp-1' }], 'changes.0.id', 'id must be a UUID.'],
    [
      'a missing key',
      () => [{ ...valid(), idempotency_key: undefined }],
      'changes.0.idempotency_key',
      'Idempotency-Key',
    ],
    [
      'a bad key',
      () => [{ ...valid(), idempotency_key: 'bad key!' }],
      'changes.0.idempotency_key',
      'Idempotency-Key must be 8 to 100',
    ],
    [
      'a negative base version',
      () => [{ ...valid(), base_version: -1 }],
      'changes.0.base_version',
      'expected number to be >=0',
    ],
    [
      'a payload that is not an object',
      () => [{ ...valid(), payload: 'title' }],
      'changes.0.payload',
      'expected record',
    ],
    ['an empty batch', () => [], 'changes', 'changes must hold at least one change.'],
    [
      'too many changes',
      () => Array.from({ length: PUSH_BATCH_MAX + 1 }, valid),
      'changes',
      `changes must hold at most ${PUSH_BATCH_MAX} changes.`,
    ],
  ])('refuses a whole batch with %s (400) and applies none of it', async (_case, changes, path, message) => {
    const response = await push(patient, changes());
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { msg: string; path: string }[] }>();
    expect(body.errors[0]?.path).toBe(path);
    expect(body.message).toBe(body.errors[0]?.msg);
    expect(body.message).toContain(message);
    expect(await storedRecords()).toEqual([]);
  });

  it('answers an item whose fields are wrong with the 400 of its REST call and applies the rest', async () => {
    const created = createItem(patient.patientId);
    const badTitle = createItem(patient.patientId, { appointment_title: '', status: 'postponed' });
    const badEdit = updateItem(created.id, { appointment_date: 'next tuesday' });
    const missingPayload: PushChange = { ...createItem(patient.patientId), payload: undefined };
    const last = createItem(patient.patientId);
    const results = await pushOk(patient, [created, badTitle, badEdit, missingPayload, last]);
    expect(results.map((result) => result.status)).toEqual([201, 400, 400, 400, 201]);

    const restCreate = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: badTitle.id, ...badTitle.payload },
    });
    expect(restCreate.statusCode).toBe(400);
    expect(results[1]?.body).toEqual(restCreate.json());
    expect(results[1]?.body).toMatchObject({
      message: APPOINTMENT_MESSAGES.titleRequired,
      errors: [
        { msg: APPOINTMENT_MESSAGES.titleRequired, path: 'appointment_title' },
        { msg: APPOINTMENT_MESSAGES.statusInvalid, path: 'status' },
      ],
    });
    const restEdit = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${created.id}`,
      payload: badEdit.payload,
    });
    expect([restEdit.statusCode, results[2]?.body]).toEqual([400, restEdit.json()]);
    expect(results[3]?.body).toMatchObject({ message: APPOINTMENT_MESSAGES.titleRequired });
    expect((await storedRecords()).map((row) => row.id)).toEqual([created.id, last.id]);
    // A refusal is not stored: the change, corrected, goes through under the same key.
    const fixed = { ...badTitle, payload: visit(patient.patientId) };
    expect((await pushOk(patient, [fixed]))[0]?.status).toBe(201);
    expect(await storedKeys()).toEqual(
      [created.idempotency_key, last.idempotency_key, fixed.idempotency_key].sort(),
    );
  });

  it('refuses an item with control or broken characters in a text field (400) and applies the rest', async () => {
    const created = createItem(patient.patientId);
    const changes = [
      created,
      createItem(patient.patientId, { notes: 'Blood test\u0000' }),
      createItem(patient.patientId, { appointment_title: 'Cardio \uD800' }),
      updateItem(created.id, { location: '\uDC00 Room 4' }),
      updateItem(created.id, { notes: 'x\u001B[31m' }),
      createItem(patient.patientId, { location: 'Room\u0007' }),
    ];
    const results = await pushOk(patient, changes);
    const broken = (path: string) => ({
      message: TEXT_MESSAGES.brokenCharacters,
      errors: [{ msg: TEXT_MESSAGES.brokenCharacters, path }],
    });
    const control = (path: string) => ({
      message: TEXT_MESSAGES.controlCharacters,
      errors: [{ msg: TEXT_MESSAGES.controlCharacters, path }],
    });
    expect(results.map((result) => [result.status, result.status === 201 ? null : result.body])).toEqual([
      [201, null],
      [400, control('notes')],
      [400, broken('appointment_title')],
      [400, broken('location')],
      [400, control('notes')],
      [400, control('location')],
    ]);
    // Each answered as its REST call.
    const rest = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: changes[1]?.id, ...changes[1]?.payload },
    });
    expect([rest.statusCode, rest.json()]).toEqual([400, results[1]?.body]);
    const stored = await storedRecords();
    expect(stored.map((row) => [row.id, row.data.notes, row.data.location])).toEqual([[created.id, '', '']]);
    expect(await storedKeys()).toEqual([created.idempotency_key]);
  });

  it("hides another patient's records (404) and refuses creating for them (403), like REST", async () => {
    const other = await makePerson(ctx, 'Patient');
    const theirs = createItem(other.patientId);
    await pushOk(other, [theirs]);
    const mine = createItem(patient.patientId);
    const forThem = createItem(other.patientId);
    const results = await pushOk(patient, [
      updateItem(theirs.id, { notes: 'mine now' }),
      deleteItem(theirs.id),
      forThem,
      mine,
    ]);
    expect(results.map((result) => [result.status, result.body])).toEqual([
      [404, { message: APPOINTMENT_MESSAGES.notFound }],
      [404, { message: APPOINTMENT_MESSAGES.notFound }],
      [403, { message: 'You do not have permission to do this for this patient.' }],
      [201, expect.anything()],
    ]);
    const rest = await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${theirs.id}` });
    expect([rest.statusCode, rest.json()]).toEqual([results[1]?.status, results[1]?.body]);
    expect((await storedRecords()).map((row) => [row.id, row.deleted])).toEqual([
      [theirs.id, false],
      [mine.id, false],
    ]);
  });

  it('lets a caregiver do exactly what the patient granted', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    const existing = createItem(patient.patientId);
    await pushOk(patient, [existing]);
    await link(ctx, patient, caregiver, ['ReadAppointment']);
    const refused = await pushOk(caregiver, [
      createItem(patient.patientId),
      updateItem(existing.id, { notes: 'x' }),
      deleteItem(existing.id),
      {
        ...createItem(null),
        payload: { appointment_title: 'Visit', appointment_date: '2026-12-01T09:30:00Z' },
      },
    ]);
    expect(refused.map((result) => result.status)).toEqual([403, 403, 403, 400]);
    const restWithoutPatient = await as(ctx, caregiver, {
      method: 'POST',
      url: '/api/appointments',
      payload: { id: randomUUID(), appointment_title: 'Visit', appointment_date: '2026-12-01T09:30:00Z' },
    });
    expect([restWithoutPatient.statusCode, restWithoutPatient.json()]).toEqual([400, refused[3]?.body]);

    const granted = await makePerson(ctx, 'Caregiver');
    await link(ctx, patient, granted, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const booked = createItem(patient.patientId, { caregiver_id: randomUUID() });
    const removal = deleteItem(booked.id);
    const applied = await pushOk(granted, [
      booked,
      updateItem(existing.id, { notes: 'by the caregiver' }),
      removal,
    ]);
    expect(applied.map((result) => result.status)).toEqual([201, 200, 403]);
    expect(applied[0]?.body).toMatchObject({ data: { caregiver_id: granted.caregiverId } });
    expect(applied[1]?.body).toMatchObject({ data: { notes: 'by the caregiver' } });
    await ctx.database.db
      .update(careLinks)
      .set({ permissions: ['ReadAppointment', 'DeleteAppointment'] })
      .where(eq(careLinks.caregiverId, granted.caregiverId ?? ''));
    // The refusal was final for the device: a late copy of the same item gets it again, and is not applied
    // now that the permission exists; the person deciding again sends a new change.
    expect((await pushOk(granted, [removal]))[0]?.status).toBe(403);
    expect((await pushOk(granted, [deleteItem(booked.id)]))[0]?.status).toBe(200);
  });

  it('is described in the OpenAPI document and keeps to the body limit', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    }>();
    const operation = doc.paths['/api/sync/push']?.post;
    expect(operation?.requestBody).toBeDefined();
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401']));
    // BODY_LIMIT_BYTES (1 MiB here) holds for a batch as for any call.
    const long = { notes: 'x'.repeat(Math.ceil(ctx.config.bodyLimitBytes / PUSH_BATCH_MAX)) };
    const oversized = Array.from({ length: PUSH_BATCH_MAX }, () => createItem(patient.patientId, long));
    const response = await push(patient, oversized);
    expect([response.statusCode, response.json()]).toEqual([413, { message: 'The request is too large.' }]);
  });

  it('needs a valid token for the whole batch (401)', async () => {
    const changes = [createItem(patient.patientId)];
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/sync/push', payload: { changes } });
    expect(anonymous.statusCode).toBe(401);
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/sync/push',
      payload: { changes },
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(forged.statusCode).toBe(401);
    expect(await storedRecords()).toEqual([]);
  });

  it('merges an edit made on an older version and says so; an edit on the current one is not a merge', async () => {
    const t0 = Date.now() - 60_000;
    const created = createItem(patient.patientId, { changed_at: t0 });
    const base = versionOf((await pushOk(patient, [created]))[0]);
    const elsewhere = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${created.id}`,
      payload: { notes: 'other device', base_version: base, changed_at: t0 + 2000 },
    });
    expect(elsewhere.json().merged).toBe(false);
    expect(elsewhere.json().data.version).toBeGreaterThan(base);
    const [stale] = await pushOk(patient, [
      updateItem(created.id, { location: 'Room 4', notes: 'older notes', changed_at: t0 + 1000 }, base),
    ]);
    expect(stale?.body).toMatchObject({ merged: true, data: { location: 'Room 4', notes: 'other device' } });
    const [fresh] = await pushOk(patient, [
      updateItem(created.id, { appointment_title: 'Follow-up', changed_at: t0 + 3000 }, versionOf(stale)),
    ]);
    expect(fresh?.body).toMatchObject({ merged: false, data: { appointment_title: 'Follow-up' } });
  });

  it('answers an item that fails unexpectedly on its own and applies the others; what builds on it waits', async () => {
    // A real database failure, planted for this test only: a trigger that refuses one title.
    await ctx.database.db.execute(sql`
      create function refuse_planted_title() returns trigger language plpgsql as $$
      begin
        if new.data->>'appointment_title' = 'planted failure' or new.data->>'medicine_name' = 'planted failure'
          then raise exception 'planted failure'; end if;
        return new;
      end $$`);
    await ctx.database.db.execute(sql`
      create trigger planted_failure before insert or update on records
      for each row execute function refuse_planted_title()`);
    try {
      const kept = createItem(patient.patientId);
      const failing = createItem(patient.patientId, { appointment_title: 'planted failure' });
      const later = createItem(patient.patientId);
      const prescription: PushChange = {
        idempotency_key: newKey(),
        resource: 'prescriptions',
        op: 'create',
        id: randomUUID(),
        payload: {
          patient_id: patient.patientId,
          medicine_name: 'planted failure',
          strength: '500 mg',
          form: 'tablet',
          directions: 'Take 1 tablet by mouth daily',
          times: ['08:00'],
          start_date: '2026-11-01',
          time_zone: 'UTC',
        },
      };
      const doseOfIt: PushChange = {
        idempotency_key: newKey(),
        resource: 'dose_marks',
        op: 'create',
        id: await doseMarkId(prescription.id, '2026-11-02', '08:00'),
        payload: { schedule_id: prescription.id, date: '2026-11-02', time: '08:00', is_taken: true },
      };
      const changes = [
        kept,
        failing,
        later,
        updateItem(failing.id, { notes: 'builds on the failed create' }),
        prescription,
        updateItem(kept.id, { notes: 'after the failure' }),
        doseOfIt,
      ];
      const results = await pushOk(patient, changes);
      expect(results.map((result) => [result.idempotency_key, result.status])).toEqual(
        changes.map((change, index) => [change.idempotency_key, [201, 500, 201, 0, 500, 200, 0][index]]),
      );
      expect(results[1]?.body).toEqual({
        message: 'Something went wrong. This change was not applied; send it again.',
      });
      expect(results[3]?.body).toEqual({
        message: 'Not tried, because an earlier change it builds on failed; send it again.',
      });
      expect(results[6]?.body).toEqual(results[3]?.body);
      expect((await storedRecords()).map((row) => [row.id, row.data.notes])).toEqual([
        [later.id, ''],
        [kept.id, 'after the failure'],
      ]);
      const answered = [kept, later, changes[5]].map((change) => change?.idempotency_key);
      expect(await storedKeys()).toEqual(answered.sort());

      await ctx.database.db.execute(sql`drop trigger planted_failure on records`);
      const retried = await pushOk(patient, changes);
      expect(retried[0]).toEqual(results[0]);
      expect(retried[2]).toEqual(results[2]);
      expect(retried.map((result) => result.status)).toEqual([201, 201, 201, 200, 201, 200, 200]);
      expect((await storedRecords()).map((row) => row.id).sort()).toEqual(
        [kept.id, failing.id, later.id, prescription.id, doseOfIt.id].sort(),
      );
    } finally {
      await ctx.database.db.execute(sql`drop trigger if exists planted_failure on records`);
      await ctx.database.db.execute(sql`drop function if exists refuse_planted_title()`);
    }
  });
});

describe('text the database cannot hold', () => {
  /** A one-page PDF, uploaded as the file of a lab report; answers its key. */
  async function uploadReport(person: Person): Promise<string> {
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
      'latin1',
    );
    const form = multipartForm({}, [
      { field: 'image', filename: 'r.pdf', contentType: 'application/pdf', bytes: pdf },
    ]);
    const response = await as(ctx, person, {
      method: 'POST',
      url: '/api/upload-image?type=lab',
      payload: form.payload,
      headers: form.headers,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ files: { key: string }[] }>().files[0]?.key ?? '';
  }
  const report = (attachment_key: string, text: string) => ({
    patient_id: patient.patientId,
    report_type: 'Blood Test',
    report_date: '2026-11-02',
    attachment_key,
    // JSON text as the extraction gives it; a value in it holds a lone surrogate (not text at all).
    report_ocr: `{"doctor_name":"${text}","lab_results":[{"name":"Glucose","value":"105","unit":"mg/dL","flag":"H","reference_range":"70-99"}]}`,
  });
  const broken = {
    message: TEXT_MESSAGES.brokenCharacters,
    errors: [{ msg: TEXT_MESSAGES.brokenCharacters, path: 'report_ocr' }],
  };

  it("refuses a lone surrogate inside report_ocr's JSON text with 400, alone in its batch", async () => {
    const key = await uploadReport(patient);
    const before = createItem(patient.patientId);
    const after = createItem(patient.patientId);
    for (const text of ['Dr \ud800 Smith', 'Dr Smith \udfff']) {
      const bad: PushChange = {
        idempotency_key: newKey(),
        resource: 'lab_reports',
        op: 'create',
        id: randomUUID(),
        payload: report(key, text),
      };
      const results = await pushOk(patient, [before, bad, after]);
      expect(results.map((result) => [result.status, result.body])).toEqual([
        [201, expect.anything()],
        [400, broken],
        [201, expect.anything()],
      ]);
      const rest = await as(ctx, patient, {
        method: 'POST',
        url: '/api/lab-reports',
        payload: report(key, text),
      });
      expect([rest.statusCode, rest.json()]).toEqual([400, broken]);
    }
    // An edit of a stored report is refused the same way, and changes nothing.
    const good = await as(ctx, patient, {
      method: 'POST',
      url: '/api/lab-reports',
      payload: report(key, 'Dr Smith'),
    });
    expect(good.statusCode, good.body).toBe(201);
    const id = good.json<{ data: { id: string } }>().data.id;
    const [edit] = await pushOk(patient, [
      {
        idempotency_key: newKey(),
        resource: 'lab_reports',
        op: 'update',
        id,
        payload: { report_ocr: report(key, '\ud800').report_ocr },
      },
    ]);
    expect([edit?.status, edit?.body]).toEqual([400, broken]);
    const stored = (await storedRecords()).filter((row) => row.id === id);
    expect(stored.map((row) => row.data.report_ocr)).toEqual([report(key, 'Dr Smith').report_ocr]);
    expect((await storedRecords()).map((row) => row.id).sort()).toEqual([before.id, after.id, id].sort());
  });
});
