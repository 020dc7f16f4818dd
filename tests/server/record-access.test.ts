import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import type { PushChange, PushResult } from '../../src/domain/sync';
import { queryRows } from '../../src/server/db/client';
import { careLinks } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// What an answer about a record gives away, by REST and by POST /api/sync/push:
// a caregiver who may change a record but not read it gets no fields of it back; a replayed answer is
// given only to a caller who still has the access the call needed; and an id of another patient's record
// is answered exactly like any other taken or unknown id.

let ctx: TestContext;
let patient: Person;
let caregiver: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
  caregiver = await makePerson(ctx, 'Caregiver');
});

const SECRET_TITLE = 'Oncology consult';
const SECRET_NOTES = 'Biopsy results, bring the scans';
const FORBIDDEN = { message: 'You do not have permission to do this for this patient.' };
const NOT_FOUND = { message: APPOINTMENT_MESSAGES.notFound };

let keyCounter = 0;
const newKey = () => `access-key-${++keyCounter}-${randomUUID().slice(0, 8)}`;

const fields = (patientId: string | null) => ({
  patient_id: patientId,
  appointment_title: SECRET_TITLE,
  appointment_date: '2026-12-01T09:30:00.000Z',
  notes: SECRET_NOTES,
  location: 'Ward 7',
});

function restCreate(person: Person, body: Record<string, unknown>, key?: string) {
  return as(ctx, person, {
    method: 'POST',
    url: '/api/appointments',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}
function restUpdate(person: Person, id: string, body: Record<string, unknown>, key?: string) {
  return as(ctx, person, {
    method: 'PUT',
    url: `/api/appointments/${id}`,
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}
function restDelete(person: Person, id: string, key?: string) {
  return as(ctx, person, {
    method: 'DELETE',
    url: `/api/appointments/${id}`,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

async function pushOk(person: Person, changes: PushChange[]): Promise<PushResult[]> {
  const response = await as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: PushResult[] }>().results;
}
const pushCreate = (patientId: string | null, id: string = randomUUID()): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'create',
  id,
  payload: fields(patientId),
});
const pushUpdate = (id: string, payload: Record<string, unknown>): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'update',
  id,
  payload,
});
const pushDelete = (id: string): PushChange => ({
  idempotency_key: newKey(),
  resource: 'appointments',
  op: 'delete',
  id,
});

/** A record of the patient's, made by the patient. */
async function patientRecord(): Promise<{ id: string; version: number }> {
  const id = randomUUID();
  const response = await restCreate(patient, { id, ...fields(patient.patientId) });
  expect(response.statusCode).toBe(201);
  return { id, version: response.json().data.version };
}

const setPermissions = (permissions: string[]) =>
  ctx.database.db
    .update(careLinks)
    .set({ permissions })
    .where(eq(careLinks.caregiverId, caregiver.caregiverId ?? ''));

/** The answer's text holds none of the record's fields. */
function expectNoRecordFields(body: unknown) {
  const text = JSON.stringify(body);
  for (const secret of [SECRET_TITLE, SECRET_NOTES, 'Ward 7', 'appointment_date', 'patient_id', 'notes'])
    expect(text).not.toContain(secret);
}

const storedTitle = async (id: string) =>
  (
    await queryRows<{ title: string | null }>(
      ctx.database.db,
      sql`select data->>'appointment_title' as title from records where id = ${id}`,
    )
  )[0]?.title;

describe('a caregiver who may change records but not read them', () => {
  it('gets only the id and version back from a REST create, edit and delete', async () => {
    await link(ctx, patient, caregiver, ['AddAppointment', 'EditAppointment', 'DeleteAppointment']);
    const id = randomUUID();
    const created = await restCreate(caregiver, { id, ...fields(patient.patientId) });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      success: true,
      data: { id, version: expect.any(Number) },
      merged: false,
    });
    const mine = await patientRecord();
    const edited = await restUpdate(caregiver, mine.id, { location: 'Room 2', base_version: mine.version });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toEqual({
      success: true,
      data: { id: mine.id, version: expect.any(Number) },
      merged: false,
    });
    expectNoRecordFields(edited.json());
    expect(await storedTitle(mine.id)).toBe(SECRET_TITLE); // the edit was applied all the same
    const deleted = await restDelete(caregiver, mine.id);
    expect(deleted.json()).toEqual({
      success: true,
      message: 'Appointment deleted',
      data: { id: mine.id, version: expect.any(Number), deleted: true },
    });
  });

  it('gets the fields back once it may read them, and the patient always does', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const created = await restCreate(caregiver, { id: randomUUID(), ...fields(patient.patientId) });
    expect(created.json().data).toMatchObject({ appointment_title: SECRET_TITLE, notes: SECRET_NOTES });
    const mine = await patientRecord();
    const edited = await restUpdate(caregiver, mine.id, { location: 'Room 2' });
    expect(edited.json().data).toMatchObject({ appointment_title: SECRET_TITLE, location: 'Room 2' });
    const own = await restUpdate(patient, mine.id, { location: 'Room 3' });
    expect(own.json().data).toMatchObject({ notes: SECRET_NOTES, location: 'Room 3' });
  });

  it('gets only the id and version back from pushed changes', async () => {
    await link(ctx, patient, caregiver, ['AddAppointment', 'EditAppointment']);
    const mine = await patientRecord();
    const created = pushCreate(patient.patientId);
    const results = await pushOk(caregiver, [created, pushUpdate(mine.id, { notes: 'Seen' })]);
    expect(results.map((result) => [result.status, result.body])).toEqual([
      [201, { success: true, data: { id: created.id, version: expect.any(Number) }, merged: false }],
      [200, { success: true, data: { id: mine.id, version: expect.any(Number) }, merged: false }],
    ]);
    for (const result of results) expectNoRecordFields(result.body);
    // With the Read permission, the same kind of change answers with the record.
    await setPermissions(['ReadAppointment', 'EditAppointment']);
    const [readable] = await pushOk(caregiver, [pushUpdate(mine.id, { notes: 'Seen again' })]);
    expect(readable?.body).toMatchObject({ data: { notes: 'Seen again', appointment_title: SECRET_TITLE } });
  });
});

