import type { z } from 'zod';
import {
  APPOINTMENT_MESSAGES as MESSAGES,
  APPOINTMENT_PERMISSIONS as PERMISSIONS,
  appointmentIdParamsSchema,
  appointmentResponseSchema,
  createAppointmentBodySchema,
  deleteResponseSchema,
  updateAppointmentBodySchema,
  type Appointment,
} from '../../domain/appointments';
import type { Permission } from '../../domain/permissions';
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

// Creating, editing and deleting appointments: the checks and the answers of POST, PUT and DELETE
// /api/appointments, shared by those routes and by the batched replay (POST /api/sync/push).

const RESOURCE = 'appointments';

export const asAppointment = (row: WireRow) => toWire(row) as Appointment;

/** An attachment must be a file the caller uploaded (so nobody can point a record at another's file). */
const checkAttachment = (context: MutationContext, key: string | null | undefined) =>
  requireOwnUpload(context, key, MESSAGES.attachmentUnknown);

/**
 * The appointment if it exists and the caller may do `permission` on it. A caller who may not even read it
 * gets 404 (never reveal that it exists); one who may read it but not do this gets 403, since they can
 * see it and deserve the true reason (a caregiver whose Edit permission was withdrawn).
 */
export function appointmentFor(
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

export async function createAppointment(
  context: MutationContext,
  body: z.output<typeof createAppointmentBodySchema>,
): Promise<StoredAnswer> {
  const { id, patient_id, base_version: _base, changed_at, caregiver_id: _claimed, ...fields } = body;
  const { tx, auth } = context;
  await context.access.requireBetaPolicy(tx);
  const patientId = await context.access.patientForCall(tx, patient_id, PERMISSIONS.add);
  await checkAttachment(context, fields.attachment_key);
  const row = await createRecord(
    tx,
    {
      resource: RESOURCE,
      id,
      patientId,
      createdBy: auth.userId,
      fields: { ...fields, caregiver_id: auth.caregiverId }, // who booked it, from the token, not the body
      changedAt: changed_at,
      existsMessage: MESSAGES.exists,
    },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId, permission: PERMISSIONS.add },
    { statusCode: 201, body: { success: true, data: asAppointment(row), merged: false } },
  );
}

export async function updateAppointment(
  context: MutationContext,
  id: string,
  body: z.output<typeof updateAppointmentBodySchema>,
): Promise<StoredAnswer> {
  const { base_version, changed_at, ...patch } = body;
  await context.access.requireBetaPolicy(context.tx);
  await checkAttachment(context, patch.attachment_key);
  const current = await appointmentFor(context.tx, context.access, id, PERMISSIONS.edit, true);
  const { row, merged } = await updateRecord(
    context.tx,
    current,
    { patch, baseVersion: base_version, changedAt: changed_at, deletedMessage: MESSAGES.deletedElsewhere },
    context.writeOptions,
  );
  return answerAbout(
    context,
    { patientId: current.patientId, permission: PERMISSIONS.edit },
    { statusCode: 200, body: { success: true, data: asAppointment(row), merged } },
  );
}

export async function deleteAppointment(context: MutationContext, id: string): Promise<StoredAnswer> {
  await context.access.requireBetaPolicy(context.tx);
  const current = await appointmentFor(context.tx, context.access, id, PERMISSIONS.delete, true);
  return deleteAndAnswer(context, current, PERMISSIONS.delete, 'Appointment deleted');
}

export const appointmentMutations = defineMutations({
  path: '/api/appointments',
  notFound: MESSAGES.notFound,
  rest: { tags: ['appointments'], idParams: appointmentIdParamsSchema },
  create: {
    body: createAppointmentBodySchema,
    run: (context, _id, body) => createAppointment(context, body),
    rest: { response: appointmentResponseSchema },
  },
  update: {
    body: updateAppointmentBodySchema,
    run: updateAppointment,
    rest: { response: appointmentResponseSchema },
  },
  delete: { run: deleteAppointment, rest: { response: deleteResponseSchema } },
});
