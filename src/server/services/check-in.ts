import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { CHECK_IN_MESSAGES as MESSAGES, type CheckInEntry, type CheckInStatus } from '../../domain/check-in';
import {
  applyCheckInStep,
  checkInId,
  questionToAsk,
  stepOfBody,
  type CheckInState,
  type CheckInStepBody,
} from '../../domain/check-in-steps';
import type { Permission } from '../../domain/permissions';
import { records } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { notAllowed } from './access';
import { dayWithinReach } from './check-in-days';
import { answerAbout, type MutationContext } from './record-mutations';
import { createRecord, findRecord, takeVersionLock, toWire, updateRecord, type RecordRow } from './records';
import type { StoredAnswer } from './idempotency';
import type { Queryable } from './transaction';

// The check-in of one patient and day, kept as a synced record (resource `check_ins`, one per patient and
// day, its id made from both) so a device holds its patient's check-ins in its replica and answers offline.
// Every step (an answer, a skip, a reset) is applied by the rules of domain/check-in-steps.ts to what the
// server holds, under the version lock: two devices answering at once are put in order, and a step that no
// longer fits (another device answered differently meanwhile) is refused with the reason.

const RESOURCE = 'check_ins';
/** The permission a check-in is read with (there is none of its own; see routes/check-in.ts). */
export const CHECK_IN_READ: Permission = 'ReadMedicalHistory';

const stateOf = (id: string, day: string, data: Record<string, unknown> | undefined): CheckInState => ({
  id,
  day,
  status: (data?.status as CheckInStatus | undefined) ?? 'in_progress',
  answers: (data?.answers as CheckInEntry[] | undefined) ?? [],
});

/** The day's check-in; a fresh one when nothing of it is stored yet. */
export async function readCheckIn(db: Queryable, patientId: string, day: string): Promise<CheckInState> {
  const id = await checkInId(patientId, day);
  const row = await findRecord(db, RESOURCE, id);
  return stateOf(id, day, row && !row.deletedAt && row.patientId === patientId ? row.data : undefined);
}

/** The patient's check-ins from `from` to `until` (YYYY-MM-DD, both included), by day. */
export async function checkInsBetween(
  db: Queryable,
  patientId: string,
  from: string,
  until: string,
): Promise<Map<string, CheckInState>> {
  const day = sql<string>`${records.data}->>'day'`;
  const rows = await db
    .select({ id: records.id, day, data: records.data })
    .from(records)
    .where(
      and(
        eq(records.resource, RESOURCE),
        eq(records.patientId, patientId),
        isNull(records.deletedAt),
        sql`${day} between ${from} and ${until}`,
      ),
    )
    .orderBy(asc(day));
  return new Map(rows.map((row) => [row.day, stateOf(row.id, row.day, row.data)]));
}

/** What respond and reset answer: where the check-in stands, and the record for the device's replica. */
export function stepAnswerOf(state: CheckInState, row: RecordRow | undefined) {
  return {
    completed: state.status === 'completed',
    status: state.status,
    next_question: questionToAsk(state),
    interaction_id: state.id,
    ...(row ? { data: toWire(row) } : {}),
  };
}

/**
 * The patient whose check-in a step changes: only the patient themself (a caregiver may not answer for
 * them, whatever they were granted), with the beta policy accepted.
 */
async function answeringPatient(context: MutationContext, named: string | undefined): Promise<string> {
  const { auth } = context;
  if (!auth.patientId) throw new HttpError(403, MESSAGES.patientOnly);
  if (named !== undefined && named.toLowerCase() !== auth.patientId.toLowerCase()) throw notAllowed();
  await context.access.requireBetaPolicy(context.tx);
  return auth.patientId;
}

/** 404 when an id sent is not this day's check-in of this patient (another's is not revealed). */
function requireSameCheckIn(id: string, ...sent: (string | undefined)[]): void {
  if (sent.some((value) => value !== undefined && value.toLowerCase() !== id))
    throw new HttpError(404, MESSAGES.notFound);
}

/**
 * Applies one step of the day's check-in, by REST (respond, reset) or from a device's queue (a create of
 * the `check_ins` record). `recordId` is the id a queued change names; REST calls name the check-in by
 * patient and day (and, optionally, the id init answered).
 */
export async function runCheckInStep(
  context: MutationContext,
  recordId: string | undefined,
  body: CheckInStepBody,
): Promise<StoredAnswer> {
  if (!dayWithinReach(body.day)) throw new HttpError(400, MESSAGES.dayOutOfReach);
  const patientId = await answeringPatient(context, body.patient_id);
  const id = await checkInId(patientId, body.day);
  requireSameCheckIn(id, recordId, body.id, body.interaction_id);
  const step = stepOfBody(body);
  if ('error' in step) throw new HttpError(400, step.error);
  const { tx, auth } = context;
  // With the version lock taken before the read, a second device's step waits for the first and sees it.
  if (!context.writeOptions.versionLockHeld) await takeVersionLock(tx);
  const writeOptions = { ...context.writeOptions, versionLockHeld: true };
  const existing = await findRecord(tx, RESOURCE, id);
  const live = existing && !existing.deletedAt ? existing : undefined;
  const outcome = applyCheckInStep(stateOf(id, body.day, live?.data), step);
  if (!outcome.ok) throw new HttpError(409, outcome.message);
  const { state } = outcome;
  const fields = { day: state.day, status: state.status, answers: state.answers };
  let row = live;
  if (outcome.changed || !live) {
    row = live
      ? (
          await updateRecord(
            tx,
            live,
            // The base is the version just read: the rules above saw it, so there is nothing to merge.
            { patch: fields, baseVersion: live.version, deletedMessage: MESSAGES.notFound },
            writeOptions,
          )
        ).row
      : await createRecord(
          tx,
          {
            resource: RESOURCE,
            id,
            patientId,
            createdBy: auth.userId,
            fields,
            changedAt: body.changed_at,
            existsMessage: MESSAGES.notFound,
          },
          writeOptions,
        );
  }
  return answerAbout(
    context,
    { patientId, permission: CHECK_IN_READ },
    { statusCode: 200, body: stepAnswerOf(state, row) },
  );
}
