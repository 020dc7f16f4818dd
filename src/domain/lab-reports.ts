import { z } from 'zod';
import { DateTime } from 'luxon';
import { labResultsSchema, type LabResult } from './lab-results';
import { editMetaSchema, recordReceiptSchema } from './record-meta';
import { safeText } from './text';
import { fileKeySchema } from './uploads';
import { labReportsResource } from './resources/lab-reports';

// Lab reports (src/server/services/README.md): a photo or PDF of a report, its type and date, the
// doctor who ordered it, and the results extracted from it and reviewed by the person. A synced record
// (resource `lab_reports`): lab_report_id is its id, report_image its file (kept as attachment_key, as every
// record's file is), creation_date when it was added. report_ocr travels as JSON text, as the API takes it;
// the server and the device keep its rows as structured `results` too, which the Trends view charts.

export const LAB_REPORT_MESSAGES = {
  // The product's texts, word for word.
  reportDateRequired: 'Report Date is required',
  reportDateFuture: 'Report Date cannot be in the future.',
  fileRequired: 'Report file is required',
  uploaded: 'Lab report uploaded successfully',
  updated: 'Lab report updated successfully',
  uploadFailed: 'Failed to upload lab report',
  fileUrlMissing: "Oops! Couldn't get file URL. Please try again.",
  imageUploadFailed: 'Image upload failed. Check your network or file size.',
  uploadError: (message: string) => `Upload error: ${message}`,
  noExtraction: 'No response received from data extraction service.',
  notALabReport:
    'Uploaded document does not appear to be lab report. Please verify and upload correct lab report.',
  fetchFailed: 'Failed to fetch lab reports',
  fetchFilteredFailed: 'Failed to fetch filtered lab reports',
  noReports: 'No reports found.',
  confirmDeletion: 'Are you sure you want to delete lab report? This action cannot be undone.',
  uploading: 'Uploading your lab report ... Hang tight!',
  analyzing: 'Analyzing your lab report to extract data...',
  review: '✅ Please review the extracted data before saving.',
  // Ours, beyond the texts above.
  reportTypeRequired: 'Report Type is required',
  reportTypeTooLong: 'Report Type must be at most 100 characters.',
  dateInvalid: 'Enter a valid date (YYYY-MM-DD).',
  doctorInvalid: 'Choose a valid doctor.',
  doctorNameTooLong: 'The doctor name must be at most 200 characters.',
  reportOcrInvalid: 'report_ocr must be the extracted results as JSON text.',
  reportOcrTooLong: 'report_ocr is too long: at most 200,000 characters.',
  patientInvalid: 'Choose a valid patient.',
  idInvalid: 'The lab report id must be a UUID.',
  notFound: 'Lab report not found.',
  exists: 'A lab report with this id already exists.',
  deletedElsewhere: 'This lab report was deleted on another device, so your change was not applied.',
  fileUnknown: 'The report file was not found. Upload it again.',
  deleted: 'Lab report deleted successfully',
  statusInvalid: "status must be 'all', 'needs_review' or 'reviewed'.",
  waitingToUpload: 'Waiting to upload',
  readyToReview: 'Your lab report has been read. Please review the extracted data before saving.',
  extractionOffline:
    'You are offline. The report is kept on this device and will be read when you are back online.',
} as const;

/** Tips shown with the review message ('together with a health tip'); one is picked per upload. */
export const HEALTH_TIPS = [
  'Tip: results just outside the range are common; your doctor reads them with your history.',
  'Tip: fasting for 8 to 12 hours before a lipid panel makes its results easier to compare.',
  'Tip: keep reports from the same lab when you can; ranges differ slightly between labs.',
  'Tip: drink water before a blood test; it makes the draw easier.',
  'Tip: bring your list of medicines to your next visit; some change lab values.',
] as const;

/** The permissions of its declaration (src/domain/resources). */
export const LAB_REPORT_PERMISSIONS = labReportsResource.permissions;

/** report_ocr may hold this many characters of JSON text. */
export const REPORT_OCR_MAX_CHARACTERS = 200_000;

const uuid = (message: string) => z.uuid({ error: message });

/** The date pickers show yyyy/MM/dd; the API takes that or YYYY-MM-DD and answers YYYY-MM-DD. */
export function normaliseReportDate(value: string): string | null {
  const match = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(value.trim());
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  return DateTime.fromISO(iso).isValid ? iso : null;
}

const reportDateText = (message: string) =>
  z
    .string({ error: LAB_REPORT_MESSAGES.reportDateRequired })
    .trim()
    .min(1, LAB_REPORT_MESSAGES.reportDateRequired)
    .transform((value, context) => {
      const date = normaliseReportDate(value);
      if (date === null) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return date;
    });

