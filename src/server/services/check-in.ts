import { and, asc, between, eq } from 'drizzle-orm';
import {
  CHECK_IN_MESSAGES,
  isComplete,
  nextQuestion,
  sameAnswer,
  type CheckInAnswer,
  type CheckInEntry,
  type CheckInQuestionId,
  type CheckInStatus,
} from '../../domain/check-in';
import { uuidFromDigest } from '../../domain/medicine-schedule';
import type { Database } from '../db/client';
import { checkIns } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { Queryable, Transaction } from './transaction';

// The check-in of one patient and day: read, answered one question at a time, skipped and reset. Every
// change runs in a transaction holding the day's row, so two devices answering at once are put in order
// and the rules of applyAnswer see the answers as they are.

export type CheckInState = {
  id: string;
  day: string;
  status: CheckInStatus;
  answers: CheckInEntry[];
};

/** The check-in's id, made from the patient and the day, so it is known before its first answer is stored. */
export async function checkInId(patientId: string, day: string): Promise<string> {
  const name = new TextEncoder().encode(`kincare-check-in:${patientId.toLowerCase()}:${day}`);
  return uuidFromDigest(new Uint8Array(await crypto.subtle.digest('SHA-1', name)));
}

const stateColumns = {
  id: checkIns.id,
  day: checkIns.day,
  status: checkIns.status,
  answers: checkIns.answers,
};

/** The day's check-in; a fresh one when nothing of it is stored yet. */
export async function readCheckIn(db: Queryable, patientId: string, day: string): Promise<CheckInState> {
  const [row] = await db
    .select(stateColumns)
    .from(checkIns)
    .where(and(eq(checkIns.patientId, patientId), eq(checkIns.day, day)))
    .limit(1);
  return row ?? { id: await checkInId(patientId, day), day, status: 'in_progress', answers: [] };
}

/** The day's row, made if needed, held until the transaction ends. */
async function lockCheckIn(tx: Transaction, patientId: string, day: string): Promise<CheckInState> {
  const id = await checkInId(patientId, day);
  await tx.insert(checkIns).values({ id, patientId, day }).onConflictDoNothing();
  const [row] = await tx.select(stateColumns).from(checkIns).where(eq(checkIns.id, id)).for('update');
  if (!row) throw new Error('the check-in row was not written');
  return row;
}

async function store(tx: Transaction, state: CheckInState): Promise<CheckInState> {
  await tx
    .update(checkIns)
    .set({ answers: state.answers, status: state.status, updatedAt: new Date() })
    .where(eq(checkIns.id, state.id));
  return state;
}

/**
 * What an answer does to a check-in: nothing when the same answer was already given (a device sending a
 * queued answer again), the check-in moved on when it answers the next question, and otherwise a 409
 * that says why.
 */
export function applyAnswer(
  state: CheckInState,
  questionId: CheckInQuestionId,
  answer: CheckInAnswer,
): CheckInState | 'unchanged' {
  const given = state.answers.find((entry) => entry.question_id === questionId);
  if (given) {
    if (sameAnswer(given.answer, answer)) return 'unchanged';
    throw new HttpError(409, CHECK_IN_MESSAGES.answeredDifferently);
  }
  if (state.status === 'skipped') throw new HttpError(409, CHECK_IN_MESSAGES.skipped);
  const next = nextQuestion(state.answers);
  if (!next) throw new HttpError(409, CHECK_IN_MESSAGES.alreadyComplete);
  if (next.id !== questionId) throw new HttpError(409, CHECK_IN_MESSAGES.notNextQuestion(next.prompt));
  const answers = [...state.answers, { question_id: questionId, answer }];
  return { ...state, answers, status: isComplete(answers) ? 'completed' : 'in_progress' };
}

/** Answers the day's next question (`answer` already checked against the question's rule). */
export function answerCheckIn(
  db: Database,
  patientId: string,
  day: string,
  questionId: CheckInQuestionId,
  answer: CheckInAnswer,
): Promise<CheckInState> {
  return db.transaction(async (tx) => {
    const state = await lockCheckIn(tx, patientId, day);
    const changed = applyAnswer(state, questionId, answer);
    return changed === 'unchanged' ? state : store(tx, changed);
  });
}

/** Closes the day's check-in unanswered; a completed one stays completed. */
export function skipCheckIn(db: Database, patientId: string, day: string): Promise<CheckInState> {
  return db.transaction(async (tx) => {
    const state = await lockCheckIn(tx, patientId, day);
    if (state.status !== 'in_progress') return state;
    return store(tx, { ...state, status: 'skipped' });
  });
}

/** Clears the day's answers so the check-in starts again. */
export async function resetCheckIn(db: Database, patientId: string, day: string): Promise<CheckInState> {
  const id = await checkInId(patientId, day);
  await db
    .update(checkIns)
    .set({ answers: [], status: 'in_progress', updatedAt: new Date() })
    .where(eq(checkIns.id, id));
  return { id, day, status: 'in_progress', answers: [] };
}

/** The patient's check-ins from `from` to `until` (YYYY-MM-DD, both included), by day. */
export async function checkInsBetween(
  db: Queryable,
  patientId: string,
  from: string,
  until: string,
): Promise<Map<string, CheckInState>> {
  const rows = await db
    .select(stateColumns)
    .from(checkIns)
    .where(and(eq(checkIns.patientId, patientId), between(checkIns.day, from, until)))
    .orderBy(asc(checkIns.day));
  return new Map(rows.map((row) => [row.day, row]));
}
