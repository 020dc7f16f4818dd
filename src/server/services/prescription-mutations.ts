import type { z } from 'zod';
import { and, eq, inArray } from 'drizzle-orm';
import type { Permission } from '../../domain/permissions';
import {
  PRESCRIPTION_MESSAGES as MESSAGES,
  PRESCRIPTION_PERMISSIONS as PERMISSIONS,
  createPrescriptionBodySchema,
  prescriptionDeleteResponseSchema,
  prescriptionFieldsSchema,
  prescriptionIdParamsSchema,
  prescriptionProblems,
  prescriptionResponseSchema,
  updatePrescriptionBodySchema,
  type Prescription,
  type PrescriptionFields,
} from '../../domain/prescriptions';
import { careLinks, directoryDoctors, directoryPharmacies } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { listEntryFor } from './list-entries';
import type { StoredAnswer } from './idempotency';
import {
  answerAbout,
  defineMutations,
  requireOwnUpload,
  type AccessChecks,
  type MutationContext,
  deleteAndAnswer,
} from './record-mutations';
import { createRecord, toWire, updateRecord, type RecordRow, type WireRow } from './records';
import type { Queryable } from './transaction';

// Adding, changing, changing the status of and deleting prescriptions: the checks and answers of POST, PUT
// and DELETE /api/prescriptions and POST /api/prescriptions/status, shared by those routes and the batched
// replay (POST /api/sync/push). The patient writes their own; a caregiver needs Add-, Edit- or
// DeletePrescription for the patient.

const RESOURCE = 'prescriptions';

/** The prescription as the API shows it: prescription_id, the product's name for it, beside id. */
export const asPrescription = (row: WireRow) => ({ ...toWire(row), prescription_id: row.id }) as Prescription;

/**
 * The prescription if it exists and the caller may do `permission` on it: 404 for a caller who may not even
 * read it (never reveal that it exists), 403 for one who may read it but not do this.
 */
export function prescriptionFor(
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

/** The doctor and pharmacy must be the directory's, the photo the caller's, the alerted caregivers the patient's. */
async function checkReferences(
  context: MutationContext,
  patientId: string,
  fields: Partial<
    Pick<PrescriptionFields, 'doctor_id' | 'pharmacy_id' | 'attachment_key' | 'alert_caregivers'>
  >,
): Promise<void> {
  const { tx } = context;
  await requireOwnUpload(context, fields.attachment_key, MESSAGES.imageUnknown);
  if (fields.doctor_id) {
    const [doctor] = await tx
      .select({ id: directoryDoctors.doctorId })
      .from(directoryDoctors)
      .where(eq(directoryDoctors.doctorId, fields.doctor_id))
      .limit(1);
    if (!doctor) throw new HttpError(400, MESSAGES.doctorInvalid);
  }
  if (fields.pharmacy_id) {
    const [pharmacy] = await tx
      .select({ id: directoryPharmacies.pharmacyId })
      .from(directoryPharmacies)
      .where(eq(directoryPharmacies.pharmacyId, fields.pharmacy_id))
      .limit(1);
    if (!pharmacy) throw new HttpError(400, MESSAGES.pharmacyInvalid);
  }
  const alerted = [...new Set(fields.alert_caregivers ?? [])];
  if (alerted.length > 0) {
    const linked = await tx
      .select({ caregiverId: careLinks.caregiverId })
      .from(careLinks)
      .where(and(eq(careLinks.patientId, patientId), inArray(careLinks.caregiverId, alerted)));
    if (linked.length !== alerted.length) throw new HttpError(400, MESSAGES.caregiverNotLinked);
  }
}

/** The rules across fields, on the record as it would be after the change. */
function checkWhole(fields: Pick<PrescriptionFields, 'start_date' | 'end_date' | 'times' | 'as_needed'>) {
  const [problem] = prescriptionProblems(fields);
  if (problem)
    throw new HttpError(400, problem.message, undefined, {
      errors: [{ msg: problem.message, path: problem.path }],
    });
}

const withoutUndefined = (patch: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));

export async function createPrescription(
  context: MutationContext,
  id: string,
  body: z.output<typeof createPrescriptionBodySchema>,
): Promise<StoredAnswer> {
  const { id: _id, patient_id, base_version: _base, changed_at, ...fields } = body;
  const { tx, auth } = context;
  await context.access.requireBetaPolicy(tx);
  const patientId = await context.access.patientForCall(tx, patient_id, PERMISSIONS.add);
  await checkReferences(context, patientId, fields);
  const row = await createRecord(
    tx,
    {
      resource: RESOURCE,
      id,
      patientId,
      createdBy: auth.userId,
      fields: { ...fields, caregiver_id: auth.caregiverId }, // who added it, from the token, not the body
      changedAt: changed_at,
      existsMessage: MESSAGES.exists,
    },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId, permission: PERMISSIONS.add },
    {
      statusCode: 201,
      body: { success: true, message: MESSAGES.added, data: asPrescription(row), merged: false },
    },
  );
}

export async function updatePrescription(
  context: MutationContext,
  id: string,
  body: z.output<typeof updatePrescriptionBodySchema>,
  message: string = MESSAGES.updated,
): Promise<StoredAnswer> {
  const { base_version, changed_at, ...patch } = body;
  await context.access.requireBetaPolicy(context.tx);
  const current = await prescriptionFor(context.tx, context.access, id, PERMISSIONS.edit, true);
  await checkReferences(context, current.patientId, patch);
  // The whole record after the change must still hold together (an end before the start, no times).
  const whole = prescriptionFieldsSchema
    .pick({ start_date: true, end_date: true, times: true, as_needed: true })
    .safeParse({ ...current.data, ...withoutUndefined(patch) });
  if (whole.success) checkWhole(whole.data);
  const { row, merged } = await updateRecord(
    context.tx,
    current,
    {
      patch,
      baseVersion: base_version,
      changedAt: changed_at,
      deletedMessage: MESSAGES.deletedElsewhere,
    },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId: current.patientId, permission: PERMISSIONS.edit },
    { statusCode: 200, body: { success: true, message, data: asPrescription(row), merged } },
  );
}

export async function deletePrescription(context: MutationContext, id: string): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await prescriptionFor(context.tx, context.access, id, PERMISSIONS.delete, true);
  return deleteAndAnswer(context, current, PERMISSIONS.delete, MESSAGES.deleted);
}

export const prescriptionMutations = defineMutations({
  path: '/api/prescriptions',
  notFound: MESSAGES.notFound,
  rest: { tags: ['prescriptions'], idParams: prescriptionIdParamsSchema },
  create: {
    body: createPrescriptionBodySchema,
    run: createPrescription,
    rest: { response: prescriptionResponseSchema },
  },
  update: {
    body: updatePrescriptionBodySchema,
    run: (context, id, body) => updatePrescription(context, id, body),
    rest: { response: prescriptionResponseSchema },
  },
  delete: { run: deletePrescription, rest: { response: prescriptionDeleteResponseSchema } },
});
