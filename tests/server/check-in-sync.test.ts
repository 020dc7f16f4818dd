import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECK_IN_MESSAGES } from '../../src/domain/check-in';
import { checkInId } from '../../src/domain/check-in-steps';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// The check-in as a synced record (resource `check_ins`): what a device answered offline reaches the server
// as queued steps in one batch (POST /api/sync/push), each applied by the rules respond applies, in order;
// a step that no longer fits is refused alone; every device and the caregivers who may read it pull the
// day's record.

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
});

const today = () => new Date().toISOString().slice(0, 10);

type PushResult = { idempotency_key: string; status: number; body: Record<string, unknown> };

/** A queued step as a device sends it: a create of the day's record, with the device's own view along. */
const step = (id: string, payload: Record<string, unknown>) => ({
  idempotency_key: `check-in-${randomUUID()}`,
  resource: 'check_ins',
  op: 'create',
  id,
  payload: { day: today(), changed_at: Date.now(), ...payload },
});

async function push(person: Person, changes: unknown[]): Promise<PushResult[]> {
  const response = await as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: PushResult[] }>().results;
}

const pulled = async (person: Person) =>
  (await as(ctx, person, { method: 'GET', url: '/api/sync/pull?cursor=0' }))
    .json<{ changes: { resource: string; id: string; data: Record<string, unknown> | null }[] }>()
    .changes.filter((change) => change.resource === 'check_ins');

