import { LAB_REPORT_MESSAGES as MESSAGES } from '../domain/lab-reports';
import type { KincareDb } from './db';
import type { LabExtractionJob } from './db-device-work';
import { extractLabReport, LabUploadError } from './lab-report-ocr';
import { isWaitingToUpload } from './lab-reports';

// Reports chosen without a connection (src/server/services/README.md): kept on the device with their file,
// listed as 'Waiting to upload', sent when the device reconnects (the outbox uploads the file first), and
// then read here, after a sync: each waiting report whose file the server now has is read, and what was found
// is kept on the device for the person to review (nothing unreviewed is saved to the report). The sync client
// runs this after every sync that leaves no problem; the screens read labExtractions live.

/** Fired on window when reports were read and wait for review; `detail` is how many. */
export const LAB_REPORTS_READ_EVENT = 'kincare:lab-reports-read';

let reading: Promise<number> | null = null;

/** Reads every waiting report whose file is uploaded; answers how many are now ready for review. */
export function readWaitingReports(
  db: KincareDb,
  options: { online?: () => boolean; read?: typeof extractLabReport } = {},
): Promise<number> {
  // One pass at a time: two syncs finishing together must not read a report twice.
  reading ??= readAll(db, options).finally(() => {
    reading = null;
  });
  return reading;
}

async function readAll(
  db: KincareDb,
  { online = () => navigator.onLine, read = extractLabReport }: Parameters<typeof readWaitingReports>[1] = {},
): Promise<number> {
  const jobs = await db.labExtractions.where('state').equals('waiting').toArray();
  let ready = 0;
  for (const job of jobs) {
    if (!online()) break;
    const report = await db.lab_reports.get(job.report_id);
    if (!report) {
      await db.labExtractions.delete(job.report_id); // deleted meanwhile: nothing to read
      continue;
    }
    if (!report.attachment_key || isWaitingToUpload(report)) continue; // its upload has not gone yet
    await update(db, job, { state: 'reading' });
    try {
      const extraction = await read(report.attachment_key, { patientId: job.patient_id });
      await update(db, job, { state: 'ready', extraction, message: MESSAGES.readyToReview });
      ready += 1;
    } catch (error) {
      const offline = !online();
      await update(db, job, {
        // Lost the connection halfway: try again on the next sync. Anything else is the server's answer.
        state: offline ? 'waiting' : 'failed',
        message: error instanceof LabUploadError ? error.message : MESSAGES.noExtraction,
      });
    }
  }
  if (ready > 0 && typeof window !== 'undefined')
    window.dispatchEvent(new CustomEvent(LAB_REPORTS_READ_EVENT, { detail: ready }));
  return ready;
}

async function update(
  db: KincareDb,
  job: LabExtractionJob,
  change: Partial<LabExtractionJob>,
): Promise<void> {
  // Only while the job is still there: a report deleted meanwhile stays without one.
  await db.labExtractions
    .where('report_id')
    .equals(job.report_id)
    .modify({ ...change, updated_at: new Date().toISOString() });
}

/** The person chose to read a failed report again. */
export async function retryExtraction(db: KincareDb, reportId: string): Promise<void> {
  await db.labExtractions.update(reportId, { state: 'waiting', message: null });
}
