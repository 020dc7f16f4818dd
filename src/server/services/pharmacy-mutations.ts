import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  addPharmacyBodySchema,
  MY_PHARMACY_MESSAGES as MESSAGES,
  PHARMACY_PERMISSIONS as PERMISSIONS,
  myPharmacyResponseSchema,
  PHARMACY_PROFILE_FIELDS,
  updatePharmacyBodySchema,
  type MyPharmacy,
} from '../../domain/pharmacies';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { notAllowed } from './access';
import { directoryPharmacy } from './directory-search';
import type { StoredAnswer, Transaction } from './idempotency';
import { listEntryFor, listedEntries } from './list-entries';
import { answerAbout, defineMutations, type MutationContext, deleteAndAnswer } from './record-mutations';
import {
  createRecord,
  toWire,
  updateRecord,
  type RecordRow,
  type WireRow,
  type WriteOptions,
} from './records';

// A patient's pharmacies: POST /api/pharmacies/add, PUT /api/pharmacies/:id ({ preferred }) and DELETE
// /api/pharmacies/:id, shared by those routes and the batched replay. An entry holds the directory's
// pharmacy_id and a copy of the pharmacy taken from the directory by the server. At most one entry is
// preferred: making one preferred clears the others in the same transaction. The catalogue gives caregivers
// no permission to change a patient's pharmacies (ReadPharmacy and SearchPharmacy only), so these are the
// patient's own: a caregiver gets 403, another patient 404 for an entry.

const RESOURCE = 'pharmacies';
/** The access an answer is kept with (for the replay check): reading the list. */
const ANSWER_ACCESS = PERMISSIONS.read;

export const asMyPharmacy = (row: WireRow) => toWire(row) as MyPharmacy;

/** The patient a write names, which must be the caller's own record. */
function ownPatient(auth: AuthUser, named: string | undefined): string {
  const patientId = named ?? auth.patientId;
  if (!patientId || patientId !== auth.patientId) throw notAllowed();
  return patientId;
}

function ownEntry(context: MutationContext, id: string, allowDeleted = false): Promise<RecordRow> {
  // A caregiver changes no pharmacy list: refused for their role, whichever entry they name (403 says
  // nothing about it); another patient's entry is 404 to a patient.
  if (!context.auth.patientId) throw notAllowed();
  return listEntryFor(
    context.tx,
    context.access,
    { resource: RESOURCE, id, notFound: MESSAGES.notFound, read: PERMISSIONS.read },
    async (row) => row.patientId === context.auth.patientId,
    allowDeleted,
  );
}

/** Makes every other preferred entry of the patient not preferred: one pharmacy is the preferred one. */
async function clearOtherPreferred(
  tx: Transaction,
  patientId: string,
  keep: string,
  options: WriteOptions,
  changedAt: number | undefined,
): Promise<void> {
  const preferred = await listedEntries(tx, RESOURCE, patientId, { field: 'preferred', value: true });
  for (const row of preferred) {
    if (row.id === keep) continue;
    await updateRecord(
      tx,
      row,
      { patch: { preferred: false }, changedAt, deletedMessage: MESSAGES.notFound },
      options,
    );
  }
}

export async function addPharmacy(
  context: MutationContext,
  body: z.output<typeof addPharmacyBodySchema>,
): Promise<StoredAnswer> {
  const { tx, auth } = context;
  await context.access.requireBetaPolicy(tx);
  const patientId = ownPatient(auth, body.patient_id);
  const pharmacy = await directoryPharmacy(tx, body.pharmacy_id).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404
      ? new HttpError(400, MESSAGES.pharmacyUnknown)
      : error;
  });
  const listed = await listedEntries(tx, RESOURCE, patientId, {
    field: 'pharmacy_id',
    value: pharmacy.pharmacy_id,
  });
  if (listed.length > 0) throw new HttpError(409, MESSAGES.exists);
  const fields = Object.fromEntries(PHARMACY_PROFILE_FIELDS.map((field) => [field, pharmacy[field]]));
  // With no preferred pharmacy yet (the first one added, or the preferred one was removed), this is it.
  const preferred =
    body.preferred ||
    (await listedEntries(tx, RESOURCE, patientId, { field: 'preferred', value: true })).length === 0;
  const row = await createRecord(
    tx,
    {
      resource: RESOURCE,
      id: body.id ?? randomUUID(),
      patientId,
      createdBy: auth.userId,
      fields: { ...fields, preferred },
      changedAt: body.changed_at,
      existsMessage: MESSAGES.entryExists,
    },
    context.writeOptions,
  );
  if (preferred)
    await clearOtherPreferred(
      tx,
      patientId,
      row.id,
      { ...context.writeOptions, createBatch: undefined },
      body.changed_at,
    );
  return answerAbout(
    context,
    { patientId, permission: ANSWER_ACCESS },
    {
      statusCode: 201,
      body: { success: true, message: MESSAGES.added, data: asMyPharmacy(row), merged: false },
    },
  );
}

export async function updatePharmacy(
  context: MutationContext,
  id: string,
  body: z.output<typeof updatePharmacyBodySchema>,
): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await ownEntry(context, id, true);
  const { row, merged } = await updateRecord(
    context.tx,
    current,
    {
      patch: { preferred: body.preferred },
      baseVersion: body.base_version,
      changedAt: body.changed_at,
      deletedMessage: MESSAGES.notFound,
    },
    context.writeOptions,
  );
  if (body.preferred)
    await clearOtherPreferred(context.tx, current.patientId, id, context.writeOptions, body.changed_at);
  return answerAbout(
    context,
    { patientId: current.patientId, permission: ANSWER_ACCESS },
    {
      statusCode: 200,
      body: { success: true, message: MESSAGES.preferred, data: asMyPharmacy(row), merged },
    },
  );
}

export async function removePharmacy(context: MutationContext, id: string): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await ownEntry(context, id, true);
  return deleteAndAnswer(context, current, ANSWER_ACCESS, MESSAGES.removed);
}

export const pharmacyMutations = defineMutations({
  path: '/api/pharmacies',
  notFound: MESSAGES.notFound,
  rest: {
    tags: ['pharmacies'],
    idParams: z.object({ id: z.uuid({ error: MESSAGES.idInvalid }) }),
  },
  create: {
    path: '/api/pharmacies/add',
    body: addPharmacyBodySchema,
    run: (context, _id, body) => addPharmacy(context, body),
    rest: { response: myPharmacyResponseSchema },
  },
  // Making an entry the preferred pharmacy (or not) is the only change an entry takes.
  update: {
    body: updatePharmacyBodySchema,
    run: (context, id, body) => updatePharmacy(context, id, body),
    rest: { response: myPharmacyResponseSchema },
  },
  delete: { run: (context, id) => removePharmacy(context, id), rest: { response: myPharmacyResponseSchema } },
});
