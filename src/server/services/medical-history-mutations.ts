import {
  assembledHistory,
  assembleHistory,
  HISTORY_LISTS,
  MAX_HISTORY_ENTRIES,
  MEDICAL_HISTORY_MESSAGES as MESSAGES,
  medicalHistoryId,
  putMedicalHistoryBodySchema,
  storedPatchOf,
  type FullMedicalHistory,
  type MedicalHistory,
  type MedicalHistorySave,
} from '../../domain/medical-history';
import type { Permission } from '../../domain/permissions';
import type { PushChange } from '../../domain/sync';
import { HttpError } from '../plugins/errors';
import { notAllowed } from './access';
import { fingerprintOf, type StoredAnswer } from './idempotency';
import {
  answerAbout,
  answerOfInvalidBody,
  type MutationContext,
  type PreparedMutation,
  type ResourceMutations,
} from './record-mutations';
import {
  createRecord,
  findRecord,
  takeVersionLock,
  toWire,
  updateRecord,
  type Fields,
  type WireRow,
} from './records';

// Saving the patient's medical history: PUT /api/medical-history, and the same change replayed
// from a device's outbox (POST /api/sync/push, resource medical_history, op create or update). Both are
// one call, PUT /api/medical-history with the fields that changed: a create that updates the record when
// it exists, as dose marks do. The record's id is made from the patient (medicalHistoryId), so two devices
// that started it offline write the same record. Every entry is a field of its own (`<list>:<id>`, see
// domain/medical-history.ts), so each entry, and the lifestyle, keeps the edit made last: two devices'
// changes of different entries both stay.
//
// The answer's `data` is the record as STORED (entry fields and tombstones), the same as a pull brings:
// a device keeps it as its copy of the record, and its screens read it through assembleHistory. A REST
// caller gets it assembled into lists (restAnswerOf, applied to fresh and replayed answers alike).
//
// Only the patient writes their history. A caregiver reads it with ReadMedicalHistory, the one permission
// of the catalogue for it (src/domain/README.md), so no caregiver may change it: 403 whatever they were
// granted.

const RESOURCE = 'medical_history';
const PATH = '/api/medical-history';
/** The permission an answer is kept with: whoever may read the history may see the saved record. */
const READ: Permission = 'ReadMedicalHistory';

export type PutMedicalHistoryInput = MedicalHistorySave;

export const asMedicalHistory = (row: WireRow): FullMedicalHistory =>
  assembledHistory(toWire(row) as MedicalHistory);

/** A save's answer as REST shows it: its record assembled into lists (a receipt, id and version, as is). */
export function restAnswerOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('data' in body)) return body;
  const { data } = body;
  if (typeof data !== 'object' || data === null || !('patient_id' in data)) return body;
  return { ...body, data: assembledHistory(data as MedicalHistory) };
}

/** Refuses a save that leaves a list it grew with more live entries than a list may hold. */
function checkListSizes(before: Fields, after: Fields): void {
  const [was, now] = [assembleHistory(before), assembleHistory(after)];
  for (const list of HISTORY_LISTS)
    if (now[list].length > MAX_HISTORY_ENTRIES && now[list].length > was[list].length)
      throw new HttpError(400, MESSAGES.tooManyEntries);
}

/**
 * The patient whose history a write changes: the caller's own. A caregiver never (403); a patient naming
 * another patient, 403 as every call naming a patient the caller may not act on.
 */
function writingPatient(context: MutationContext, named: string | undefined): string {
  const own = context.auth.patientId;
  if (!own) throw new HttpError(403, MESSAGES.caregiverReadOnly);
  if (named !== undefined && named.toLowerCase() !== own.toLowerCase()) throw notAllowed();
  return own;
}

