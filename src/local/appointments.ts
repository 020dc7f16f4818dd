import { appointmentFieldsSchema, type AppointmentFields } from '../domain/appointments';
import { BLOB_REFERENCE_PREFIX } from '../domain/sync';
import type { KincareDb } from './db';
import { changedFieldsOf, enqueue, keepFile } from './outbox';

// The write path of appointments: every add, edit and delete goes through here, is checked against the
// domain rules, and lands in the local table and the outbox in one transaction (see outbox.ts). An
// attached file is kept in the blob store in that same transaction and uploaded before the change.

// The zone may be left out (a caller that does not know it): the appointment then reads as in the
// patient's zone, as one stored before appointments had zones.
const localFieldsSchema = appointmentFieldsSchema
  .omit({ attachment_key: true })
  .extend({ time_zone: appointmentFieldsSchema.shape.time_zone.optional() });
type LocalFields = Omit<AppointmentFields, 'attachment_key' | 'time_zone'> & {
  time_zone?: AppointmentFields['time_zone'];
};

/** A file the person attached: kept on the device until the server has it. */
export type Attachment = { blob: Blob; name: string };
export type NewAppointment = LocalFields & {
  patient_id: string;
  caregiver_id: string | null;
  attachment?: Attachment | null;
};

const keepAttachment = (attachment: Attachment, patientId: string) =>
  keepFile(attachment, 'appointment', patientId);

export async function addAppointment(
  db: KincareDb,
  input: NewAppointment,
  now = new Date(),
): Promise<string> {
  const { attachment, patient_id, caregiver_id, ...rest } = input;
  const fields = localFieldsSchema.parse(rest);
  const blob = attachment ? keepAttachment(attachment, patient_id) : null;
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const payload = {
    ...fields,
    attachment_key: blob ? `${BLOB_REFERENCE_PREFIX}${blob.id}` : null,
    id,
    patient_id,
    caregiver_id,
    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(
    db,
    { resource: 'appointments', id, op: 'create', payload, blobs: blob ? [blob] : [] },
    now.getTime(),
  );
  return id;
}

/**
 * Sends only the fields that changed, so edits made elsewhere to other fields survive the merge.
 * `attachment`: undefined keeps the current one, null removes it, a file replaces it.
 */
export async function editAppointment(
  db: KincareDb,
  id: string,
  changes: Partial<LocalFields>,
  now = new Date(),
  attachment?: Attachment | null,
): Promise<void> {
  const current = await db.appointments.get(id);
  if (!current) throw new Error('This appointment no longer exists.');
  const checked = localFieldsSchema.partial().parse(changes);
  const patch = changedFieldsOf(current, checked);
  const blob = attachment ? keepAttachment(attachment, current.patient_id) : null;
  if (attachment !== undefined) patch.attachment_key = blob ? `${BLOB_REFERENCE_PREFIX}${blob.id}` : null;
  if (Object.keys(patch).length === 0) return;
  await enqueue(
    db,
    {
      resource: 'appointments',
      id,
      op: 'update',
      payload: { ...patch, updated_at: now.toISOString() },
      blobs: blob ? [blob] : [],
    },
    now.getTime(),
  );
}

export async function removeAppointment(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await enqueue(db, { resource: 'appointments', id, op: 'delete' }, now.getTime());
}
