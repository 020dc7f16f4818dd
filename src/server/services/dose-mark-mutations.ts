import type { z } from 'zod';
import { doseMarkBodySchema, type DoseMark } from '../../domain/dose-marks';
import { DOSE_MARK_MESSAGES as MESSAGES, doseMarkId } from '../../domain/medicine-schedule';
import { PRESCRIPTION_PERMISSIONS as PERMISSIONS } from '../../domain/prescriptions';
import { HttpError } from '../plugins/errors';
import type { StoredAnswer } from './idempotency';
import { prescriptionFor } from './prescription-mutations';
import { answerAbout, defineMutations, type MutationContext } from './record-mutations';
import { createRecord, findRecord, takeVersionLock, toWire, updateRecord, type WireRow } from './records';

// Marking a dose taken or not taken: POST /api/prescriptions/schedule/taken, and the same change
// replayed from a device's outbox. The patient marks their own doses; a caregiver needs EditPrescription
// (ReadPrescription only lets them see the schedule). The mark keeps who marked it and when.
//
// A dose is one record whose id is made from the prescription, the day and the time (doseMarkId): marking
// it again, from this device or another, writes the same record. So a mark is always a create that
// updates the record when it exists, and the later mark (by when the person made it) wins.

const RESOURCE = 'dose_marks';

export const asDoseMark = (row: WireRow) => toWire(row) as DoseMark;

export async function markDose(
  context: MutationContext,
  body: z.output<typeof doseMarkBodySchema>,
): Promise<StoredAnswer> {
  const { tx, auth } = context;
  const { schedule_id, date, time, is_taken, changed_at } = body;
  const id = await doseMarkId(schedule_id, date, time);
  if (body.id !== undefined && body.id !== id) throw new HttpError(400, MESSAGES.idMismatch);
  await context.access.requireBetaPolicy(tx);
  // A mark of a prescription deleted since (on another device) is kept: the dose was taken all the same.
  const prescription = await prescriptionFor(tx, context.access, schedule_id, PERMISSIONS.edit, true);
  const markedAt = new Date(Math.min(changed_at ?? Date.now(), Date.now())).toISOString();
  const fields = {
    schedule_id,
    date,
    time,
    is_taken,
    marked_by: auth.userId,
    marked_by_name: auth.name,
    marked_at: markedAt,
  };
  // Two people marking one dose at once (the patient and a caregiver) both find no mark and both create:
  // the second would get 409. With the version lock taken first, the second waits, then finds the first's
  // mark and updates it. (A pushed batch holds the lock already.)
  if (!context.writeOptions.versionLockHeld) await takeVersionLock(tx);
  const writeOptions = { ...context.writeOptions, versionLockHeld: true };
  const existing = await findRecord(tx, RESOURCE, id);
  let row;
  if (existing && !existing.deletedAt) {
    // base_version 0: the server's copy is newer than anything this mark saw, so each field keeps the
    // later of the two marks, judged by when each was made.
    ({ row } = await updateRecord(
      tx,
      existing,
      { patch: fields, baseVersion: 0, changedAt: changed_at, deletedMessage: MESSAGES.notFound },
      writeOptions,
    ));
  } else {
    row = await createRecord(
      tx,
      {
        resource: RESOURCE,
        id,
        patientId: prescription.patientId,
        createdBy: auth.userId,
        fields,
        changedAt: changed_at,
        existsMessage: MESSAGES.notChangeable,
      },
      writeOptions,
    );
  }
  const mark = asDoseMark(row);
  return answerAbout(
    context,
    { patientId: prescription.patientId, permission: PERMISSIONS.edit },
    {
      statusCode: 200,
      body: {
        success: true,
        message: mark.is_taken ? MESSAGES.markedTaken : MESSAGES.markedNotTaken,
        data: mark,
        merged: false,
      },
    },
  );
}

const notChangeable = (): Promise<StoredAnswer> => Promise.reject(new HttpError(400, MESSAGES.notChangeable));

export const doseMarkMutations = defineMutations({
  // Only marks are sent (creates); a mark is never edited or deleted except by marking the dose again.
  path: '/api/prescriptions/schedule/taken',
  notFound: MESSAGES.notFound,
  create: { body: doseMarkBodySchema, run: (context, _id, body) => markDose(context, body) },
  update: { body: doseMarkBodySchema.partial(), run: notChangeable },
  delete: { run: notChangeable },
});
