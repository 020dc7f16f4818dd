import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VITAL_MESSAGES } from '../../src/domain/vitals';
import { careLinks } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// /api/vitals on the real app, served from the resource's declaration alone (domain/resources/vitals.ts,
// server/services/record-resource.ts): create, list by patient, get, edit with a per-field merge and the
// whole reading checked again, delete; each rule of a reading refused with its sentence and nothing
// saved; a caregiver allowed exactly what the patient granted; another patient's reading is not found.

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

const pressure = (patientId: string | null, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  patient_id: patientId,
  kind: 'blood_pressure',
  unit: 'mmHg',
  systolic: 128,
  diastolic: 82,
  measured_at: '2026-11-20T08:15:00.000-05:00',
  note: 'Before breakfast',
  ...extra,
});
const pulse = (patientId: string | null, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  patient_id: patientId,
  kind: 'pulse',
  unit: 'bpm',
  value: 72,
  measured_at: '2026-11-21T07:00:00.000+01:00',
  ...extra,
});

function create(person: Person, body: Record<string, unknown>, key?: string) {
  return as(ctx, person, {
    method: 'POST',
    url: '/api/vitals',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}
const list = (person: Person, patientId?: string) =>
  as(ctx, person, { method: 'GET', url: `/api/vitals${patientId ? `?patient=${patientId}` : ''}` });
const edit = (person: Person, id: string, payload: Record<string, unknown>) =>
  as(ctx, person, { method: 'PUT', url: `/api/vitals/${id}`, payload });
const remove = (person: Person, id: string) =>
  as(ctx, person, { method: 'DELETE', url: `/api/vitals/${id}` });
const get = (person: Person, id: string) => as(ctx, person, { method: 'GET', url: `/api/vitals/${id}` });

describe('vitals', () => {
  it('creates with a client-minted id, lists the patient’s newest first, reads one, edits and deletes', async () => {
    const body = pressure(patient.patientId);
    const created = await create(patient, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      message: VITAL_MESSAGES.saved,
      merged: false,
      data: {
        id: body.id,
        patient_id: patient.patientId,
        kind: 'blood_pressure',
        unit: 'mmHg',
        systolic: 128,
        diastolic: 82,
        value: null,
        fasting: null,
        // Kept on the clock it was taken by.
        measured_at: '2026-11-20T08:15:00.000-05:00',
        note: 'Before breakfast',
        caregiver_id: null,
      },
    });
    const version = created.json().data.version as number;
    expect(version).toBeGreaterThan(0);

    const second = pulse(patient.patientId);
    expect((await create(patient, second)).statusCode).toBe(201);
    const listed = await list(patient);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([second.id, body.id]);
    expect((await list(patient, patient.patientId ?? '')).json().data).toHaveLength(2);

    expect((await get(patient, body.id)).json()).toMatchObject({ data: { id: body.id, systolic: 128 } });

    const edited = await edit(patient, body.id, { systolic: 132, base_version: version });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      merged: false,
      data: { systolic: 132, diastolic: 82, note: 'Before breakfast' },
    });
    expect(edited.json().data.version).toBeGreaterThan(version);

    const deleted = await remove(patient, body.id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({
      success: true,
      message: VITAL_MESSAGES.deleted,
      data: { id: body.id, deleted: true },
    });
    const gone = await get(patient, body.id);
    expect([gone.statusCode, gone.json().message]).toEqual([404, VITAL_MESSAGES.notFound]);
    expect((await list(patient)).json().data.map((row: { id: string }) => row.id)).toEqual([second.id]);
  });

  it('keeps a reading in the unit it was entered in', async () => {
    const weight = {
      ...pulse(patient.patientId),
      kind: 'weight',
      unit: 'lb',
      value: 165.4,
    };
    const glucose = {
      ...pulse(patient.patientId),
      kind: 'blood_glucose',
      unit: 'mmol/L',
      value: 5.6,
      fasting: true,
    };
    expect((await create(patient, weight)).json().data).toMatchObject({ unit: 'lb', value: 165.4 });
    expect((await create(patient, glucose)).json().data).toMatchObject({
      unit: 'mmol/L',
      value: 5.6,
      fasting: true,
    });
  });

  const future = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  it.each([
    ['kind', { kind: 'mood' }, 'kind', VITAL_MESSAGES.kindInvalid],
    ['a unit of another kind', { unit: 'kg' }, 'unit', 'The unit of blood pressure must be mmHg.'],
    ['a missing number', { diastolic: null }, 'diastolic', VITAL_MESSAGES.pressureMissing],
    [
      'a top number beyond 300',
      { systolic: 301 },
      'systolic',
      'The top number (systolic) must be between 20 and 300 mmHg. Please check the number.',
    ],
    [
      'a bottom number below 20',
      { diastolic: 19 },
      'diastolic',
      'The bottom number (diastolic) must be between 20 and 300 mmHg. Please check the number.',
    ],
    ['a bottom number above the top', { diastolic: 140 }, 'diastolic', VITAL_MESSAGES.diastolicAboveSystolic],
    [
      'a time that is not one',
      { measured_at: 'this morning' },
      'measured_at',
      VITAL_MESSAGES.measuredAtInvalid,
    ],
    ['a time in the future', { measured_at: future }, 'measured_at', VITAL_MESSAGES.measuredInFuture],
    ['fasting of a blood pressure', { fasting: true }, 'fasting', VITAL_MESSAGES.fastingOnlyForGlucose],
    ['a note over 500 characters', { note: 'x'.repeat(501) }, 'note', VITAL_MESSAGES.noteTooLong],
    ['a number given as text', { systolic: '128' }, 'systolic', VITAL_MESSAGES.valueMissing],
  ])('refuses %s with its sentence, and saves nothing', async (_what, change, path, message) => {
    const response = await create(patient, pressure(patient.patientId, change));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(response.json().errors[0].path).toBe(path);
    expect((await list(patient)).json().data).toEqual([]);
  });

  it.each([
    ['a pulse of 720', { value: 720 }, 'Pulse must be between 20 and 250 bpm. Please check the number.'],
    ['a pulse without its value', { value: null }, VITAL_MESSAGES.valueMissing],
    ['a pulse in mmHg', { unit: 'mmHg' }, 'The unit of pulse must be bpm.'],
  ])('refuses %s', async (_what, change, message) => {
    const response = await create(patient, pulse(patient.patientId, change));
    expect([response.statusCode, response.json().message]).toEqual([400, message]);
  });

  it('checks the whole reading again after an edit: one number changed alone cannot break the pair', async () => {
    const body = pressure(patient.patientId);
    const before = (await create(patient, body)).json().data;
    const refused = await edit(patient, body.id, { diastolic: 130 });
    expect([refused.statusCode, refused.json().message, refused.json().errors[0].path]).toEqual([
      400,
      VITAL_MESSAGES.diastolicAboveSystolic,
      'diastolic',
    ]);
    const unit = await edit(patient, body.id, { kind: 'weight' });
    expect([unit.statusCode, unit.json().message]).toEqual([400, 'The unit of weight must be kg or lb.']);
    expect((await get(patient, body.id)).json().data).toEqual(before);
    // Both numbers changed together are judged together.
    expect((await edit(patient, body.id, { systolic: 150, diastolic: 130 })).statusCode).toBe(200);
  });

  it('merges edits made on an older version per field, the later edit of a field winning, and says so', async () => {
    const t0 = Date.now() - 60_000;
    const body = pressure(patient.patientId, { changed_at: t0 });
    const base = (await create(patient, body)).json().data.version;
    const phone = await edit(patient, body.id, {
      note: 'Phone note',
      base_version: base,
      changed_at: t0 + 2000,
    });
    expect(phone.json().merged).toBe(false);
    // The tablet edited the same version earlier (offline): its systolic stays, its older note loses.
    const tablet = await edit(patient, body.id, {
      systolic: 135,
      note: 'Tablet note',
      base_version: base,
      changed_at: t0 + 1000,
    });
    expect(tablet.statusCode).toBe(200);
    expect(tablet.json()).toMatchObject({
      merged: true,
      data: { systolic: 135, diastolic: 82, note: 'Phone note' },
    });
  });

  it('lets a delete win over a later edit', async () => {
    const body = pulse(patient.patientId);
    const base = (await create(patient, body)).json().data.version;
    await remove(patient, body.id);
    const late = await edit(patient, body.id, { value: 80, base_version: base });
    expect([late.statusCode, late.json().message]).toEqual([409, VITAL_MESSAGES.deletedElsewhere]);
  });

  it('refuses a bad id and a repeated one with a sentence', async () => {
    const badId = await get(patient, 'not-a-uuid');
    expect([badId.statusCode, badId.json().message]).toEqual([400, 'id must be a UUID.']);
    const body = pulse(patient.patientId);
    await create(patient, body);
    const again = await create(patient, body);
    expect([again.statusCode, again.json().message]).toEqual([409, VITAL_MESSAGES.exists]);
  });

  it('needs a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/vitals' })).statusCode).toBe(401);
    const post = await ctx.app.inject({
      method: 'POST',
      url: '/api/vitals',
      payload: pulse(patient.patientId),
    });
    expect(post.statusCode).toBe(401);
  });

  it("does not show another patient's reading (404) and refuses writing or listing for them (403)", async () => {
    const other = await makePerson(ctx, 'Patient');
    const theirs = pulse(other.patientId);
    expect((await create(other, theirs)).statusCode).toBe(201);
    for (const response of [
      await get(patient, theirs.id),
      await edit(patient, theirs.id, { value: 99 }),
      await remove(patient, theirs.id),
    ])
      expect([response.statusCode, response.json().message]).toEqual([404, VITAL_MESSAGES.notFound]);
    expect((await create(patient, pulse(other.patientId))).statusCode).toBe(403);
    expect((await list(patient, other.patientId ?? '')).statusCode).toBe(403);
    expect((await get(other, theirs.id)).json().data.value).toBe(72);
  });
});

