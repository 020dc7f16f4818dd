import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkInId } from '../../src/domain/check-in-steps';
import { MEDICAL_HISTORY_MESSAGES, medicalHistoryId } from '../../src/domain/medical-history';
import { doseMarkId } from '../../src/domain/medicine-schedule';
import { RECORD_ID_MESSAGES, uuidFromName } from '../../src/domain/record-ids';
import type { PushChange, PushResult } from '../../src/domain/sync';
import { records } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// Ids the app makes from what names a record (a patient's medical history, a day's check-in, a dose's
// mark: src/domain/record-ids.ts) belong to that record alone. Anyone who knows a patient's id (a caregiver
// who was invited sees it) could once create a record of another kind in their own account with such an
// id, and the patient's save then failed for ever. Now such an id is refused for any other record (the
// same refusal whether the patient's record exists or not), a squatting row left from before blocks
// nothing, and an id is only ever compared with records of its own resource.

let ctx: TestContext;
let patient: Person;
let outsider: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  outsider = await makePerson(ctx, 'Patient', 'Oscar Outsider');
});

const today = () => new Date().toISOString().slice(0, 10);
const DOSE = { date: '2026-11-23', time: '08:00' };
const RESERVED = {
  message: RECORD_ID_MESSAGES.nameBased,
  errors: [{ msg: RECORD_ID_MESSAGES.nameBased, path: 'id' }],
};

let keyCounter = 0;
const newKey = () => `record-ids-${++keyCounter}-${randomUUID().slice(0, 8)}`;

const visit = (person: Person, id: string) => ({
  id,
  patient_id: person.patientId,
  appointment_title: 'Squatting visit',
  appointment_date: '2026-12-01T09:30:00.000Z',
});
const medicine = (person: Person) => ({
  patient_id: person.patientId,
  medicine_name: 'Metformin',
  strength: '500 mg',
  form: 'tablet',
  directions: 'Take 1 tablet by mouth twice daily',
  times: ['08:00', '20:00'],
  start_date: '2026-11-01',
  time_zone: 'America/New_York',
});

async function pushOk(person: Person, changes: PushChange[]): Promise<PushResult[]> {
  const response = await as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: PushResult[] }>().results;
}
const createChange = (
  resource: PushChange['resource'],
  id: string,
  payload: Record<string, unknown>,
): PushChange => ({ idempotency_key: newKey(), resource, op: 'create', id, payload });

const createVisit = (person: Person, id: string) =>
  as(ctx, person, { method: 'POST', url: '/api/appointments', payload: visit(person, id) });
const addPrescription = async (person: Person): Promise<string> => {
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/prescriptions',
    payload: medicine(person),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: { id: string } }>().data.id;
};
const saveHistory = (person: Person) =>
  as(ctx, person, {
    method: 'PUT',
    url: '/api/medical-history',
    payload: { lifestyle: { smoking: 'never', alcohol: 'none', exercise: 'light', notes: '' } },
  });
const answerMood = (person: Person) =>
  as(ctx, person, {
    method: 'POST',
    url: '/api/interactions/respond',
    payload: { day: today(), question_id: 'mood', answer: 'good' },
  });
const markDose = (person: Person, scheduleId: string) =>
  as(ctx, person, {
    method: 'POST',
    url: '/api/prescriptions/schedule/taken',
    payload: { schedule_id: scheduleId, ...DOSE, is_taken: true },
  });

/** The ids the app makes for the patient's own records (the dose's from one of their prescriptions). */
async function namedIdsOf(person: Person, prescriptionId: string) {
  const patientId = person.patientId ?? '';
  return {
    history: await medicalHistoryId(patientId),
    checkIn: await checkInId(patientId, today()),
    dose: await doseMarkId(prescriptionId, DOSE.date, DOSE.time),
  };
}

const rowsWithId = (id: string) =>
  ctx.database.db
    .select({ resource: records.resource, patientId: records.patientId })
    .from(records)
    .where(eq(records.id, id));

