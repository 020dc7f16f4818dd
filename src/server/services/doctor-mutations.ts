import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  addDoctorBodySchema,
  DOCTOR_PERMISSIONS as PERMISSIONS,
  DOCTOR_PROFILE_FIELDS,
  MY_DOCTOR_MESSAGES as MESSAGES,
  myDoctorResponseSchema,
  type MyDoctor,
} from '../../domain/doctors';
import type { Permission } from '../../domain/permissions';
import { HttpError } from '../plugins/errors';
import { directoryDoctor } from './directory-search';
import type { StoredAnswer } from './idempotency';
import {
  answerAbout,
  defineMutations,
  type AccessChecks,
  type MutationContext,
  deleteAndAnswer,
} from './record-mutations';
import { listEntryFor, listedEntries } from './list-entries';
import { createRecord, findRecord, toWire, type RecordRow, type WireRow } from './records';
import type { Queryable } from './transaction';

// Adding a doctor to a patient's list and removing one: POST /api/doctors/add and DELETE /api/doctors/:id,
// shared by those routes and by the batched replay (POST /api/sync/push). An entry is a synced record of
// resource `doctors` holding the directory's doctor_id and a copy of the profile, which the server takes
// from the directory (a device names only the doctor, so nobody can put a made-up profile in a list).

const RESOURCE = 'doctors';

export const asMyDoctor = (row: WireRow) => toWire(row) as MyDoctor;

/** The entry if the caller may do `permission` on it (404 unless they may read it, then 403). */
export function doctorEntryFor(
  db: Queryable,
  access: AccessChecks,
  id: string,
  permission: Permission,
  allowDeleted = false,
): Promise<RecordRow> {
  return listEntryFor(
    db,
    access,
    { resource: RESOURCE, id, notFound: MESSAGES.notFound, read: PERMISSIONS.read },
    (row) => access.mayActOn(db, row.patientId, permission),
    allowDeleted,
  );
}

export async function addDoctor(
  context: MutationContext,
  body: z.output<typeof addDoctorBodySchema>,
): Promise<StoredAnswer> {
  const { tx, auth } = context;
  await context.access.requireBetaPolicy(tx);
  const patientId = await context.access.patientForCall(tx, body.patient_id, PERMISSIONS.add);
  const profile = await directoryDoctor(tx, body.doctor_id).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404
      ? new HttpError(400, MESSAGES.doctorUnknown)
      : error;
  });
  const listed = await listedEntries(tx, RESOURCE, patientId, {
    field: 'doctor_id',
    value: profile.doctor_id,
  });
  if (listed.length > 0) throw new HttpError(409, MESSAGES.exists);
  const fields = Object.fromEntries(DOCTOR_PROFILE_FIELDS.map((field) => [field, profile[field]]));
  const row = await createRecord(
    tx,
    {
      resource: RESOURCE,
      id: body.id ?? randomUUID(),
      patientId,
      createdBy: auth.userId,
      fields: { ...fields, added_by_caregiver: auth.caregiverId }, // who added it, from the token
      changedAt: body.changed_at,
      existsMessage: MESSAGES.entryExists,
    },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId, permission: PERMISSIONS.add },
    {
      statusCode: 201,
      body: { success: true, message: MESSAGES.added, data: asMyDoctor(row), merged: false },
    },
  );
}

/**
 * The entry an id names: an entry's own id, or else the directory doctor_id of an entry in the patient's
 * list (DELETE /api/doctors/:id may name the doctor, as GET /api/doctors/:id does). Access is checked after,
 * on the entry, as for any removal: a caller who may not read the list learns nothing (404 either way).
 */
export async function doctorEntryIdOf(db: Queryable, id: string, patientId: string | null): Promise<string> {
  if ((await findRecord(db, RESOURCE, id)) || !patientId) return id;
  const [entry] = await listedEntries(db, RESOURCE, patientId, { field: 'doctor_id', value: id });
  return entry?.id ?? id;
}

export async function removeDoctor(context: MutationContext, id: string): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await doctorEntryFor(context.tx, context.access, id, PERMISSIONS.delete, true);
  return deleteAndAnswer(context, current, PERMISSIONS.delete, MESSAGES.removed);
}

export const doctorMutations = defineMutations({
  path: '/api/doctors',
  notFound: MESSAGES.notFound,
  // The delete's route is routes/directory.ts's own: it takes a directory doctor's id as well.
  rest: { tags: ['doctors'], idParams: z.object({ id: z.uuid({ error: MESSAGES.idInvalid }) }) },
  create: {
    path: '/api/doctors/add',
    body: addDoctorBodySchema,
    run: (context, _id, body) => addDoctor(context, body),
    rest: { response: myDoctorResponseSchema },
  },
  // An entry is the directory's profile: nothing in it is the person's to edit.
  update: {
    body: z.looseObject({}),
    run: async () => {
      throw new HttpError(400, MESSAGES.notEditable);
    },
  },
  delete: { run: (context, id) => removeDoctor(context, id) },
});
