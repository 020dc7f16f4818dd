import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MY_DOCTOR_MESSAGES } from '../../src/domain/doctors';
import { directoryDoctors } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// My doctors (GET /api/doctors/list, POST /api/doctors/add, DELETE /api/doctors/:id) on the real app, and
// the same changes as items of POST /api/sync/push: the profile comes from the directory, a doctor is in a
// list once, and caregivers get what their permissions say (403 where they may see the entry, else 404).

let ctx: TestContext;
let patient: Person;
let cardiologist: string;
let dermatologist: string;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
  cardiologist = await directoryDoctor('1111111111', 'Zoe Heart', 'Cardiology');
  dermatologist = await directoryDoctor('2222222222', 'Adam Skin', 'Dermatology');
});

async function directoryDoctor(npi: string, name: string, speciality: string): Promise<string> {
  const [row] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi,
      name,
      speciality,
      qualifications: 'MD',
      address: '1 Main St',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      phone: '(212) 555-0100',
    })
    .returning({ id: directoryDoctors.doctorId });
  return row?.id ?? '';
}

const add = (person: Person, body: Record<string, unknown>, key?: string) =>
  as(ctx, person, {
    method: 'POST',
    url: '/api/doctors/add',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
const list = (person: Person, query = '') =>
  as(ctx, person, { method: 'GET', url: `/api/doctors/list${query}` });
const remove = (person: Person, id: string) =>
  as(ctx, person, { method: 'DELETE', url: `/api/doctors/${id}` });
const names = async (person: Person, query = '') =>
  (await list(person, query)).json<{ data: { name: string }[] }>().data.map((row) => row.name);

describe('my doctors', () => {
  it("adds a directory doctor with the directory's profile, lists by name, and removes it", async () => {
    const added = await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      success: true,
      message: MY_DOCTOR_MESSAGES.added,
      data: {
        patient_id: patient.patientId,
        doctor_id: cardiologist,
        name: 'Zoe Heart',
        speciality: 'Cardiology',
        phone: '(212) 555-0100',
        npi: '1111111111',
        added_by_caregiver: null,
      },
    });
    await add(patient, { patient_id: patient.patientId, doctor_id: dermatologist });
    expect(await names(patient)).toEqual(['Adam Skin', 'Zoe Heart']);

    const entryId = added.json<{ data: { id: string } }>().data.id;
    const removed = await remove(patient, entryId);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: MY_DOCTOR_MESSAGES.removed, data: { deleted: true } });
    expect(await names(patient)).toEqual(['Adam Skin']);
    // Removed, the doctor may be added again.
    expect((await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist })).statusCode).toBe(
      201,
    );
  });

  it('keeps a doctor once in a list, and refuses what is not a directory doctor', async () => {
    expect((await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist })).statusCode).toBe(
      201,
    );
    const again = await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MY_DOCTOR_MESSAGES.exists);
    const cases: [Record<string, unknown>, string][] = [
      [{ patient_id: patient.patientId, doctor_id: randomUUID() }, MY_DOCTOR_MESSAGES.doctorUnknown],
      [{ patient_id: patient.patientId, doctor_id: 'dr-who' }, MY_DOCTOR_MESSAGES.doctorUnknown],
      [{ patient_id: patient.patientId }, MY_DOCTOR_MESSAGES.doctorRequired],
      [{ patient_id: 'nobody', doctor_id: cardiologist }, MY_DOCTOR_MESSAGES.patientInvalid],
      [{ id: 'x', patient_id: patient.patientId, doctor_id: cardiologist }, MY_DOCTOR_MESSAGES.idInvalid],
    ];
    for (const [body, message] of cases) {
      const refused = await add(patient, body);
      expect({ body, status: refused.statusCode, message: refused.json().message }).toEqual({
        body,
        status: 400,
        message,
      });
    }
    expect(await names(patient)).toEqual(['Zoe Heart']);
  });

  it('answers a repeated Idempotency-Key with the first answer, and adds once', async () => {
    const body = { patient_id: patient.patientId, doctor_id: cardiologist };
    const first = await add(patient, body, 'add-doctor-key-1');
    const second = await add(patient, body, 'add-doctor-key-1');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().data.id).toBe(first.json().data.id);
    expect(await names(patient)).toEqual(['Zoe Heart']);
  });

  it("refuses another patient's list and entries without showing them", async () => {
    const other = await makePerson(ctx, 'Patient', 'Other');
    const added = await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist });
    const entryId = added.json<{ data: { id: string } }>().data.id;
    expect((await list(other, `?patient=${patient.patientId}`)).statusCode).toBe(403);
    expect((await list(other, `?userId=${patient.userId}`)).statusCode).toBe(403);
    expect((await add(other, { patient_id: patient.patientId, doctor_id: dermatologist })).statusCode).toBe(
      403,
    );
    const foreign = await remove(other, entryId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Zoe');
    expect((await remove(patient, randomUUID())).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/doctors/list' })).statusCode).toBe(401);
    expect(await names(patient)).toEqual(['Zoe Heart']);
  });

  it('gives caregivers what their permissions say, and names who added', async () => {
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    const helper = await makePerson(ctx, 'Caregiver', 'Helper');
    await link(ctx, patient, reader, ['ReadDoctor']);
    await link(ctx, patient, helper, ['ReadDoctor', 'AddDoctors', 'DeleteDoctor']);
    const byHelper = await add(helper, { patient_id: patient.patientId, doctor_id: cardiologist });
    expect(byHelper.statusCode).toBe(201);
    expect(byHelper.json().data.added_by_caregiver).toBe(helper.caregiverId);
    const entryId = byHelper.json<{ data: { id: string } }>().data.id;

    expect(await names(reader, `?patient=${patient.patientId}`)).toEqual(['Zoe Heart']);
    expect(await names(reader, `?userId=${patient.userId}`)).toEqual(['Zoe Heart']);
    expect((await list(reader)).statusCode).toBe(400); // a caregiver must name the patient
    expect((await add(reader, { patient_id: patient.patientId, doctor_id: dermatologist })).statusCode).toBe(
      403,
    );
    expect((await remove(reader, entryId)).statusCode).toBe(403); // may see it, may not remove it
    expect((await remove(helper, entryId)).statusCode).toBe(200);
    expect(await names(patient)).toEqual([]);
    // By the doctor's directory id, as DELETE /api/doctors/:id may name the doctor; a caregiver names the
    // patient.
    await add(patient, { patient_id: patient.patientId, doctor_id: dermatologist });
    const byReader = await as(ctx, reader, {
      method: 'DELETE',
      url: `/api/doctors/${dermatologist}?patient=${patient.patientId}`,
    });
    expect(byReader.statusCode).toBe(403);
    const byHelperDoctorId = await as(ctx, helper, {
      method: 'DELETE',
      url: `/api/doctors/${dermatologist}?patient=${patient.patientId}`,
    });
    expect(byHelperDoctorId.statusCode).toBe(200);
    expect(await names(patient)).toEqual([]);
    await add(patient, { patient_id: patient.patientId, doctor_id: dermatologist });
    expect((await remove(patient, dermatologist)).statusCode).toBe(200);
    expect(await names(patient)).toEqual([]);
  });
});

