import { z } from 'zod';
import { zoneNameSchema } from './dates';
import { labResultSchema } from './lab-results';
import { ALLERGY_SEVERITIES, CONDITION_STATUSES } from './medical-history-fields';
import { PRESCRIPTION_FORMS, PRESCRIPTION_STATUSES } from './prescriptions';
import { VITAL_KINDS } from './vitals';

// Importing records from a patient portal's file (src/domain/README.md, "Importing records"): a C-CDA
// document (XML) or FHIR R4 JSON is read on the server (POST /api/import/preview), which writes nothing
// and answers what it found in Kincare's own shapes. The person ticks what to add on the device, and each
// ticked item becomes an ordinary change there, through the outbox, as if typed.
//
// What a preview promises: every value is the file's, never guessed. A field the file does not give is
// null (an allergy's severity, a prescription's start), and the review screen asks for it before adding.

/** The largest file the preview reads: portal exports of years of records run to a few megabytes. */
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
/** The most entries (FHIR resources, after a C-CDA document is read) one file may hold. */
export const IMPORT_MAX_ENTRIES = 5000;

export const IMPORT_FILE_FIELD = 'file';

export const IMPORT_MESSAGES = {
  notMultipart: 'Send the file as a multipart form, in the field "file".',
  fileMissing: 'Choose a file to import (a C-CDA document or a FHIR file from your patient portal).',
  tooLarge: `This file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB, more than a portal's record file holds. Export a shorter period, or one kind of record at a time.`,
  tooManyEntries: `This file holds more than ${IMPORT_MAX_ENTRIES} entries. Export a shorter period, or one kind of record at a time.`,
  notRecognised:
    'This file is not a health record Kincare can read. Choose a C-CDA document (.xml) or a FHIR file (.json) downloaded from your patient portal.',
  brokenXml:
    'This XML file is damaged or incomplete, so it cannot be read. Download it from your portal again.',
  brokenJson:
    'This JSON file is damaged or incomplete, so it cannot be read. Download it from your portal again.',
  entitiesRefused:
    'This file declares its own XML entities (a DOCTYPE), which Kincare does not read: record files from patient portals never need them.',
  notUtf8: 'This file is not text (UTF-8), so it cannot be a C-CDA document or a FHIR file.',
  unreadableDocument:
    'This C-CDA document could not be read: a part of it is not as the standard describes. Nothing was imported.',
  fhirNotR4: 'This FHIR file is not a Bundle or a resource of FHIR R4.',
  patientInvalid: 'Choose a valid patient.',
  zoneInvalid: 'zone must be a time zone name such as America/New_York.',
  tooMuchToRead:
    'This file holds more than Kincare can read at once. Export a shorter period, or one kind of record at a time.',
  busy: 'Kincare is reading other files right now. Please try again in a minute.',
  severalPatients:
    'This file holds the records of more than one person, so Kincare cannot tell which are yours. Download the record of one person at a time.',
} as const;

const nullableText = z.string().nullable();
/** YYYY, YYYY-MM or YYYY-MM-DD: documents often give only part of a date. */
const partialDate = z.string().nullable();

