import {
  prescriptionFieldsSchema,
  prescriptionProblems,
  type PrescriptionFields,
  type PrescriptionStatus,
} from '../domain/prescriptions';
import { BLOB_REFERENCE_PREFIX } from '../domain/sync';
import type { KincareDb, StoredBlob } from './db';
import { changedFieldsOf, enqueue, keepFile } from './outbox';

// The write path of prescriptions: add, edit, change status and delete go through here, are checked
// against the domain rules, and land in the local table and the outbox in one transaction (outbox.ts), so
// all of it works offline. A photo of the label is kept in the blob store and uploaded before the change.

const localFieldsSchema = prescriptionFieldsSchema.omit({ attachment_key: true });
type LocalFields = Omit<PrescriptionFields, 'attachment_key'>;

/**
 * A photo of the label or script the person chose: kept on the device until the server has it, or, when
 * it was read online (prescription-ocr.ts), already uploaded: its key.
 */
export type LabelPhoto = { blob: Blob; name: string } | { uploadedKey: string };
export type NewPrescription = LocalFields & {
  patient_id: string;
  caregiver_id: string | null;
  photo?: LabelPhoto | null;
};

function keepPhoto(photo: LabelPhoto, patientId: string): StoredBlob | null {
  return 'uploadedKey' in photo ? null : keepFile(photo, 'prescription', patientId);
}

/** What the record's attachment_key holds: the uploaded key, the device's blob, or nothing. */
function photoReference(photo: LabelPhoto | null | undefined, blob: StoredBlob | null): string | null {
  if (photo && 'uploadedKey' in photo) return photo.uploadedKey;
  return blob ? `${BLOB_REFERENCE_PREFIX}${blob.id}` : null;
}

function checkWhole(fields: Pick<PrescriptionFields, 'start_date' | 'end_date' | 'times' | 'as_needed'>) {
  const [problem] = prescriptionProblems(fields);
  if (problem) throw new Error(problem.message);
}

export async function addPrescription(
  db: KincareDb,
  input: NewPrescription,
  now = new Date(),
): Promise<string> {
  const { photo, patient_id, caregiver_id, ...rest } = input;
  const fields = localFieldsSchema.parse(rest);
  checkWhole(fields);
  const blob = photo ? keepPhoto(photo, patient_id) : null;
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const payload = {
    ...fields,
    attachment_key: photoReference(photo, blob),
    id,
    prescription_id: id,
    patient_id,
    caregiver_id,
    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(
    db,
    { resource: 'prescriptions', id, op: 'create', payload, blobs: blob ? [blob] : [] },
    now.getTime(),
  );
  return id;
}

/**
 * Sends only the fields that changed, so edits made elsewhere to other fields survive the merge.
 * `photo`: undefined keeps the current one, null removes it, a file replaces it.
 */
export async function editPrescription(
  db: KincareDb,
  id: string,
  changes: Partial<LocalFields>,
  now = new Date(),
  photo?: LabelPhoto | null,
): Promise<void> {
  const current = await db.prescriptions.get(id);
  if (!current) throw new Error('This prescription no longer exists.');
  const checked = localFieldsSchema.partial().parse(changes);
  checkWhole({ ...current, ...stripUndefined(checked) });
  const patch = changedFieldsOf(current, checked);
  const blob = photo ? keepPhoto(photo, current.patient_id) : null;
  if (photo !== undefined) patch.attachment_key = photoReference(photo, blob);
  if (Object.keys(patch).length === 0) return;
  await enqueue(
    db,
    {
      resource: 'prescriptions',
      id,
      op: 'update',
      payload: { ...patch, updated_at: now.toISOString() },
      blobs: blob ? [blob] : [],
    },
    now.getTime(),
  );
}

const stripUndefined = <Fields extends Record<string, unknown>>(fields: Fields) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Fields>;

/** POST /api/prescriptions/status as the device makes it: an edit of the status alone. */
export function setPrescriptionStatus(
  db: KincareDb,
  id: string,
  status: PrescriptionStatus,
  now = new Date(),
): Promise<void> {
  return editPrescription(db, id, { status }, now);
}

export async function removePrescription(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await enqueue(db, { resource: 'prescriptions', id, op: 'delete' }, now.getTime());
}

/** The device's zone is the default of a new prescription's times (the patient's own device, usually). */
export { deviceTimeZone } from '../domain/date-display';