/** What a caller who may not read a record gets instead of it: the answer with only its id and version. */
function receiptOf(body: unknown) {
  const { data, ...rest } = body as { data: { id: string; version: number } };
  return { ...rest, data: { id: data.id, version: data.version } };
}

describe('an idempotent replay', () => {
  // The change was made when the caller had the access: a replay says so (telling them it was refused
  // would be untrue, and their device would throw away a change the server holds), but gives no record
  // fields to a caller who may not read them any more.
  it('answers a receipt, without record data, once the link is removed', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const body = { id: randomUUID(), ...fields(patient.patientId) };
    const first = await restCreate(caregiver, body, 'key-revoked-create');
    expect(first.statusCode).toBe(201);
    await ctx.database.db.delete(careLinks);
    const replay = await restCreate(caregiver, body, 'key-revoked-create');
    expect([replay.statusCode, replay.json(), replay.headers['idempotent-replayed']]).toEqual([
      201,
      receiptOf(first.json()),
      'true',
    ]);
    expectNoRecordFields(replay.json());
    // A fresh call is refused.
    const fresh = await restCreate(caregiver, { ...body, id: randomUUID() }, 'key-revoked-fresh');
    expect([fresh.statusCode, fresh.json()]).toEqual([403, FORBIDDEN]);
  });

  it('still answers the stored change to a caller left with Read only, while fresh calls are refused', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const mine = await patientRecord();
    const body = { id: randomUUID(), ...fields(patient.patientId) };
    const created = await restCreate(caregiver, body, 'key-narrowed-create');
    expect(created.statusCode).toBe(201);
    const edited = await restUpdate(caregiver, mine.id, { notes: 'x' }, 'key-narrowed-edit');
    expect(edited.statusCode).toBe(200);
    await setPermissions(['ReadAppointment']);
    // They may still read these records: the stored answers show nothing they cannot see anyway.
    const create = await restCreate(caregiver, body, 'key-narrowed-create');
    expect([create.statusCode, create.json()]).toEqual([201, created.json()]);
    const edit = await restUpdate(caregiver, mine.id, { notes: 'x' }, 'key-narrowed-edit');
    expect([edit.statusCode, edit.json()]).toEqual([200, edited.json()]);
    // A fresh edit of a record one may read but no longer edit is refused with the true reason (403);
    // without Read it is answered as an unknown id (404), since then even its existence is not theirs.
    const freshEdit = await restUpdate(caregiver, mine.id, { notes: 'x' });
    expect([freshEdit.statusCode, freshEdit.json()]).toEqual([403, FORBIDDEN]);
    await setPermissions(['AddAppointment']);
    const gone = await restUpdate(caregiver, mine.id, { notes: 'y' });
    expect([gone.statusCode, gone.json()]).toEqual([404, NOT_FOUND]);
  });

  it('still answers a caller who kept the permission, without the fields once it may no longer read', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const body = { id: randomUUID(), ...fields(patient.patientId) };
    const first = await restCreate(caregiver, body, 'key-kept-create');
    const again = await restCreate(caregiver, body, 'key-kept-create');
    expect([again.statusCode, again.json(), again.headers['idempotent-replayed']]).toEqual([
      201,
      first.json(),
      'true',
    ]);
    await setPermissions(['AddAppointment']);
    const blind = await restCreate(caregiver, body, 'key-kept-create');
    expect([blind.statusCode, blind.json(), blind.headers['idempotent-replayed']]).toEqual([
      201,
      { success: true, data: { id: body.id, version: first.json().data.version }, merged: false },
      'true',
    ]);
    // The patient's own replays are never in doubt.
    const own = { id: randomUUID(), ...fields(patient.patientId) };
    const ownFirst = await restCreate(patient, own, 'key-own-create');
    expect((await restCreate(patient, own, 'key-own-create')).json()).toEqual(ownFirst.json());
  });

  it('never hands back the fields of a record deleted since: it says the record is deleted', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const body = { id: randomUUID(), ...fields(patient.patientId) };
    const created = await restCreate(patient, body, 'key-deleted-create');
    const edited = await restUpdate(patient, body.id, { location: 'Room 9' }, 'key-deleted-edit');
    const theirs = { id: randomUUID(), ...fields(patient.patientId) };
    const booked = await restCreate(caregiver, theirs, 'key-deleted-booked');
    const pushed = pushCreate(patient.patientId);
    const [pushedFirst] = await pushOk(patient, [pushed]);
    expect([created.statusCode, edited.statusCode, booked.statusCode, pushedFirst?.status]).toEqual([
      201, 200, 201, 201,
    ]);
    const removals = await Promise.all(
      [body.id, theirs.id, pushed.id].map(async (id) => (await restDelete(patient, id)).json()),
    );
    const deleted = (index: number) => ({
      id: removals[index].data.id,
      version: removals[index].data.version,
      deleted: true,
    });

    const answers = [
      await restCreate(patient, body, 'key-deleted-create'),
      await restUpdate(patient, body.id, { location: 'Room 9' }, 'key-deleted-edit'),
      await restCreate(caregiver, theirs, 'key-deleted-booked'),
    ];
    expect(
      answers.map((answer) => [answer.statusCode, answer.json(), answer.headers['idempotent-replayed']]),
    ).toEqual([
      [201, { ...created.json(), data: deleted(0) }, 'true'],
      [200, { ...edited.json(), data: deleted(0) }, 'true'],
      [201, { ...booked.json(), data: deleted(1) }, 'true'],
    ]);
    // By push, the same answers (a change sent by REST and replayed in a batch, and the reverse).
    const batch = await pushOk(patient, [
      {
        ...pushCreate(patient.patientId, body.id),
        idempotency_key: 'key-deleted-create',
        payload: fields(patient.patientId),
      },
      pushed,
    ]);
    expect(batch.map((result) => [result.status, result.body])).toEqual([
      [201, answers[0]?.json()],
      [201, { ...(pushedFirst?.body as object), data: deleted(2) }],
    ]);
    for (const answer of [...answers.map((one) => one.json()), ...batch.map((result) => result.body)])
      expectNoRecordFields(answer);

    // Once the tombstone is purged too, the replay still says deleted (at the version it knew).
    await ctx.database.db.execute(sql`delete from records where id = ${body.id}`);
    const purged = await restCreate(patient, body, 'key-deleted-create');
    expect(purged.json().data).toEqual({ id: body.id, version: created.json().data.version, deleted: true });
    // A caller who may no longer read the patient's records gets the receipt as before, nothing more.
    await setPermissions(['AddAppointment']);
    const blind = await restCreate(caregiver, theirs, 'key-deleted-booked');
    expect(blind.json()).toEqual(receiptOf(booked.json()));
  });

  it('keeps a stored refusal as it was', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment']);
    const body = { id: randomUUID(), ...fields(patient.patientId) };
    const refused = await restCreate(caregiver, body, 'key-refusal-kept');
    expect([refused.statusCode, refused.json()]).toEqual([403, FORBIDDEN]);
    await setPermissions(['ReadAppointment', 'AddAppointment']);
    const late = await restCreate(caregiver, body, 'key-refusal-kept');
    expect([late.statusCode, late.json(), late.headers['idempotent-replayed']]).toEqual([
      403,
      FORBIDDEN,
      'true',
    ]);
  });

  it('answers receipts in a pushed batch once the permission is gone, item by item', async () => {
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const mine = await patientRecord();
    const created = pushCreate(patient.patientId);
    const edit = pushUpdate(mine.id, { notes: 'Seen' });
    const first = await pushOk(caregiver, [created, edit]);
    expect(first.map((result) => result.status)).toEqual([201, 200]);
    // The same batch again, by the same caller with the same access: the stored answers.
    expect(await pushOk(caregiver, [created, edit])).toEqual(first);
    await setPermissions(['ReadAppointment', 'EditAppointment']);
    const narrowed = await pushOk(caregiver, [created, edit]);
    expect(narrowed.map((result) => [result.status, result.body])).toEqual([
      [201, first[0]?.body],
      [200, first[1]?.body],
    ]);
    await setPermissions(['EditAppointment']);
    const blind = await pushOk(caregiver, [created, edit]);
    expect(blind.map((result) => [result.status, result.body])).toEqual([
      [201, receiptOf(first[0]?.body)],
      [200, receiptOf(first[1]?.body)],
    ]);
    await ctx.database.db.delete(careLinks);
    const revoked = await pushOk(caregiver, [created, edit]);
    expect(revoked.map((result) => [result.status, result.body])).toEqual([
      [201, receiptOf(first[0]?.body)],
      [200, receiptOf(first[1]?.body)],
    ]);
    for (const result of revoked) expectNoRecordFields(result.body);
    // A change sent by push and replayed by REST is checked the same way.
    const rest = await restCreate(caregiver, { id: created.id, ...created.payload }, created.idempotency_key);
    expect([rest.statusCode, rest.json()]).toEqual([201, receiptOf(first[0]?.body)]);
    // Fresh changes are refused.
    const fresh = await pushOk(caregiver, [pushCreate(patient.patientId)]);
    expect(fresh.map((result) => [result.status, result.body])).toEqual([[403, FORBIDDEN]]);
  });
});