export const importedAllergySchema = z.object({
  substance: z.string(),
  reaction: z.string(),
  /** Null when the file does not say: the person chooses before adding. */
  severity: z.enum(ALLERGY_SEVERITIES).nullable(),
});
export const importedConditionSchema = z.object({
  name: z.string(),
  onset: partialDate,
  status: z.enum(CONDITION_STATUSES),
});
export const importedImmunizationSchema = z.object({ vaccine: z.string(), date: partialDate });
export const importedSurgerySchema = z.object({ procedure: z.string(), date: partialDate });
export const importedPrescriptionSchema = z.object({
  medicine_name: z.string(),
  strength: z.string(),
  form: z.enum(PRESCRIPTION_FORMS),
  directions: z.string(),
  /** The dose times the directions imply ('HH:mm'), empty when they give none. */
  times: z.array(z.string()),
  as_needed: z.boolean(),
  /** YYYY-MM-DD, or null when the file gives no start. */
  start_date: nullableText,
  end_date: nullableText,
  status: z.enum(PRESCRIPTION_STATUSES),
  /** The RxNorm code, when the file gives one (it decides what counts as already in Kincare). */
  rxnorm: nullableText,
});
export const importedLabReportSchema = z.object({
  /** YYYY-MM-DD the specimen was taken (or the result issued). */
  report_date: z.string(),
  report_type: z.string(),
  doctor_name: nullableText,
  results: z.array(labResultSchema),
});
export const importedVitalSchema = z.object({
  kind: z.enum(VITAL_KINDS),
  unit: z.string(),
  value: z.number().nullable(),
  systolic: z.number().nullable(),
  diastolic: z.number().nullable(),
  /** ISO 8601 with its offset. */
  measured_at: z.string(),
  /** The file gives the day alone: measured_at is noon UTC of it (the same day in every zone), shown as a date. */
  date_only: z.boolean(),
});

export const IMPORT_KINDS = [
  'allergies',
  'conditions',
  'immunizations',
  'surgeries',
  'prescriptions',
  'lab_reports',
  'vitals',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  allergies: 'Allergies',
  conditions: 'Conditions',
  immunizations: 'Immunizations',
  surgeries: 'Procedures and surgeries',
  prescriptions: 'Medicines',
  lab_reports: 'Lab results',
  vitals: 'Vitals',
};

export const importPreviewSchema = z.object({
  source: z.object({
    format: z.enum(['ccda', 'fhir']),
    title: nullableText,
    /** When the document was made (ISO 8601 as the file gives it). */
    date: nullableText,
    author: nullableText,
    organization: nullableText,
    /** The patient the file is about, as it names them. */
    patient_name: nullableText,
    patient_birth_date: nullableText,
  }),
  /**
   * Whether the file's patient is the patient it is imported for: false when the names differ (the
   * person is asked before anything is added), null when the file names nobody.
   */
  patient_matches: z.boolean().nullable(),
  allergies: z.array(importedAllergySchema),
  conditions: z.array(importedConditionSchema),
  immunizations: z.array(importedImmunizationSchema),
  surgeries: z.array(importedSurgerySchema),
  prescriptions: z.array(importedPrescriptionSchema),
  lab_reports: z.array(importedLabReportSchema),
  vitals: z.array(importedVitalSchema),
  /** What the file holds that Kincare does not keep (encounters, care plans...), counted, not lost silently. */
  skipped: z.array(z.object({ what: z.string(), count: z.number() })),
  /** Which kinds the caller may add for this patient (a caregiver: their Add permissions; history: the patient). */
  may_add: z.record(z.enum(IMPORT_KINDS), z.boolean()),
});
export type ImportPreview = z.output<typeof importPreviewSchema>;
export type ImportedAllergy = z.output<typeof importedAllergySchema>;
export type ImportedCondition = z.output<typeof importedConditionSchema>;
export type ImportedImmunization = z.output<typeof importedImmunizationSchema>;
export type ImportedSurgery = z.output<typeof importedSurgerySchema>;
export type ImportedPrescription = z.output<typeof importedPrescriptionSchema>;
export type ImportedLabReport = z.output<typeof importedLabReportSchema>;
export type ImportedVital = z.output<typeof importedVitalSchema>;

export const importPreviewResponseSchema = z.object({
  success: z.literal(true),
  data: importPreviewSchema,
});

export const importPreviewQuerySchema = z.object({
  patient: z.uuid({ error: IMPORT_MESSAGES.patientInvalid }).optional(),
  /** The patient's time zone (IANA), for the days of a FHIR file's UTC instants. */
  zone: zoneNameSchema(IMPORT_MESSAGES.zoneInvalid).optional(),
});
