import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAB_REPORT_MESSAGES, type LabReportOcrData } from '../../../src/domain/lab-reports';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { LabUploadError } from '../../../src/local/lab-report-ocr';
import { readWaitingReports, retryExtraction } from '../../../src/local/lab-report-extractions';
import {
  addLabReport,
  editLabReport,
  isWaitingToUpload,
  removeLabReport,
  reportOcrText,
} from '../../../src/local/lab-reports';
import { pushChangeFor } from '../../../src/local/sync-resources';

// Lab reports on the device: every write lands in the table and the outbox together,
// a report chosen offline keeps its file on the device ('Waiting to upload') and is read once the file is
// uploaded, and what was read waits for the person's review: nothing unreviewed is saved to the report.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
const USER = '7d1f1c1e-0000-4000-8000-0000000000bb';
const KEY = `lab/${'a'.repeat(32)}.pdf`;
let db: KincareDb;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}${USER}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const fields = {
  report_type: 'Blood Test',
  report_date: '2026-11-02',
  doctor_id: null,
  doctor_name: null,
  report_ocr: '',
};
const extraction: LabReportOcrData = {
  doctor_name: 'Jane Smith',
  report_date: '2026-11-02',
  report_type: 'Lipid Panel',
  doctor_id: null,
  source: 'text-layer',
  lab_results: [
    {
      name: 'LDL Cholesterol',
      value: '131',
      unit: 'mg/dL',
      flag: 'H',
      reference_range: '0-99',
      code: '13457-7',
      needs_review: false,
    },
  ],
};
const pdf = () => ({ blob: new Blob(['%PDF-1.4'], { type: 'application/pdf' }), name: 'report.pdf' });

/** What the sync does once the file is uploaded and the create accepted: the row now holds the real key. */
async function uploaded(id: string): Promise<void> {
  await db.lab_reports.update(id, { attachment_key: KEY });
}

describe('lab reports on the device', () => {
  it('adds a report read online with its uploaded file and its reviewed results, in one outbox entry', async () => {
    const id = await addLabReport(db, {
      patient_id: PATIENT,
      caregiver_id: null,
      fields: { ...fields, report_ocr: reportOcrText(extraction) },
      file: { uploadedKey: KEY },
    });
    const row = await db.lab_reports.get(id);
    expect(row).toMatchObject({ attachment_key: KEY, results: [expect.objectContaining({ value: '131' })] });
    expect(isWaitingToUpload(row!)).toBe(false);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ resource: 'lab_reports', op: 'create', entityId: id });
    expect(await db.blobs.count()).toBe(0);
    expect(await db.labExtractions.count()).toBe(0);
    // Sent as the REST call would be: report_ocr as JSON text.
    const change = pushChangeFor(entry!);
    expect(JSON.parse(String(change.payload?.report_ocr))).toMatchObject({
      lab_results: [{ code: '13457-7' }],
    });
  });

  it('keeps a report chosen offline on the device, then reads it once uploaded; the result waits for review', async () => {
    const id = await addLabReport(db, {
      patient_id: PATIENT,
      caregiver_id: null,
      fields,
      file: pdf(),
      readLater: true,
    });
    const row = await db.lab_reports.get(id);
    expect(isWaitingToUpload(row!)).toBe(true);
    expect(await db.blobs.count()).toBe(1);
    expect(await db.labExtractions.get(id)).toMatchObject({ state: 'waiting', patient_id: PATIENT });

    const read = vi.fn(async () => extraction);
    // Not uploaded yet: nothing is read.
    expect(await readWaitingReports(db, { online: () => true, read })).toBe(0);
    expect(read).not.toHaveBeenCalled();

    await uploaded(id);
    const events: number[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent<number>).detail);
    window.addEventListener('kincare:lab-reports-read', listener);
    expect(await readWaitingReports(db, { online: () => true, read })).toBe(1);
    window.removeEventListener('kincare:lab-reports-read', listener);
    expect(read).toHaveBeenCalledWith(KEY, { patientId: PATIENT });
    expect(events).toEqual([1]);
    expect(await db.labExtractions.get(id)).toMatchObject({
      state: 'ready',
      extraction,
      message: LAB_REPORT_MESSAGES.readyToReview,
    });
    // The report itself is untouched until the person reviews and saves.
    expect((await db.lab_reports.get(id))?.report_ocr).toBe('');
    // Read once: a second pass finds nothing waiting.
    expect(await readWaitingReports(db, { online: () => true, read })).toBe(0);
    expect(read).toHaveBeenCalledTimes(1);

    // The person reviews and saves: the rows are kept, the job is done.
    await editLabReport(db, id, { report_ocr: reportOcrText(extraction), report_type: 'Lipid Panel' });
    expect(await db.lab_reports.get(id)).toMatchObject({
      report_type: 'Lipid Panel',
      results: [expect.objectContaining({ name: 'LDL Cholesterol' })],
    });
    expect(await db.labExtractions.get(id)).toBeUndefined();
  });

  it('keeps the server’s message when reading fails, waits again when the connection drops, and retries', async () => {
    const id = await addLabReport(db, {
      patient_id: PATIENT,
      caregiver_id: null,
      fields,
      file: pdf(),
      readLater: true,
    });
    await uploaded(id);
    const refused = vi.fn(async () => {
      throw new LabUploadError(LAB_REPORT_MESSAGES.notALabReport);
    });
    await readWaitingReports(db, { online: () => true, read: refused });
    expect(await db.labExtractions.get(id)).toMatchObject({
      state: 'failed',
      message: LAB_REPORT_MESSAGES.notALabReport,
    });

    await retryExtraction(db, id);
    let online = true;
    const dropped = vi.fn(async () => {
      online = false;
      throw new Error('Network Error');
    });
    await readWaitingReports(db, { online: () => online, read: dropped });
    expect((await db.labExtractions.get(id))?.state).toBe('waiting');
  });

  it('forgets the waiting read of a deleted report, and checks the fields it writes', async () => {
    const id = await addLabReport(db, {
      patient_id: PATIENT,
      caregiver_id: null,
      fields,
      file: pdf(),
      readLater: true,
    });
    await removeLabReport(db, id);
    expect(await db.labExtractions.get(id)).toBeUndefined();
    await expect(
      addLabReport(db, {
        patient_id: PATIENT,
        caregiver_id: null,
        fields: { ...fields, report_date: '' },
        file: pdf(),
      }),
    ).rejects.toThrow(LAB_REPORT_MESSAGES.reportDateRequired);
    await expect(
      addLabReport(db, {
        patient_id: PATIENT,
        caregiver_id: null,
        fields: { ...fields, report_ocr: '{"lab_results":[{"name":"x"}]}' },
        file: pdf(),
      }),
    ).rejects.toThrow(LAB_REPORT_MESSAGES.reportOcrInvalid);
  });
});