describe('a caregiver', () => {
  let caregiver: Person;
  let reading: ReturnType<typeof pulse>;
  beforeEach(async () => {
    caregiver = await makePerson(ctx, 'Caregiver');
    reading = pulse(patient.patientId);
    await create(patient, reading);
  });
  const grant = (permissions: string[]) => link(ctx, patient, caregiver, permissions);

  it('without a link or ReadVitals sees nothing', async () => {
    expect((await list(caregiver, patient.patientId ?? '')).statusCode).toBe(403);
    await grant(['ReadAppointment']);
    expect((await list(caregiver, patient.patientId ?? '')).statusCode).toBe(403);
    expect((await get(caregiver, reading.id)).statusCode).toBe(404);
  });

  it('with ReadVitals only reads: adding, editing and deleting are refused, and change nothing', async () => {
    await grant(['ReadVitals']);
    const listed = await list(caregiver, patient.patientId ?? '');
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([reading.id]);
    expect((await get(caregiver, reading.id)).json().data.value).toBe(72);
    expect((await create(caregiver, pulse(patient.patientId))).statusCode).toBe(403);
    expect((await edit(caregiver, reading.id, { value: 90 })).statusCode).toBe(403);
    expect((await remove(caregiver, reading.id)).statusCode).toBe(403);
    expect((await list(patient)).json().data).toMatchObject([{ id: reading.id, value: 72 }]);
  });

  it('with AddVitals adds a reading named as theirs (from the token, not the body)', async () => {
    await grant(['ReadVitals', 'AddVitals']);
    const added = await create(caregiver, pulse(patient.patientId, { caregiver_id: randomUUID() }));
    expect(added.statusCode).toBe(201);
    expect(added.json().data.caregiver_id).toBe(caregiver.caregiverId);
    expect((await edit(caregiver, reading.id, { value: 90 })).statusCode).toBe(403);
  });

  it('with AddVitals but not ReadVitals gets a receipt, not the reading', async () => {
    await grant(['AddVitals']);
    const body = pulse(patient.patientId);
    const added = await create(caregiver, body);
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toEqual({ id: body.id, version: expect.any(Number) });
  });

  it('with EditVitals corrects a reading, and with DeleteVitals removes it', async () => {
    await grant(['ReadVitals', 'EditVitals']);
    const edited = await edit(caregiver, reading.id, { value: 75, note: 'Rechecked' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ value: 75, note: 'Rechecked' });
    expect((await remove(caregiver, reading.id)).statusCode).toBe(403);
    // The patient widens the grant.
    await ctx.database.db
      .update(careLinks)
      .set({ permissions: ['ReadVitals', 'EditVitals', 'DeleteVitals'] })
      .where(eq(careLinks.caregiverId, caregiver.caregiverId ?? ''));
    expect((await remove(caregiver, reading.id)).statusCode).toBe(200);
    expect((await list(patient)).json().data).toEqual([]);
  });

  it('is told to select a patient when listing without one', async () => {
    await grant(['ReadVitals']);
    expect((await list(caregiver)).json().message).toBe('Please select patient.');
  });
});
