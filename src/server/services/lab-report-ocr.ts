import { DateTime } from 'luxon';
import { extractLabReport } from '../../domain/lab-extraction';
import { LAB_REPORT_MESSAGES as MESSAGES, type LabReportOcrResponse } from '../../domain/lab-reports';
import { listedNames, matchByName, readUploadedDocument, type DocumentReaders } from './document-ocr';

// POST /api/lab-reports/ocr (README.md beside this file): reads a report the caller (or the patient they
// act for) uploaded with the one OCR service, rebuilds its result table from where the words stand
// (domain/lab-extraction.ts), and answers what it found for the person to review: the doctor (matched
// to the patient's doctors by name, case aside; left empty when none matches), the date, the rows with
// the doubtful ones marked, and a suggested report type. A document with no result rows is not a lab
// report as far as we can tell: the product's message for it, in `{ data: { error } }`.

export async function readLabReportFile(
  deps: DocumentReaders,
  input: { key: string; callerUserId: string; patientId: string; now?: Date },
): Promise<LabReportOcrResponse> {
  const read = await readUploadedDocument(deps, { ...input, unknownMessage: MESSAGES.fileUnknown });
  // Tomorrow in UTC: a report dated later than any zone's today is a misread, not a report date.
  const today = DateTime.fromJSDate(input.now ?? new Date(), { zone: 'utc' })
    .plus({ days: 1 })
    .toISODate();
  const extraction = extractLabReport(read.layout, today ? { today } : {});
  if (extraction.lab_results.length === 0) return { data: { error: MESSAGES.notALabReport } };
  const doctors = await listedNames(deps.db, 'doctors', input.patientId, 'doctor_id');
  return {
    data: {
      doctor_name: extraction.doctor_name,
      report_date: extraction.report_date,
      lab_results: extraction.lab_results,
      report_type: extraction.report_type,
      doctor_id: matchByName(extraction.doctor_name, doctors)?.id ?? null,
      source: read.source,
    },
  };
}
