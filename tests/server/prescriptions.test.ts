import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOSE_MARK_MESSAGES, doseMarkId } from '../../src/domain/medicine-schedule';
import { PRESCRIPTION_MESSAGES } from '../../src/domain/prescriptions';
import { directoryDoctors } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// Prescriptions and the medicine schedule on the real app: add, update, status, delete, the
// 'future' and filtered lists, the day's schedule and marking a dose, by REST and through POST
// /api/sync/push; bad input with its messages; what caregivers may and may not do.

let ctx: TestContext;
let patient: Person;
let doctorId: string;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi: '1234567893',
      name: 'Dr. Jane Smith',
      speciality: 'Family Medicine',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      phone: '(217) 555-0100',
      latitude: 39.8,
      longitude: -89.6,
    })
    .returning({ id: directoryDoctors.doctorId });
  doctorId = doctor?.id ?? '';
});

const metformin = (overrides: Record<string, unknown> = {}) => ({
  patient_id: patient.patientId,
  medicine_name: 'Metformin',
  strength: '500 mg',
  form: 'tablet',
  directions: 'Take 1 tablet by mouth twice daily',
  times: ['20:00', '08:00'],
  start_date: '2026-11-01',
  time_zone: 'America/New_York',
  ...overrides,
});
const add = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/prescriptions', payload: body });
const update = (person: Person, id: string, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'PUT', url: `/api/prescriptions/${id}`, payload: body });
const setStatus = (person: Person, id: string, status: string) =>
  as(ctx, person, { method: 'POST', url: '/api/prescriptions/status', payload: { id, status } });
const remove = (person: Person, id: string) =>
  as(ctx, person, { method: 'DELETE', url: `/api/prescriptions/${id}` });
const mark = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/prescriptions/schedule/taken', payload: body });
const names = async (person: Person, url: string) => {
  const response = await as(ctx, person, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { medicine_name: string }[] }>().data.map((row) => row.medicine_name);
};
const idOf = (response: { json: () => unknown }) => (response.json() as { data: { id: string } }).data.id;
const messageOf = (response: { json: () => unknown }) => (response.json() as { message: string }).message;