describe("an id of another patient's record", () => {
  it('is answered on create exactly like an id of one of ones own records, by REST and push', async () => {
    const other = await makePerson(ctx, 'Patient');
    const theirs = randomUUID();
    expect((await restCreate(other, { id: theirs, ...fields(other.patientId) })).statusCode).toBe(201);
    const mine = await patientRecord();
    const deletedMine = await patientRecord();
    await restDelete(patient, deletedMine.id);

    const answers = [];
    for (const id of [mine.id, deletedMine.id, theirs]) {
      const rest = await restCreate(patient, { id, ...fields(patient.patientId) });
      const withKey = await restCreate(patient, { id, ...fields(patient.patientId) }, newKey());
      const [pushed] = await pushOk(patient, [pushCreate(patient.patientId, id)]);
      answers.push([
        [rest.statusCode, rest.json()],
        [withKey.statusCode, withKey.json()],
        [pushed?.status, pushed?.body],
      ]);
    }
    const conflict = [409, { message: APPOINTMENT_MESSAGES.exists }];
    expect(answers).toEqual([0, 1, 2].map(() => [conflict, conflict, conflict]));
    expect(await storedTitle(theirs)).toBe(SECRET_TITLE);
  });

  it('is answered on edit and delete exactly like an unknown id (404), by REST and push', async () => {
    const other = await makePerson(ctx, 'Patient');
    const theirs = randomUUID();
    await restCreate(other, { id: theirs, ...fields(other.patientId) });
    const theirsDeleted = randomUUID();
    await restCreate(other, { id: theirsDeleted, ...fields(other.patientId) });
    await restDelete(other, theirsDeleted);
    await link(ctx, patient, caregiver, ['ReadAppointment', 'EditAppointment', 'DeleteAppointment']);

    for (const person of [patient, caregiver]) {
      const answers = [];
      for (const id of [randomUUID(), theirs, theirsDeleted]) {
        const edit = await restUpdate(person, id, { notes: 'mine now' });
        const remove = await restDelete(person, id);
        const pushed = await pushOk(person, [pushUpdate(id, { notes: 'mine now' }), pushDelete(id)]);
        answers.push([
          [edit.statusCode, edit.json()],
          [remove.statusCode, remove.json()],
          ...pushed.map((result) => [result.status, result.body]),
        ]);
      }
      const unknown = [404, NOT_FOUND];
      expect(answers).toEqual([0, 1, 2].map(() => [unknown, unknown, unknown, unknown]));
    }
    expect(await storedTitle(theirs)).toBe(SECRET_TITLE);
  });
});