// Two saves of the record in one pushed batch run one after the other (sync-push.ts createsToRun).
export async function saveMedicalHistory(
  context: MutationContext,
  sentId: string | undefined,
  body: PutMedicalHistoryInput,
): Promise<StoredAnswer> {
  const { tx, auth } = context;
  const { patient_id, id: bodyId, base_version, changed_at } = body;
  const patientId = writingPatient(context, patient_id);
  const id = await medicalHistoryId(patientId);
  // Another patient's history (or no history at all) by its id: not found, as any record not one's own.
  for (const named of [sentId, bodyId])
    if (named !== undefined && named.toLowerCase() !== id) throw new HttpError(404, MESSAGES.notFound);
  await context.access.requireBetaPolicy(tx);
  // With the version lock taken first, a second writer of the record waits, then finds the first's.
  if (!context.writeOptions.versionLockHeld) await takeVersionLock(tx);
  // Never handed to a batch's CreateBatch: the record may be written again by the next item of the batch.
  const writeOptions = { versionLockHeld: true };
  const existing = await findRecord(tx, RESOURCE, id);
  // Read under the version lock: a whole list sent removes the entries stored now and not sent.
  const patch = storedPatchOf(body, existing?.data ?? {}, Math.min(changed_at ?? Date.now(), Date.now()));
  let row;
  let merged = false;
  if (existing) {
    // No base (a device's create, or a REST call that names none): the server's copy may hold edits this
    // one never saw, so each field keeps the later of the two edits (by when each was made).
    ({ row, merged } = await updateRecord(
      tx,
      existing,
      {
        patch,
        baseVersion: base_version ?? 0,
        changedAt: changed_at,
        deletedMessage: MESSAGES.notFound,
      },
      writeOptions,
    ));
    // With no base the caller saw nothing of the server's copy: it was merged with other edits when the
    // record holds a field it did not send, or kept a later edit of one it sent.
    if (base_version === undefined) merged = heldOtherEdits(existing.data, row.data, patch);
  } else {
    // Only the fields sent are stored: a field stored empty here would be stamped now, and would beat
    // another device's earlier edit of it that arrives later.
    row = await createRecord(
      tx,
      {
        resource: RESOURCE,
        id,
        patientId,
        createdBy: auth.userId,
        fields: patch,
        changedAt: changed_at,
        existsMessage: MESSAGES.notFound,
      },
      writeOptions,
    );
  }
  // Thrown in the save's transaction (or savepoint), so the refused save leaves nothing behind.
  checkListSizes(existing?.data ?? {}, row.data);
  return answerAbout(
    context,
    { patientId, permission: READ },
    { statusCode: 200, body: { success: true, message: MESSAGES.saved, data: toWire(row), merged } },
  );
}

/** JSON with every object's keys in order: the database gives a record's keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Fields)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Whether the saved record holds edits besides these: a field not sent, or a later edit of one sent. */
function heldOtherEdits(before: Fields, after: Fields, patch: Fields): boolean {
  const sent = new Set(Object.keys(patch));
  if (Object.keys(before).some((field) => !sent.has(field))) return true;
  return [...sent].some((field) => canonical(after[field]) !== canonical(patch[field]));
}

/** A pushed change as the PUT it stands for: the id in the body, so it is checked as a REST call's is. */
function prepare(change: PushChange): PreparedMutation {
  const request = {
    ...change.payload,
    id: change.id,
    ...(change.base_version === undefined ? {} : { base_version: change.base_version }),
  };
  const parsed = putMedicalHistoryBodySchema.safeParse(request);
  if (!parsed.success) return { valid: false, answer: answerOfInvalidBody(parsed.error) };
  const input = parsed.data;
  return {
    valid: true,
    fingerprint: fingerprintOf('PUT', PATH, input),
    run: (context) => saveMedicalHistory(context, change.id, input),
  };
}

export const medicalHistoryMutations: ResourceMutations = {
  create: prepare,
  update: prepare,
  delete: () => ({
    valid: false,
    answer: { statusCode: 400, body: { message: MESSAGES.notDeletable } },
  }),
};