describe('prescriptions', () => {
  it('adds, lists current and upcoming, filters, updates, changes status and deletes', async () => {
    const created = await add(patient, { ...metformin(), doctor_id: doctorId, quantity: 60, refills: 2 });
    expect(created.statusCode, created.body).toBe(201);
    const id = idOf(created);
    expect(created.json()).toMatchObject({
      message: PRESCRIPTION_MESSAGES.added,
      data: {
        id,
        prescription_id: id,
        status: 'active',
        times: ['08:00', '20:00'], // sorted
        quantity: 60,
        refills: 2,
        reminders: true,
        alert_after_minutes: 60,
        caregiver_id: null,
      },
    });
    await add(
      patient,
      metformin({ medicine_name: 'Lisinopril', start_date: '2027-01-01', strength: '10 mg' }),
    );
    await add(
      patient,
      metformin({ medicine_name: 'Amoxicillin', start_date: '2026-10-01', end_date: '2026-10-10' }),
    );
    await add(
      patient,
      metformin({ medicine_name: 'Ibuprofen', times: [], as_needed: true, status: 'on_hold' }),
    );

    // 'future': active or on hold, not ended (newest start first); the ended course is left out.
    expect(await names(patient, '/api/prescriptions?mode=future&today=2026-11-23')).toEqual([
      'Lisinopril',
      'Ibuprofen',
      'Metformin',
    ]);
    expect(await names(patient, '/api/prescriptions?mode=all')).toHaveLength(4);
    // The filter: status, doctor, date range; 'all' means no filter.
    expect(await names(patient, '/api/prescriptions/filter?status=on_hold')).toEqual(['Ibuprofen']);
    expect(await names(patient, `/api/prescriptions/filter?doctor=${doctorId}`)).toEqual(['Metformin']);
    expect(
      await names(
        patient,
        '/api/prescriptions/filter?status=all&doctor=all&startDate=2026-10-05&endDate=2026-10-20',
      ),
    ).toEqual(['Amoxicillin']);
    expect(await names(patient, '/api/prescriptions/filter?startDate=2026-12-15')).toEqual([
      'Lisinopril',
      'Ibuprofen',
      'Metformin',
    ]);

    const changed = await update(patient, id, { strength: '1000 mg', times: ['09:00'] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      strength: '1000 mg',
      times: ['09:00'],
      medicine_name: 'Metformin',
    });

    const held = await setStatus(patient, id, 'discontinued');
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({
      message: PRESCRIPTION_MESSAGES.statusChanged,
      data: { status: 'discontinued' },
    });
    expect(await names(patient, '/api/prescriptions/filter?status=discontinued')).toEqual(['Metformin']);

    const deleted = await remove(patient, id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({
      message: PRESCRIPTION_MESSAGES.deleted,
      data: { id, deleted: true },
    });
    expect(await names(patient, '/api/prescriptions?mode=all')).not.toContain('Metformin');
    expect((await update(patient, id, { notes: 'late' })).statusCode).toBe(409);
  });

  it('refuses bad input with a message that says what to fix, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [metformin({ medicine_name: '  ' }), PRESCRIPTION_MESSAGES.nameRequired],
      [metformin({ times: ['8am'] }), PRESCRIPTION_MESSAGES.timeInvalid],
      [metformin({ times: ['08:00', '08:00'] }), PRESCRIPTION_MESSAGES.timesDuplicate],
      [metformin({ times: [] }), PRESCRIPTION_MESSAGES.timesRequired],
      [metformin({ end_date: '2026-10-01' }), PRESCRIPTION_MESSAGES.endBeforeStart],
      [metformin({ start_date: '2026-02-30' }), PRESCRIPTION_MESSAGES.startDateRequired],
      [metformin({ time_zone: 'Mars/Olympus' }), PRESCRIPTION_MESSAGES.timeZoneInvalid],
      [metformin({ status: 'paused' }), PRESCRIPTION_MESSAGES.statusInvalid],
      [metformin({ quantity: -1 }), PRESCRIPTION_MESSAGES.quantityInvalid],
      [metformin({ refills: 2.5 }), PRESCRIPTION_MESSAGES.refillsInvalid],
      [metformin({ form: 'gummy' }), PRESCRIPTION_MESSAGES.formInvalid],
      [metformin({ alert_after_minutes: 1 }), PRESCRIPTION_MESSAGES.alertAfterInvalid],
      [metformin({ notes: 'a\u0000b' }), 'This field contains characters that cannot be saved'],
      [metformin({ doctor_id: randomUUID() }), PRESCRIPTION_MESSAGES.doctorInvalid],
      [metformin({ pharmacy_id: randomUUID() }), PRESCRIPTION_MESSAGES.pharmacyInvalid],
      [metformin({ alert_caregivers: [randomUUID()] }), PRESCRIPTION_MESSAGES.caregiverNotLinked],
      [
        metformin({ attachment_key: 'prescription/0123456789abcdef0123456789abcdef.png' }),
        PRESCRIPTION_MESSAGES.imageUnknown,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await add(patient, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toContain(message.slice(0, 30));
    }
    expect(await names(patient, '/api/prescriptions?mode=all')).toEqual([]);

    const id = idOf(await add(patient, metformin()));
    const backwards = await update(patient, id, { end_date: '2026-01-01' });
    expect(backwards.statusCode).toBe(400);
    expect(messageOf(backwards)).toBe(PRESCRIPTION_MESSAGES.endBeforeStart);
    const noTimes = await update(patient, id, { times: [] });
    expect(messageOf(noTimes)).toBe(PRESCRIPTION_MESSAGES.timesRequired);
    expect((await setStatus(patient, id, 'paused')).statusCode).toBe(400);
    expect(
      (await as(ctx, patient, { method: 'GET', url: '/api/prescriptions/filter?startDate=2026-13-01' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await as(ctx, patient, {
          method: 'GET',
          url: '/api/prescriptions/filter?startDate=2026-12-01&endDate=2026-11-01',
        })
      ).statusCode,
    ).toBe(400);
    expect((await as(ctx, patient, { method: 'GET', url: '/api/prescriptions?mode=past' })).statusCode).toBe(
      400,
    );
    expect((await update(patient, 'not-a-uuid', { notes: 'x' })).statusCode).toBe(400);
    expect((await remove(patient, randomUUID())).statusCode).toBe(404);
    const unchanged = await as(ctx, patient, { method: 'GET', url: '/api/prescriptions?mode=all' });
    expect(unchanged.json().data[0]).toMatchObject({ end_date: null, times: ['08:00', '20:00'] });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/prescriptions' })).statusCode).toBe(401);
  });

  it('lets caregivers do only what the patient granted, and hides what they may not read', async () => {
    const id = idOf(await add(patient, metformin()));
    const reader = await makePerson(ctx, 'Caregiver', 'Rita Reader');
    const editor = await makePerson(ctx, 'Caregiver', 'Eddie Editor');
    const stranger = await makePerson(ctx, 'Caregiver', 'Sam Stranger');
    const otherPatient = await makePerson(ctx, 'Patient', 'Olive Other');
    await link(ctx, patient, reader, ['ReadPrescription']);
    await link(ctx, patient, editor, ['AddPrescription', 'EditPrescription']);
    const query = `?mode=all&patient=${patient.patientId}`;

    expect(await names(reader, `/api/prescriptions${query}`)).toEqual(['Metformin']);
    expect((await as(ctx, editor, { method: 'GET', url: `/api/prescriptions${query}` })).statusCode).toBe(
      403,
    );
    expect((await as(ctx, stranger, { method: 'GET', url: `/api/prescriptions${query}` })).statusCode).toBe(
      403,
    );
    expect(
      (await as(ctx, otherPatient, { method: 'GET', url: `/api/prescriptions${query}` })).statusCode,
    ).toBe(403);

    // A reader sees it and is told why they may not change it (403); a stranger learns nothing (404).
    expect((await update(reader, id, { notes: 'x' })).statusCode).toBe(403);
    expect((await update(stranger, id, { notes: 'x' })).statusCode).toBe(404);
    expect((await update(otherPatient, id, { notes: 'x' })).statusCode).toBe(404);
    expect((await remove(editor, id)).statusCode).toBe(404); // no Delete, no Read: it does not exist for them
    expect((await add(reader, metformin())).statusCode).toBe(403);

    // An editor without Read gets a receipt, none of the fields.
    const edited = await update(editor, id, { notes: 'Take with food' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toEqual({ id, version: expect.any(Number) });
    const added = await add(editor, metformin({ medicine_name: 'Atorvastatin' }));
    expect(added.statusCode).toBe(201);
    expect(added.body).not.toContain('Atorvastatin');
    expect(await names(patient, '/api/prescriptions?mode=all')).toEqual(['Atorvastatin', 'Metformin']);

    // Dose marks: the editor may mark, the reader may only look.
    expect(
      (await mark(reader, { schedule_id: id, date: '2026-11-23', time: '08:00', is_taken: true })).statusCode,
    ).toBe(403);
    expect(
      (await mark(stranger, { schedule_id: id, date: '2026-11-23', time: '08:00', is_taken: true }))
        .statusCode,
    ).toBe(404);
    const marked = await mark(editor, { schedule_id: id, date: '2026-11-23', time: '08:00', is_taken: true });
    expect(marked.statusCode, marked.body).toBe(200);
    const schedule = await as(ctx, reader, {
      method: 'GET',
      url: `/api/prescriptions/schedule?date=2026-11-23&patient=${patient.patientId}`,
    });
    expect(schedule.statusCode).toBe(200);
    const entry = schedule
      .json()
      .data.find((row: { medicine_name: string }) => row.medicine_name === 'Metformin');
    expect(entry.doses[0]).toMatchObject({
      time: '08:00',
      is_taken: true,
      marked_by: editor.userId,
      marked_by_name: 'Eddie Editor',
    });
    expect(
      (
        await as(ctx, stranger, {
          method: 'GET',
          url: `/api/prescriptions/schedule?date=2026-11-23&patient=${patient.patientId}`,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('derives the schedule of a day from active prescriptions, with each dose and its mark', async () => {
    const id = idOf(await add(patient, metformin()));
    await add(patient, metformin({ medicine_name: 'Vitamin D', times: ['08:00'], strength: '' }));
    await add(patient, metformin({ medicine_name: 'Paused', status: 'on_hold' }));
    await add(patient, metformin({ medicine_name: 'Later', start_date: '2026-12-01' }));
    await add(patient, metformin({ medicine_name: 'Sometimes', times: [], as_needed: true }));

    const first = await mark(patient, { schedule_id: id, date: '2026-11-23', time: '08:00', is_taken: true });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      message: DOSE_MARK_MESSAGES.markedTaken,
      data: { is_taken: true, marked_by_name: 'Pat Patient' },
    });
    // Marking the same dose again changes the one record (its id is made from the dose).
    const again = await mark(patient, {
      schedule_id: id,
      date: '2026-11-23',
      time: '08:00',
      is_taken: false,
    });
    expect(idOf(again)).toBe(idOf(first));
    expect(idOf(first)).toBe(await doseMarkId(id, '2026-11-23', '08:00'));
    expect(again.json().message).toBe(DOSE_MARK_MESSAGES.markedNotTaken);

    const response = await as(ctx, patient, {
      method: 'GET',
      url: '/api/prescriptions/schedule?date=2026-11-23',
    });
    expect(response.statusCode).toBe(200);
    const entries = response.json().data as {
      medicine_name: string;
      doses: { time: string; is_taken: boolean | null; due_at: string }[];
    }[];
    expect(entries.map((entry) => entry.medicine_name)).toEqual(['Metformin', 'Vitamin D']);
    expect(entries[0]?.doses).toMatchObject([
      { time: '08:00', is_taken: false, due_at: '2026-11-23T13:00:00.000Z' }, // 08:00 in New York (EST)
      { time: '20:00', is_taken: null },
    ]);

    // Bad marks: a made-up id, an unknown prescription, a bad day or time.
    const wrongId = await mark(patient, {
      id: randomUUID(),
      schedule_id: id,
      date: '2026-11-23',
      time: '08:00',
      is_taken: true,
    });
    expect(wrongId.statusCode).toBe(400);
    expect(messageOf(wrongId)).toBe(DOSE_MARK_MESSAGES.idMismatch);
    expect(
      (await mark(patient, { schedule_id: randomUUID(), date: '2026-11-23', time: '08:00', is_taken: true }))
        .statusCode,
    ).toBe(404);
    expect(
      (await mark(patient, { schedule_id: id, date: '23/11/2026', time: '08:00', is_taken: true }))
        .statusCode,
    ).toBe(400);
    expect(
      (await mark(patient, { schedule_id: id, date: '2026-11-23', time: '24:00', is_taken: true }))
        .statusCode,
    ).toBe(400);
    expect(
      (await mark(patient, { schedule_id: id, date: '2026-11-23', time: '08:00', is_taken: 'yes' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await as(ctx, patient, { method: 'GET', url: '/api/prescriptions/schedule?date=tomorrow' }))
        .statusCode,
    ).toBe(400);
  });

  it('takes two people marking one dose at the same moment: both answered, one mark, the later one', async () => {
    const id = idOf(await add(patient, metformin()));
    const carer = await makePerson(ctx, 'Caregiver', 'Cara Carer');
    await link(ctx, patient, carer, ['ReadPrescription', 'EditPrescription']);
    const dose = { schedule_id: id, date: '2026-11-23', time: '08:00' };
    const answers = await Promise.all([
      mark(patient, { ...dose, is_taken: true, changed_at: Date.now() - 1000 }),
      mark(carer, { ...dose, is_taken: false, changed_at: Date.now() }),
      mark(patient, { ...dose, is_taken: true, changed_at: Date.now() - 2000 }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map(idOf)).size).toBe(1);
    const schedule = await as(ctx, patient, {
      method: 'GET',
      url: '/api/prescriptions/schedule?date=2026-11-23',
    });
    expect(schedule.json().data[0].doses[0]).toMatchObject({ is_taken: false, marked_by: carer.userId });
  });

  it('takes prescriptions and marks through the batched replay; two devices marking one dose write one record', async () => {
    const id = randomUUID();
    const markId = await doseMarkId(id, '2026-11-23', '20:00');
    const push = (changes: Record<string, unknown>[]) =>
      as(ctx, patient, { method: 'POST', url: '/api/sync/push', payload: { changes } });
    const pushed = await push([
      {
        idempotency_key: `rx-${randomUUID()}`,
        resource: 'prescriptions',
        op: 'create',
        id,
        payload: metformin(),
      },
      {
        idempotency_key: `mark-${randomUUID()}`,
        resource: 'dose_marks',
        op: 'create',
        id: markId,
        payload: {
          schedule_id: id,
          date: '2026-11-23',
          time: '20:00',
          is_taken: true,
          changed_at: Date.now() - 60_000,
        },
      },
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect(pushed.json().results.map((result: { status: number }) => result.status)).toEqual([201, 200]);
    // A second device marked the same dose not taken, earlier: the later mark (taken) stays.
    const late = await push([
      {
        idempotency_key: `mark-${randomUUID()}`,
        resource: 'dose_marks',
        op: 'create',
        id: markId,
        payload: {
          schedule_id: id,
          date: '2026-11-23',
          time: '20:00',
          is_taken: false,
          changed_at: Date.now() - 120_000,
        },
      },
    ]);
    expect(late.json().results[0].status).toBe(200);
    const schedule = await as(ctx, patient, {
      method: 'GET',
      url: '/api/prescriptions/schedule?date=2026-11-23',
    });
    expect(schedule.json().data[0].doses[1]).toMatchObject({ time: '20:00', is_taken: true });

    // A mark is never edited or deleted as a record: only marked again.
    const refused = await push([
      { idempotency_key: `mark-${randomUUID()}`, resource: 'dose_marks', op: 'delete', id: markId },
    ]);
    expect(refused.json().results[0].status).toBe(400);

    // The marks go with the prescriptions in a pull: a caregiver without ReadPrescription gets neither.
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    const other = await makePerson(ctx, 'Caregiver', 'Appointments only');
    await link(ctx, patient, reader, ['ReadPrescription']);
    await link(ctx, patient, other, ['ReadAppointment']);
    const pulledBy = async (person: Person) =>
      (await as(ctx, person, { method: 'GET', url: '/api/sync/pull?cursor=0' }))
        .json<{ changes: { resource: string }[] }>()
        .changes.map((change) => change.resource)
        .sort();
    expect(await pulledBy(reader)).toEqual(['dose_marks', 'prescriptions']);
    expect(await pulledBy(other)).toEqual([]);
  });
});