describe('a check-in answered offline', () => {
  it('replays its queued answers in order, and every device pulls the day as the server holds it', async () => {
    const id = await checkInId(patient.patientId ?? '', today());
    const results = await push(patient, [
      step(id, { question_id: 'mood', answer: 'good', status: 'in_progress', answers: [] }),
      step(id, { question_id: 'sleep', answer: '7' }),
      step(id, { question_id: 'pain', answer: 0 }),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const last = results[2]?.body;
    expect(last).toMatchObject({ status: 'in_progress', interaction_id: id });
    expect((last?.next_question as { id: string }).id).toBe('symptoms');
    // The answer carries the record, so the device's replica takes the server's version at once.
    expect(last?.data).toMatchObject({
      id,
      day: today(),
      patient_id: patient.patientId,
      status: 'in_progress',
    });

    const [record] = await pulled(patient);
    expect(record?.id).toBe(id);
    expect(record?.data?.answers).toEqual([
      { question_id: 'mood', answer: 'good' },
      { question_id: 'sleep', answer: '7' },
      { question_id: 'pain', answer: 0 },
    ]);
    // The REST view agrees.
    const init = await as(ctx, patient, { method: 'GET', url: `/api/interactions/init?day=${today()}` });
    expect(init.json<{ history: unknown[] }>().history).toHaveLength(3);
  });

  it('sent again (a lost answer), changes nothing; a step that no longer fits is refused alone', async () => {
    const id = await checkInId(patient.patientId ?? '', today());
    const mood = step(id, { question_id: 'mood', answer: 'good' });
    await push(patient, [mood]);
    const [again] = await push(patient, [mood]);
    expect(again?.status).toBe(200);
    // Another device answered 'bad' offline meanwhile: its queued answer is refused with the reason, and
    // the next step of the same batch (a skip) still applies.
    const results = await push(patient, [
      step(id, { question_id: 'mood', answer: 'bad' }),
      step(id, { action: 'skip' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([409, 200]);
    expect(results[0]?.body).toEqual({ message: CHECK_IN_MESSAGES.answeredDifferently });
    expect(results[1]?.body).toMatchObject({ status: 'skipped', next_question: null });
    const [record] = await pulled(patient);
    expect(record?.data).toMatchObject({
      status: 'skipped',
      answers: [{ question_id: 'mood', answer: 'good' }],
    });
  });

  it('a queued reset starts the day again; edits and deletes are refused', async () => {
    const id = await checkInId(patient.patientId ?? '', today());
    const results = await push(patient, [
      step(id, { question_id: 'mood', answer: 'okay' }),
      step(id, { action: 'reset' }),
      step(id, { question_id: 'mood', answer: 'very_good' }),
      { ...step(id, { status: 'completed' }), op: 'update' },
      { idempotency_key: `check-in-${randomUUID()}`, resource: 'check_ins', op: 'delete', id },
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 400, 400]);
    expect(results[3]?.body).toMatchObject({ message: CHECK_IN_MESSAGES.stepsOnly });
    const [record] = await pulled(patient);
    expect(record?.data?.answers).toEqual([{ question_id: 'mood', answer: 'very_good' }]);
  });

  it('applies the steps of one batch one after another, each on what the one before wrote', async () => {
    // Answered, sent; then started again and answered the same way offline: the reset and the answer
    // arrive together. Run side by side, both would read the stored day, and the answer (the same as
    // stored, so "nothing to change") would be lost under the reset.
    const id = await checkInId(patient.patientId ?? '', today());
    await push(patient, [step(id, { question_id: 'mood', answer: 'good' })]);
    const results = await push(patient, [
      step(id, { action: 'reset' }),
      step(id, { question_id: 'mood', answer: 'good' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    const [record] = await pulled(patient);
    expect(record?.data?.answers).toEqual([{ question_id: 'mood', answer: 'good' }]);
  });

  it('refuses a step for another day under this id, for a day out of reach, and a bad answer', async () => {
    const id = await checkInId(patient.patientId ?? '', today());
    const results = await push(patient, [
      step(id, { day: '2020-01-01', question_id: 'mood', answer: 'good' }),
      step(randomUUID(), { question_id: 'mood', answer: 'good' }),
      step(id, { question_id: 'pain', answer: 11 }),
      step(id, { question_id: 'mood', answer: 'good', action: 'skip' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([400, 404, 400, 400]);
    expect(results[0]?.body).toMatchObject({ message: CHECK_IN_MESSAGES.dayOutOfReach });
    expect(results[1]?.body).toEqual({ message: CHECK_IN_MESSAGES.notFound });
    expect(results[2]?.body).toMatchObject({ message: CHECK_IN_MESSAGES.scale(0, 10) });
    expect(results[3]?.body).toMatchObject({ message: CHECK_IN_MESSAGES.answerOrSkip });
    expect(await pulled(patient)).toEqual([]);
  });
});

describe('who pulls and who pushes a check-in', () => {
  it('caregivers pull it with Read Medical History only, and may never answer it', async () => {
    const id = await checkInId(patient.patientId ?? '', today());
    await push(patient, [step(id, { question_id: 'mood', answer: 'good' })]);
    const reader = await makePerson(ctx, 'Caregiver', 'History reader');
    const other = await makePerson(ctx, 'Caregiver', 'Appointments only');
    await link(ctx, patient, reader, ['ReadMedicalHistory']);
    await link(ctx, patient, other, ['ReadAppointment']);
    expect((await pulled(reader)).map((change) => change.id)).toEqual([id]);
    expect(await pulled(other)).toEqual([]);
    const stranger = await makePerson(ctx, 'Patient', 'Someone else');
    expect(await pulled(stranger)).toEqual([]);

    const [byCaregiver] = await push(reader, [step(id, { question_id: 'sleep', answer: '7' })]);
    expect(byCaregiver?.status).toBe(403);
    expect(byCaregiver?.body).toEqual({ message: CHECK_IN_MESSAGES.patientOnly });
    // Another patient naming the owner's record: their own day's check-in has another id.
    const [byStranger] = await push(stranger, [step(id, { question_id: 'sleep', answer: '7' })]);
    expect(byStranger?.status).toBe(404);
    const [record] = await pulled(patient);
    expect(record?.data?.answers).toEqual([{ question_id: 'mood', answer: 'good' }]);
  });
});