/**
 * Whether a report dated `date` lies in the future for a person whose day is `today`. The server does not
 * know the person's zone, so it allows the one day by which any zone can be ahead of UTC.
 */
export function isFutureReportDate(date: string, today: string): boolean {
  return date > today;
}

/** The server's latest acceptable report date: tomorrow in UTC (a zone up to 14 hours ahead is already there). */
export function latestReportDateOnServer(now = new Date()): string {
  return DateTime.fromJSDate(now, { zone: 'utc' }).plus({ days: 1 }).toISODate() ?? '';
}

/** What report_ocr holds once parsed: the extraction's answer as reviewed (rows required, the rest optional). */
export const reportOcrContentSchema = z.object({
  doctor_name: z.string().nullable().optional(),
  report_date: z.string().nullable().optional(),
  report_type: z.string().nullable().optional(),
  lab_results: labResultsSchema,
});

/** report_ocr: JSON text whose lab_results are result rows; '' when the person typed the report in by hand. */
export const reportOcrTextSchema = z
  .string({ error: LAB_REPORT_MESSAGES.reportOcrInvalid })
  .max(REPORT_OCR_MAX_CHARACTERS, LAB_REPORT_MESSAGES.reportOcrTooLong)
  .refine((text) => text === '' || parseReportOcr(text) !== null, LAB_REPORT_MESSAGES.reportOcrInvalid);

/** The rows of report_ocr, or null when it is not JSON of the expected shape. */
export function parseReportOcr(text: string): z.output<typeof reportOcrContentSchema> | null {
  if (text === '') return { lab_results: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const checked = reportOcrContentSchema.safeParse(parsed);
  return checked.success ? checked.data : null;
}

/** The structured rows kept beside report_ocr (the Trends view reads these). */
export function resultsOf(reportOcr: string): LabResult[] {
  return parseReportOcr(reportOcr)?.lab_results ?? [];
}

export const labReportFieldsSchema = z.object({
  report_type: safeText(
    z
      .string({ error: LAB_REPORT_MESSAGES.reportTypeRequired })
      .trim()
      .min(1, LAB_REPORT_MESSAGES.reportTypeRequired)
      .max(100, LAB_REPORT_MESSAGES.reportTypeTooLong),
  ),
  report_date: reportDateText(LAB_REPORT_MESSAGES.dateInvalid),
  /** The directory doctor who ordered it (a doctor_id of GET /api/doctors), or null. */
  doctor_id: uuid(LAB_REPORT_MESSAGES.doctorInvalid).nullable(),
  /** The doctor's name as the report gives it (kept when no doctor of the list matched). */
  doctor_name: safeText(z.string().trim().max(200, LAB_REPORT_MESSAGES.doctorNameTooLong)).nullable(),
  report_ocr: reportOcrTextSchema,
  /** The report's photo or PDF: its key from POST /api/upload-image?type=lab. */
  attachment_key: fileKeySchema,
});
export type LabReportFields = z.output<typeof labReportFieldsSchema>;

const createFields = labReportFieldsSchema.extend({
  doctor_id: labReportFieldsSchema.shape.doctor_id.default(null),
  doctor_name: labReportFieldsSchema.shape.doctor_name.default(null),
  report_ocr: labReportFieldsSchema.shape.report_ocr.default(''),
  attachment_key: fileKeySchema.optional(),
});

/** POST /api/lab-reports (the JSON the batched replay sends; the REST route builds it from its multipart form). */
export const createLabReportBodySchema = createFields.extend({
  id: uuid(LAB_REPORT_MESSAGES.idInvalid).optional(),
  patient_id: uuid(LAB_REPORT_MESSAGES.patientInvalid),
  ...editMetaSchema.shape,
});
export type CreateLabReportBody = z.input<typeof createLabReportBodySchema>;

/** PUT /api/lab-reports/:id names only the fields it changed. */
export const updateLabReportBodySchema = labReportFieldsSchema.partial().extend(editMetaSchema.shape);
export type UpdateLabReportBody = z.input<typeof updateLabReportBodySchema>;

/** A lab report as the device's replica holds it (the synced record's fields). */
export const labReportSchema = z.object({
  id: z.string(),
  patient_id: z.string(),
  report_type: z.string(),
  report_date: z.string(),
  doctor_id: z.string().nullable(),
  doctor_name: z.string().nullable(),
  report_ocr: z.string(),
  /** The rows of report_ocr, structured. */
  results: z.array(z.looseObject({ name: z.string(), value: z.string() })),
  // On this device, before the upload, the file is `blob:<id>` (see BLOB_REFERENCE_PREFIX).
  attachment_key: z.string().nullable(),
  /** Who added it: the caregiver's id when a caregiver did, else null. */
  caregiver_id: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LabReport = Omit<z.infer<typeof labReportSchema>, 'results'> & { results: LabResult[] };

/**
 * A lab report as the API answers it: with the product's names for the id, the file and when it was added.
 */
export const labReportAnswerSchema = labReportSchema.extend({
  lab_report_id: z.string(),
  report_image: z.string().nullable(),
  creation_date: z.string(),
});

export const labReportIdParamsSchema = z.object({ id: uuid(LAB_REPORT_MESSAGES.idInvalid) });

/** 'all' (or nothing) means no filter. */
const allOr = <Schema extends z.ZodType>(schema: Schema) =>
  z.union([z.literal('all'), z.literal(''), schema]).optional();

export const LAB_REPORT_STATUSES = ['needs_review', 'reviewed'] as const;
export type LabReportStatus = (typeof LAB_REPORT_STATUSES)[number];

const filterDate = (name: string) =>
  z
    .string()
    .transform((value, context) => {
      if (value === '' || value === 'all') return undefined;
      const date = normaliseReportDate(value);
      if (date === null) {
        context.addIssue({ code: 'custom', message: `${name} must be a date (YYYY-MM-DD or YYYY/MM/DD).` });
        return z.NEVER;
      }
      return date;
    })
    .optional();

/** GET /api/lab-reports?patient&status&doctor&startDate&endDate ('all' means no filter). */
export const labReportListQuerySchema = z
  .object({
    patient: uuid(LAB_REPORT_MESSAGES.patientInvalid).optional(),
    status: allOr(z.enum(LAB_REPORT_STATUSES, { error: LAB_REPORT_MESSAGES.statusInvalid })),
    doctor: allOr(uuid(LAB_REPORT_MESSAGES.doctorInvalid)),
    startDate: filterDate('startDate'),
    endDate: filterDate('endDate'),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    message: 'endDate cannot be before startDate.',
    path: ['endDate'],
  });

export type LabReportFilter = {
  status?: LabReportStatus | undefined;
  doctor?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
};

/** Whether any row still waits for the person's review. */
export function needsReview(report: Pick<LabReport, 'results'>): boolean {
  return report.results.some((row) => row.needs_review === true);
}

/** The one filter rule, used by the device's list and by GET /api/lab-reports. */
export function matchesLabReportFilter(
  report: Pick<LabReport, 'doctor_id' | 'report_date' | 'results'>,
  filter: LabReportFilter,
): boolean {
  if (filter.doctor && report.doctor_id !== filter.doctor) return false;
  if (filter.startDate && report.report_date < filter.startDate) return false;
  if (filter.endDate && report.report_date > filter.endDate) return false;
  if (filter.status === 'needs_review' && !needsReview(report)) return false;
  if (filter.status === 'reviewed' && needsReview(report)) return false;
  return true;
}

export { compareLabReports } from './lab-report-order';

export const labReportResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  /** The report, or only its id and version for a caller who may change it but not read it. */
  data: z.union([labReportAnswerSchema, recordReceiptSchema]),
  merged: z.boolean(),
});
export const labReportListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(labReportAnswerSchema),
});
export const labReportDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.string(), version: z.number(), deleted: z.literal(true) }),
});

