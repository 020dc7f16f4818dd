import type { z } from 'zod';
import {
  MEDICAL_HISTORY_MESSAGES as MESSAGES,
  medicalHistoryId,
  putMedicalHistoryBodySchema,
  withHistoryDefaults,
  type FullMedicalHistory,
  type MedicalHistory,
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

// Saving the patient's medical history: PUT /api/medical-history (API.md), and the same change replayed
// from a device's outbox (POST /api/sync/push, resource medical_history, op create or update). Both are
// one call, PUT /api/medical-history with the fields that changed: a create that updates the record when
// it exists, as dose marks do. The record's id is made from the patient (medicalHistoryId), so two devices
// that started it offline write the same record, and each field keeps the edit made last.
//
// Only the patient writes their history. A caregiver reads it with ReadMedicalHistory, the one permission
// of the catalogue for it (SPEC section 6), so no caregiver may change it: 403 whatever they were granted.

const RESOURCE = 'medical_history';
const PATH = '/api/medical-history';
/** The permission an answer is kept with: whoever may read the history may see the saved record. */
const READ: Permission = 'ReadMedicalHistory';

export type PutMedicalHistoryInput = z.output<typeof putMedicalHistoryBodySchema>;

export const asMedicalHistory = (row: WireRow): FullMedicalHistory =>
  withHistoryDefaults(toWire(row) as MedicalHistory);

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
  const { patient_id, id: bodyId, base_version, changed_at, ...fields } = body;
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
  const patch = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const existing = await findRecord(tx, RESOURCE, id);
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
  return answerAbout(
    context,
    { patientId, permission: READ },
    {
      statusCode: 200,
      body: { success: true, message: MESSAGES.saved, data: asMedicalHistory(row), merged },
    },
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