describe('an id the app makes from a patient', () => {
  it('is refused for any other record, the same before and after the patient has theirs', async () => {
    const prescription = await addPrescription(patient);
    const named = await namedIdsOf(patient, prescription);
    const made = await uuidFromName('any name at all');
    const attempts = async () => {
      const answers = [];
      for (const id of [named.history, named.checkIn, named.dose, made]) {
        const rest = await createVisit(outsider, id);
        const pushed = await pushOk(outsider, [
          createChange('appointments', id, visit(outsider, id)),
          createChange('prescriptions', id, medicine(outsider)),
        ]);
        answers.push([
          [rest.statusCode, rest.json()],
          ...pushed.map((result) => [result.status, result.body]),
        ]);
      }
      return answers;
    };
    const refused = [400, RESERVED];
    expect(await attempts()).toEqual([0, 1, 2, 3].map(() => [refused, refused, refused]));
    for (const id of Object.values(named)) expect(await rowsWithId(id)).toEqual([]);

    // The patient's own saves take their ids; an outsider asking again learns nothing of it.
    expect((await saveHistory(patient)).statusCode).toBe(200);
    expect((await answerMood(patient)).statusCode).toBe(200);
    expect((await markDose(patient, prescription)).statusCode).toBe(200);
    expect(await attempts()).toEqual([0, 1, 2, 3].map(() => [refused, refused, refused]));
    const stored = await Promise.all(Object.values(named).map(rowsWithId));
    expect(stored.map((rows) => rows.map((row) => row.resource))).toEqual([
      ['medical_history'],
      ['check_ins'],
      ['dose_marks'],
    ]);
  });

  it('is taken only by its own record of its own patient (the server makes the id itself)', async () => {
    const prescription = await addPrescription(patient);
    const theirs = await namedIdsOf(patient, prescription);
    const pushed = await pushOk(outsider, [
      createChange('medical_history', theirs.history, {
        lifestyle: { smoking: 'never', alcohol: 'none', exercise: 'none', notes: '' },
      }),
      createChange('check_ins', theirs.checkIn, { day: today(), question_id: 'mood', answer: 'good' }),
      // A dose mark names its prescription: another patient's is not found, whatever the id.
      createChange('dose_marks', theirs.dose, { schedule_id: prescription, ...DOSE, is_taken: true }),
    ]);
    expect(pushed.map((result) => result.status)).toEqual([404, 404, 404]);
    // The patient's own dose mark under an id that is not the dose's is refused.
    const [wrongId] = await pushOk(patient, [
      createChange('dose_marks', randomUUID(), { schedule_id: prescription, ...DOSE, is_taken: true }),
    ]);
    expect(wrongId?.status).toBe(400);
    expect(
      await ctx.database.db
        .select()
        .from(records)
        .where(sql`${records.resource} <> 'prescriptions'`),
    ).toEqual([]);
  });

  it("never blocks the patient's save when a squatting row of another record was left from before", async () => {
    const prescription = await addPrescription(patient);
    const named = await namedIdsOf(patient, prescription);
    // Rows such as the outsider could create before these ids were refused: appointments of their own.
    for (const id of Object.values(named))
      await ctx.database.db.execute(sql`
        insert into records (id, resource, patient_id, version, data, field_changed_at, created_by)
        values (${id}, 'appointments', ${outsider.patientId}, nextval('change_version_seq'),
          ${JSON.stringify(visit(outsider, id))}::jsonb, '{}'::jsonb, ${outsider.userId})`);

    const history = await saveHistory(patient);
    expect([history.statusCode, history.json().message]).toEqual([200, MEDICAL_HISTORY_MESSAGES.saved]);
    expect((await answerMood(patient)).statusCode).toBe(200);
    expect((await markDose(patient, prescription)).statusCode).toBe(200);
    // And through a device's queue, as a create of the record.
    const [queued] = await pushOk(patient, [
      createChange('medical_history', named.history, {
        lifestyle: { smoking: 'former', alcohol: 'none', exercise: 'none', notes: '' },
      }),
    ]);
    expect(queued?.status).toBe(200);

    // The squatting rows are the outsider's own appointments still, and nobody else's business.
    for (const id of Object.values(named)) {
      const rows = await rowsWithId(id);
      expect(rows).toHaveLength(2);
      expect(rows).toContainEqual({ resource: 'appointments', patientId: outsider.patientId });
    }
    const theirs = await as(ctx, outsider, { method: 'GET', url: `/api/appointments/${named.history}` });
    expect([theirs.statusCode, theirs.json().data.appointment_title]).toEqual([200, 'Squatting visit']);
    const edit = await as(ctx, outsider, {
      method: 'PUT',
      url: `/api/appointments/${named.history}`,
      payload: { notes: 'still mine' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const removed = await as(ctx, outsider, { method: 'DELETE', url: `/api/appointments/${named.history}` });
    expect(removed.statusCode, removed.body).toBe(200);
    const [kept] = await ctx.database.db
      .select({ deletedAt: records.deletedAt, data: records.data })
      .from(records)
      .where(and(eq(records.id, named.history), eq(records.resource, 'medical_history')));
    expect(kept?.deletedAt).toBeNull();
    expect(kept?.data.lifestyle).toMatchObject({ smoking: 'former' });
  });
});

describe('an id taken by a record of another resource', () => {
  it("is answered as a new id: it says nothing of another account's record", async () => {
    const prescription = await addPrescription(patient);
    const fresh = await createVisit(outsider, randomUUID());
    const taken = await createVisit(outsider, prescription);
    expect([fresh.statusCode, taken.statusCode]).toEqual([201, 201]);
    const [pushed] = await pushOk(outsider, [
      createChange('lab_reports', prescription, { report_type: 'Blood Test', report_date: '2026-11-02' }),
    ]);
    // Refused for what it lacks (the report's file), as with any new id; never for the id.
    expect(pushed?.status).toBe(400);
    expect((await rowsWithId(prescription)).map((row) => row.resource).sort()).toEqual([
      'appointments',
      'prescriptions',
    ]);
    // Each account goes on with its own record of the id.
    const editPrescription = (strength: string) =>
      as(ctx, patient, { method: 'PUT', url: `/api/prescriptions/${prescription}`, payload: { strength } });
    const mine = await editPrescription('850 mg');
    expect([mine.statusCode, mine.json().data.medicine_name]).toEqual([200, 'Metformin']);
    const removed = await as(ctx, outsider, { method: 'DELETE', url: `/api/appointments/${prescription}` });
    expect(removed.statusCode).toBe(200);
    const still = await editPrescription('1000 mg');
    expect([still.statusCode, still.json().data.strength]).toEqual([200, '1000 mg']);
  });
});
