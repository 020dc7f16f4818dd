import type { z } from 'zod';
import { eq } from 'drizzle-orm';
import type { Permission } from '../../domain/permissions';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  LAB_REPORT_PERMISSIONS as PERMISSIONS,
  createLabReportBodySchema,
  latestReportDateOnServer,
  resultsOf,
  updateLabReportBodySchema,
  type LabReport,
} from '../../domain/lab-reports';
import { directoryDoctors } from '../db/schema';
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

// Adding, changing and deleting lab reports: the checks and answers of POST, PUT and DELETE
// /api/lab-reports, shared by those routes and the batched replay (POST /api/sync/push). The patient
// writes their own; a caregiver needs Add-, Edit- or DeleteLabReport for the patient. The rows of
// report_ocr are kept structured as `results` beside it (the Trends view charts them).

const RESOURCE = 'lab_reports';

/** The report as the API shows it: lab_report_id, report_image and creation_date beside ours. */
export function asLabReport(row: WireRow) {
  const wire = toWire(row) as LabReport;
  return {
    ...wire,
    lab_report_id: row.id,
    report_image: wire.attachment_key ?? null,
    creation_date: row.createdAt.toISOString(),
  };
}

/**
 * The report if it exists and the caller may do `permission` on it: 404 for a caller who may not even read
 * it (never reveal that it exists), 403 for one who may read it but not do this.
 */
export function labReportFor(
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

function refuseField(path: string, message: string): never {
  throw new HttpError(400, message, undefined, { errors: [{ msg: message, path }] });
}

/** The file must be the caller's upload, the doctor the directory's, the date not in the future. */
async function checkFields(
  context: MutationContext,
  fields: {
    attachment_key?: string | undefined;
    doctor_id?: string | null | undefined;
    report_date?: string;
  },
): Promise<void> {
  await requireOwnUpload(context, fields.attachment_key, MESSAGES.fileUnknown);
  if (fields.report_date && fields.report_date > latestReportDateOnServer())
    refuseField('report_date', MESSAGES.reportDateFuture);
  if (fields.doctor_id) {
    const [doctor] = await context.tx
      .select({ id: directoryDoctors.doctorId })
      .from(directoryDoctors)
      .where(eq(directoryDoctors.doctorId, fields.doctor_id))
      .limit(1);
    if (!doctor) refuseField('doctor_id', MESSAGES.doctorInvalid);
  }
}

export async function createLabReport(
  context: MutationContext,
  id: string,
  body: z.output<typeof createLabReportBodySchema>,
): Promise<StoredAnswer> {
  const { id: _id, patient_id, base_version: _base, changed_at, ...fields } = body;
  const { tx, auth } = context;
  await context.access.requireBetaPolicy(tx);
  const patientId = await context.access.patientForCall(tx, patient_id, PERMISSIONS.add);
  if (!fields.attachment_key) refuseField('report_image', MESSAGES.fileRequired);
  await checkFields(context, fields);
  const row = await createRecord(
    tx,
    {
      resource: RESOURCE,
      id,
      patientId,
      createdBy: auth.userId,
      // Who added it, from the token, not the body; the rows of report_ocr, structured.
      fields: { ...fields, results: resultsOf(fields.report_ocr), caregiver_id: auth.caregiverId },
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
      body: { success: true, message: MESSAGES.uploaded, data: asLabReport(row), merged: false },
    },
  );
}

export async function updateLabReport(
  context: MutationContext,
  id: string,
  body: z.output<typeof updateLabReportBodySchema>,
): Promise<StoredAnswer> {
  const { base_version, changed_at, ...patch } = body;
  await context.access.requireBetaPolicy(context.tx);
  const current = await labReportFor(context.tx, context.access, id, PERMISSIONS.edit, true);
  await checkFields(context, patch);
  const withResults =
    patch.report_ocr === undefined ? patch : { ...patch, results: resultsOf(patch.report_ocr) };
  const { row, merged } = await updateRecord(
    context.tx,
    current,
    {
      patch: withResults,
      baseVersion: base_version,
      changedAt: changed_at,
      deletedMessage: MESSAGES.deletedElsewhere,
    },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId: current.patientId, permission: PERMISSIONS.edit },
    { statusCode: 200, body: { success: true, message: MESSAGES.updated, data: asLabReport(row), merged } },
  );
}

export async function deleteLabReport(context: MutationContext, id: string): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await labReportFor(context.tx, context.access, id, PERMISSIONS.delete, true);
  // Its file goes with it once the delete commits (unless another live record holds it).
  const file = current.data.attachment_key;
  if (typeof file === 'string') context.releasedFiles?.add(file);
  return deleteAndAnswer(context, current, PERMISSIONS.delete, MESSAGES.deleted);
}

export const labReportMutations = defineMutations({
  path: '/api/lab-reports',
  notFound: MESSAGES.notFound,
  create: { body: createLabReportBodySchema, run: createLabReport },
  update: { body: updateLabReportBodySchema, run: updateLabReport },
  delete: { run: deleteLabReport },
});
