import { z } from 'zod';
import {
  CHECK_IN_MESSAGES as MESSAGES,
  CHECK_IN_QUESTION_IDS,
  checkInDaySchema,
  isComplete,
  nextQuestion,
  sameAnswer,
  validateAnswer,
  type CheckInAnswer,
  type CheckInEntry,
  type CheckInQuestion,
  type CheckInQuestionId,
  type CheckInStatus,
} from './check-in';
import { uuidFromName } from './record-ids';
import { editMetaSchema } from './record-meta';

// A check-in moves one step at a time: an answer to its next question, a skip, or a reset. The same rules
// run on the device (which answers offline and shows the result at once) and on the server (which applies
// each queued step in order, and refuses one that no longer fits, e.g. after another device answered).
// The check-in is a synced record (resource `check_ins`); a step is sent as a create of that record,
// like a dose's mark: the server turns it into the record's new state.

/** The check-in's id, made from the patient and the day, so any device knows it before anything is stored. */
export function checkInId(patientId: string, day: string): Promise<string> {
  return uuidFromName(`kincare-check-in:${patientId.toLowerCase()}:${day}`);
}

export type CheckInState = {
  id: string;
  day: string;
  status: CheckInStatus;
  answers: CheckInEntry[];
};

export type CheckInStep =
  | { action: 'answer'; question_id: CheckInQuestionId; answer: CheckInAnswer }
  | { action: 'skip' }
  | { action: 'reset' };

export type StepOutcome =
  { ok: true; state: CheckInState; changed: boolean } | { ok: false; message: string };

const refused = (message: string): StepOutcome => ({ ok: false, message });

/**
 * What a step does to a check-in: an answer already given the same way changes nothing (a device sending
 * a queued answer again); an answer to the next question moves it on; any other answer is refused with
 * the reason. A skip closes an open check-in (a complete one stays complete); a reset starts it again.
 */
export function applyCheckInStep(state: CheckInState, step: CheckInStep): StepOutcome {
  if (step.action === 'reset') {
    const changed = state.status !== 'in_progress' || state.answers.length > 0;
    return { ok: true, state: { ...state, status: 'in_progress', answers: [] }, changed };
  }
  if (step.action === 'skip') {
    if (state.status !== 'in_progress') return { ok: true, state, changed: false };
    return { ok: true, state: { ...state, status: 'skipped' }, changed: true };
  }
  const given = state.answers.find((entry) => entry.question_id === step.question_id);
  if (given) {
    if (sameAnswer(given.answer, step.answer)) return { ok: true, state, changed: false };
    return refused(MESSAGES.answeredDifferently);
  }
  if (state.status === 'skipped') return refused(MESSAGES.skipped);
  const next = nextQuestion(state.answers);
  if (!next) return refused(MESSAGES.alreadyComplete);
  if (next.id !== step.question_id) return refused(MESSAGES.notNextQuestion(next.prompt));
  const answers = [...state.answers, { question_id: step.question_id, answer: step.answer }];
  const status: CheckInStatus = isComplete(answers) ? 'completed' : 'in_progress';
  return { ok: true, state: { ...state, answers, status }, changed: true };
}

/** The question to ask now: none once the check-in is complete or skipped (until it is reset). */
export const questionToAsk = (state: Pick<CheckInState, 'status' | 'answers'>): CheckInQuestion | null =>
  state.status === 'in_progress' ? nextQuestion(state.answers) : null;

/**
 * A step as `POST /api/interactions/respond` takes it, and as a device's queued change carries it (the
 * record's id, the edit time, and the device's own view of the result, which the server ignores: it
 * works the result out itself from what it holds).
 */
export const checkInStepBodySchema = z
  .object({
    day: checkInDaySchema,
    /** The record's id (a queued change); must be this day's check-in of this patient. */
    id: z.uuid({ error: MESSAGES.notFound }).optional(),
    /** The id init answered; must be this day's check-in of this patient. */
    interaction_id: z.uuid({ error: MESSAGES.notFound }).optional(),
    patient_id: z.uuid({ error: MESSAGES.patientInvalid }).optional(),
    question_id: z.enum(CHECK_IN_QUESTION_IDS, { error: MESSAGES.questionUnknown }).optional(),
    /** Checked against its question's rule below: the question says what an answer may be. */
    answer: z.unknown().optional(),
    action: z.enum(['skip', 'reset'], { error: MESSAGES.answerOrSkip }).optional(),
    ...editMetaSchema.shape,
  })
  .superRefine((body, context) => {
    const answers = body.question_id !== undefined || body.answer !== undefined;
    if (body.action !== undefined ? answers : body.question_id === undefined) {
      context.addIssue({ code: 'custom', message: MESSAGES.answerOrSkip, path: ['question_id'] });
      return;
    }
    if (body.question_id === undefined) return;
    const check = validateAnswer(body.question_id, body.answer);
    if (!check.ok) context.addIssue({ code: 'custom', message: check.message, path: ['answer'] });
  });
export type CheckInStepBody = z.output<typeof checkInStepBodySchema>;

/** The step a checked body asks for, with the answer in its stored form (multi-choice in the options' order). */
export function stepOfBody(body: CheckInStepBody): CheckInStep | { error: string } {
  if (body.action) return { action: body.action };
  if (body.question_id === undefined) return { error: MESSAGES.answerOrSkip };
  const checked = validateAnswer(body.question_id, body.answer);
  if (!checked.ok) return { error: checked.message };
  return { action: 'answer', question_id: body.question_id, answer: checked.answer };
}