describe('my doctors in the batched replay', () => {
  const push = (person: Person, changes: unknown[]) =>
    as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });

  it('adds and removes as the REST calls do, refuses an edit, and the pull brings the entries', async () => {
    const entryId = randomUUID();
    const pushed = await push(patient, [
      {
        idempotency_key: 'push-doctor-add-1',
        resource: 'doctors',
        op: 'create',
        id: entryId,
        payload: { patient_id: patient.patientId, doctor_id: cardiologist },
      },
      {
        idempotency_key: 'push-doctor-edit-1',
        resource: 'doctors',
        op: 'update',
        id: entryId,
        payload: { name: 'Made Up' },
      },
      {
        idempotency_key: 'push-doctor-add-2',
        resource: 'doctors',
        op: 'create',
        id: randomUUID(),
        payload: { patient_id: patient.patientId, doctor_id: cardiologist },
      },
    ]);
    expect(pushed.statusCode).toBe(200);
    const results = pushed.json<{ results: { status: number; body: { message?: string } }[] }>().results;
    expect(results.map((result) => result.status)).toEqual([201, 400, 409]);
    expect(results[1]?.body.message).toBe(MY_DOCTOR_MESSAGES.notEditable);

    const pulled = await as(ctx, patient, { method: 'GET', url: '/api/sync/pull?cursor=0' });
    const changes = pulled.json<{ changes: { resource: string; id: string; data: { name?: string } }[] }>()
      .changes;
    expect(changes.filter((change) => change.resource === 'doctors')).toMatchObject([
      { id: entryId, data: { name: 'Zoe Heart' } },
    ]);

    const removed = await push(patient, [
      { idempotency_key: 'push-doctor-remove-1', resource: 'doctors', op: 'delete', id: entryId },
    ]);
    expect(removed.json().results[0].status).toBe(200);
    expect(await names(patient)).toEqual([]);
  });

  it("shows a caregiver the patient's doctors in the pull only with ReadDoctor", async () => {
    await add(patient, { patient_id: patient.patientId, doctor_id: cardiologist });
    const withRead = await makePerson(ctx, 'Caregiver', 'With');
    const without = await makePerson(ctx, 'Caregiver', 'Without');
    await link(ctx, patient, withRead, ['ReadDoctor']);
    await link(ctx, patient, without, ['ReadAppointment']);
    const resources = async (person: Person) =>
      (await as(ctx, person, { method: 'GET', url: '/api/sync/pull?cursor=0' }))
        .json<{ changes: { resource: string }[] }>()
        .changes.map((change) => change.resource);
    expect(await resources(withRead)).toEqual(['doctors']);
    expect(await resources(without)).toEqual([]);
  });
});