/** POST /api/lab-reports/ocr { s3Key, patient? }. */
export const labReportOcrBodySchema = z.object({
  s3Key: fileKeySchema,
  patient: uuid(LAB_REPORT_MESSAGES.patientInvalid).optional(),
});

const extractedRowSchema = z.looseObject({
  name: z.string(),
  value: z.string(),
  unit: z.string(),
  flag: z.string(),
  reference_range: z.string(),
  code: z.string().optional(),
  needs_review: z.boolean().optional(),
  review_reasons: z.array(z.string()).optional(),
});

/**
 * `{ data: { doctor_name, report_date, lab_results } }` or `{ data: { error } }`
 * (src/server/routes/README.md).
 */
export const labReportOcrResponseSchema = z.object({
  data: z.union([
    z.object({
      doctor_name: z.string().nullable(),
      report_date: z.string().nullable(),
      lab_results: z.array(extractedRowSchema),
      /** Ours: the suggested type, the doctor matched to the patient's list, how the file was read. */
      report_type: z.string().nullable(),
      doctor_id: z.string().nullable(),
      source: z.enum(['text-layer', 'ocr']),
    }),
    z.object({ error: z.string() }),
  ]),
});
export type LabReportOcrResponse = z.infer<typeof labReportOcrResponseSchema>;
/** What a successful extraction answered (the person reviews it before anything is saved). */
export type LabReportOcrData = Exclude<LabReportOcrResponse['data'], { error: string }>;
