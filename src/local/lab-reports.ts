import {
  labReportFieldsSchema,
  resultsOf,
  type LabReportFields,
  type LabReportOcrData,
} from '../domain/lab-reports';
import { BLOB_REFERENCE_PREFIX } from '../domain/sync';
import type { KincareDb, StoredBlob } from './db';
import { changedFieldsOf, enqueue, keepFile } from './outbox';

// The write path of lab reports: add, edit and delete go through here, are checked against the domain
// rules, and land in the local table and the outbox in one transaction (outbox.ts), so all of it works
// offline. A report chosen offline keeps its file in the blob store (uploaded before the change is sent)
// and waits to be read (labExtractions, see lab-report-extractions.ts); one read online is already uploaded.

const localFieldsSchema = labReportFieldsSchema.omit({ attachment_key: true });
type LocalFields = Omit<LabReportFields, 'attachment_key'>;

/** The report's file: kept on the device until the server has it, or already uploaded (read online). */
export type ReportFile = { blob: Blob; name: string } | { uploadedKey: string };

export type NewLabReport = {
  patient_id: string;
  caregiver_id: string | null;
  /** As the form holds them: report_date YYYY-MM-DD, report_ocr JSON text ('' when nothing was read). */
  fields: Omit<LocalFields, 'report_date'> & { report_date: string };
  file: ReportFile;
};

function fileReference(file: ReportFile, blob: StoredBlob | null): string {
  if ('uploadedKey' in file) return file.uploadedKey;
  return `${BLOB_REFERENCE_PREFIX}${blob?.id ?? ''}`;
}

/** Whether the report's file is still only on this device ('Waiting to upload'). */
export function isWaitingToUpload(report: { attachment_key: string | null }): boolean {
  return report.attachment_key?.startsWith(BLOB_REFERENCE_PREFIX) ?? false;
}

/**
 * Adds a report. `readLater`: nothing could be read yet (no connection), so once its file is uploaded it is
 * read and the person is asked to review what was found.
 */
export async function addLabReport(
  db: KincareDb,
  input: NewLabReport & { readLater?: boolean },
  now = new Date(),
): Promise<string> {
  const fields = localFieldsSchema.parse(input.fields);
  const blob = 'uploadedKey' in input.file ? null : keepFile(input.file, 'lab', input.patient_id);
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const payload = {
    ...fields,
    results: resultsOf(fields.report_ocr),
    attachment_key: fileReference(input.file, blob),
    id,
    patient_id: input.patient_id,
    caregiver_id: input.caregiver_id,
    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(
    db,
    { resource: 'lab_reports', id, op: 'create', payload, blobs: blob ? [blob] : [] },
    now.getTime(),
  );
  if (input.readLater) {
    await db.labExtractions.put({
      report_id: id,
      patient_id: input.patient_id,
      state: 'waiting',
      extraction: null,
      message: null,
      updated_at: stamp,
    });
  }
  return id;
}

/** Sends only the fields that changed, so edits made elsewhere to other fields survive the merge. */
export async function editLabReport(
  db: KincareDb,
  id: string,
  changes: Partial<LocalFields>,
  now = new Date(),
): Promise<void> {
  const current = await db.lab_reports.get(id);
  if (!current) throw new Error('This lab report no longer exists.');
  const checked = localFieldsSchema.partial().parse(changes);
  const patch = changedFieldsOf(current, checked);
  if (typeof patch.report_ocr === 'string') patch.results = resultsOf(patch.report_ocr);
  // A reviewed extraction is saved now: it no longer waits for review.
  if (patch.report_ocr !== undefined) await db.labExtractions.delete(id);
  if (Object.keys(patch).length === 0) return;
  await enqueue(
    db,
    { resource: 'lab_reports', id, op: 'update', payload: { ...patch, updated_at: now.toISOString() } },
    now.getTime(),
  );
}

export async function removeLabReport(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await db.labExtractions.delete(id);
  await enqueue(db, { resource: 'lab_reports', id, op: 'delete' }, now.getTime());
}

/** report_ocr as the API takes it: the reviewed extraction as JSON text. */
export function reportOcrText(
  extraction: Pick<LabReportOcrData, 'doctor_name' | 'report_date' | 'lab_results'> & {
    report_type?: string | null;
  },
): string {
  const lab_results = extraction.lab_results.map((row) => {
    const { review_reasons: _reasons, ...kept } = row as typeof row & { review_reasons?: unknown };
    return kept;
  });
  return JSON.stringify({
    doctor_name: extraction.doctor_name,
    report_date: extraction.report_date,
    report_type: extraction.report_type ?? null,
    lab_results,
  });
}
