import {
  answerText,
  dailySummary,
  questionById,
  type CheckInAnswer,
  type CheckInDaySummary,
  type CheckInQuestionId,
  type CheckInRecord,
} from '../domain/check-in';
import { applyCheckInStep, checkInId, type CheckInState, type CheckInStep } from '../domain/check-in-steps';
import { STORAGE_KEYS } from '../domain/storage-keys';
import type { KincareDb } from './db';
import { enqueue } from './outbox';

// The daily check-in on the device (src/domain/README.md): the day's record in the replica's `check_ins`
// table, moved on by the same rules the server applies (domain/check-in-steps.ts), so a patient answers
// with no signal and sees the next question at once. Each step is queued (a create of the day's record,
// carrying the step and the device's view of the result) and replays in order when the device is back
// online; a step the server refuses (another device answered differently) is shown with its reason and
// rolled back, like any refused change.
//
// The localStorage key healthCheckinDone: set (to the day) when the day's check-in is completed or skipped,
// cleared by a reset; logout clears it with the other keys (session.ts).

export type StepResult = { ok: true; record: CheckInRecord } | { ok: false; message: string };

/**
 * The day's check-in as this device holds it; a fresh one when nothing of it is stored yet. Found by the
 * [patient_id+day] index before anything else is awaited: a live query (useLiveQuery) watches only the
 * tables it reads before its first await of something that is not Dexie's (the id's digest).
 */
export async function checkInOf(db: KincareDb, patientId: string, day: string): Promise<CheckInRecord> {
  const stored = await db.check_ins.where('[patient_id+day]').equals([patientId, day]).first();
  if (stored) return stored;
  const id = await checkInId(patientId, day);
  return { id, patient_id: patientId, version: 0, day, status: 'in_progress', answers: [] };
}

/** What the outbox shows of a step if the server refuses it: the question and the answer given. */
function labelOf(step: CheckInStep): string {
  if (step.action === 'skip') return 'Skip today’s check-in';
  if (step.action === 'reset') return 'Start today’s check-in again';
  const question = questionById(step.question_id);
  return question ? `${question.prompt} ${answerText(question, step.answer)}` : step.question_id;
}

async function takeStep(
  db: KincareDb,
  patientId: string,
  day: string,
  step: CheckInStep,
  now: Date,
): Promise<StepResult> {
  const current = await checkInOf(db, patientId, day);
  const state: CheckInState = { id: current.id, day, status: current.status, answers: current.answers };
  const outcome = applyCheckInStep(state, step);
  if (!outcome.ok) return outcome;
  const record: CheckInRecord = {
    ...current,
    status: outcome.state.status,
    answers: outcome.state.answers,
    updated_at: now.toISOString(),
    created_at: current.created_at ?? now.toISOString(),
  };
  if (!outcome.changed) return { ok: true, record };
  const stepFields =
    step.action === 'answer'
      ? { question_id: step.question_id, answer: step.answer }
      : { action: step.action };
  await enqueue(
    db,
    {
      resource: 'check_ins',
      id: current.id,
      op: 'create',
      payload: { ...record, ...stepFields, label: labelOf(step) },
    },
    now.getTime(),
  );
  rememberDone(record, day);
  return { ok: true, record };
}

export function answerCheckIn(
  db: KincareDb,
  patientId: string,
  day: string,
  questionId: CheckInQuestionId,
  answer: CheckInAnswer,
  now = new Date(),
): Promise<StepResult> {
  return takeStep(db, patientId, day, { action: 'answer', question_id: questionId, answer }, now);
}

export function skipCheckIn(db: KincareDb, patientId: string, day: string, now = new Date()) {
  return takeStep(db, patientId, day, { action: 'skip' }, now);
}

export function resetCheckIn(db: KincareDb, patientId: string, day: string, now = new Date()) {
  return takeStep(db, patientId, day, { action: 'reset' }, now);
}

function rememberDone(record: CheckInRecord, day: string): void {
  if (typeof localStorage === 'undefined') return;
  if (record.status === 'in_progress') localStorage.removeItem(STORAGE_KEYS.healthCheckinDone);
  else localStorage.setItem(STORAGE_KEYS.healthCheckinDone, day);
}

/** Whether this device finished or skipped the check-in of `day` (healthCheckinDone). */
export function checkInDoneOn(day: string): boolean {
  return typeof localStorage !== 'undefined' && localStorage.getItem(STORAGE_KEYS.healthCheckinDone) === day;
}

/**
 * Whether the patient shares their check-ins' mood screening (PHQ-2) with caregivers, as this device holds
 * it: the patient's medical history says so (its share_mood_screening; off while it does not). Found by
 * the patient_id index with nothing awaited first, so a live query over it follows the table.
 */
export async function moodScreeningShared(db: KincareDb, patientId: string): Promise<boolean> {
  const row = await db.medical_history.where('patient_id').equals(patientId).first();
  return row?.share_mood_screening === true;
}

/** The charts' days: `days` (oldest first), each with what was answered that day, from the replica. */
export async function checkInSummaries(
  db: KincareDb,
  patientId: string,
  days: readonly string[],
): Promise<CheckInDaySummary[]> {
  const first = days[0];
  const last = days[days.length - 1];
  if (first === undefined || last === undefined) return [];
  const stored = await db.check_ins
    .where('[patient_id+day]')
    .between([patientId, first], [patientId, last], true, true)
    .toArray();
  const byDay = new Map(stored.map((record) => [record.day, record]));
  return days.map((day) => {
    const record = byDay.get(day);
    return dailySummary(day, record?.status ?? null, record?.answers ?? []);
  });
}
