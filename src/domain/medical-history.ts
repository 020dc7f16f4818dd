import { z } from 'zod';
import { uuidFromDigest } from './medicine-schedule';
import { editMetaSchema } from './sync';
import { safeText } from './text';

// The patient's medical history (issue 14 point 2; the spec shows no fields, so these are designed):
// conditions, allergies, surgeries, family history, immunizations and lifestyle. One synced record per
// patient (resource `medical_history`) whose id is made from the patient (medicalHistoryId), so every
// device knows it before anything is stored and two devices creating it offline write the same record.
// Each of the six fields is merged last-writer-wins by the record merge (services/records.ts).

export const CONDITION_STATUSES = ['active', 'managed', 'resolved'] as const;
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe', 'life_threatening'] as const;
export const SMOKING_VALUES = ['never', 'former', 'current', 'unknown'] as const;
export const ALCOHOL_VALUES = ['none', 'occasional', 'regular', 'unknown'] as const;
export const EXERCISE_VALUES = ['none', 'light', 'moderate', 'active', 'unknown'] as const;

export type ConditionStatus = (typeof CONDITION_STATUSES)[number];
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

export const CONDITION_STATUS_LABELS: Record<ConditionStatus, string> = {
  active: 'Active',
  managed: 'Managed',
  resolved: 'Resolved',
};
export const ALLERGY_SEVERITY_LABELS: Record<AllergySeverity, string> = {
  mild: 'Mild',
  moderate: 'Moderate',
  severe: 'Severe',
  life_threatening: 'Life-threatening',
};
export const SMOKING_LABELS: Record<(typeof SMOKING_VALUES)[number], string> = {
  never: 'Never smoked',
  former: 'Former smoker',
  current: 'Smokes now',
  unknown: 'Not recorded',
};
export const ALCOHOL_LABELS: Record<(typeof ALCOHOL_VALUES)[number], string> = {
  none: 'No alcohol',
  occasional: 'Occasionally',
  regular: 'Regularly',
  unknown: 'Not recorded',
};
export const EXERCISE_LABELS: Record<(typeof EXERCISE_VALUES)[number], string> = {
  none: 'No exercise',
  light: 'Light',
  moderate: 'Moderate',
  active: 'Very active',
  unknown: 'Not recorded',
};

/** At most this many entries in each list. */
export const MAX_HISTORY_ENTRIES = 100;
export const MAX_TEXT = 200;
export const MAX_NOTES = 1000;

export const MEDICAL_HISTORY_MESSAGES = {
  conditionNameRequired: 'Condition name is required.',
  conditionNameTooLong: `Condition name must be at most ${MAX_TEXT} characters.`,
  conditionStatusInvalid: 'Status must be active, managed or resolved.',
  substanceRequired: 'Allergy (substance) is required.',
  substanceTooLong: `Allergy (substance) must be at most ${MAX_TEXT} characters.`,
  reactionTooLong: `Reaction must be at most ${MAX_TEXT} characters.`,
  severityInvalid: 'Choose a severity: mild, moderate, severe or life-threatening.',
  procedureRequired: 'Procedure is required.',
  procedureTooLong: `Procedure must be at most ${MAX_TEXT} characters.`,
  relativeRequired: 'Relative is required.',
  relativeTooLong: `Relative must be at most ${MAX_TEXT} characters.`,
  familyConditionRequired: 'Condition is required.',
  familyConditionTooLong: `Condition must be at most ${MAX_TEXT} characters.`,
  vaccineRequired: 'Vaccine is required.',
  vaccineTooLong: `Vaccine must be at most ${MAX_TEXT} characters.`,
  notesTooLong: `Notes must be at most ${MAX_NOTES} characters.`,
  dateInvalid: 'Enter a date as YYYY-MM-DD, YYYY-MM or YYYY.',
  dateInFuture: 'The date cannot be in the future.',
  smokingInvalid: 'Smoking must be never, former, current or unknown.',
  alcoholInvalid: 'Alcohol must be none, occasional, regular or unknown.',
  exerciseInvalid: 'Exercise must be none, light, moderate, active or unknown.',
  lifestyleInvalid: 'Lifestyle must give smoking, alcohol, exercise and notes.',
  entryIdInvalid: 'Each entry needs an id (a UUID).',
  listInvalid: 'Each part of the history must be a list of entries.',
  tooManyEntries: `Each list holds at most ${MAX_HISTORY_ENTRIES} entries.`,
  duplicateEntryId: 'Each entry of a list must have its own id.',
  patientInvalid: 'Choose a valid patient.',
  idInvalid: 'The medical history id must be a UUID.',
  notFound: 'Medical history not found.',
  caregiverReadOnly: 'Caregivers can read the medical history but cannot change it.',
  notDeletable: 'The medical history cannot be deleted. Remove its entries instead.',
  saved: 'Medical history saved.',
} as const;
const M = MEDICAL_HISTORY_MESSAGES;

/** The text of the id: made from the patient, the same on the device and the server. */
export function medicalHistoryName(patientId: string): string {
  return `kincare-medical-history:${patientId.toLowerCase()}`;
}

/** The patient's medical history record id (SHA-1 through Web Crypto, as doseMarkId). */
export async function medicalHistoryId(patientId: string): Promise<string> {
  const name = new TextEncoder().encode(medicalHistoryName(patientId));
  return uuidFromDigest(new Uint8Array(await crypto.subtle.digest('SHA-1', name)));
}

/** Is this partial date (YYYY, YYYY-MM or YYYY-MM-DD) a real one? */
function isRealPartialDate(value: string): boolean {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!match) return false;
  const [, year, month, day] = match;
  if (Number(year) < 1900) return false;
  if (month === undefined) return true;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return false;
  if (day === undefined) return true;
  const date = new Date(Date.UTC(Number(year), monthNumber - 1, Number(day)));
  return date.getUTCDate() === Number(day) && date.getUTCMonth() === monthNumber - 1;
}

/** Not after tomorrow in UTC (tomorrow: some time zone's today), compared at the date's own precision. */
function isNotFuture(value: string, now = new Date()): boolean {
  const latest = new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return value <= latest.slice(0, value.length);
}

/** An optional date of the history: YYYY, YYYY-MM or YYYY-MM-DD (people often know only the year). */
export const partialDateSchema = z
  .string({ error: M.dateInvalid })
  .refine(isRealPartialDate, { error: M.dateInvalid, abort: true })
  .refine((value) => isNotFuture(value), M.dateInFuture);

const optionalDate = partialDateSchema.nullable().default(null);

const requiredText = (required: string, tooLong: string) =>
  safeText(z.string({ error: required }).trim().min(1, required).max(MAX_TEXT, tooLong));
const optionalText = (tooLong: string, max = MAX_TEXT) =>
  safeText(z.string({ error: tooLong }).trim().max(max, tooLong)).default('');
const entryId = z.uuid({ error: M.entryIdInvalid });

export const conditionSchema = z.object({
  id: entryId,
  name: requiredText(M.conditionNameRequired, M.conditionNameTooLong),
  onset: optionalDate,
  status: z.enum(CONDITION_STATUSES, { error: M.conditionStatusInvalid }).default('active'),
  notes: optionalText(M.notesTooLong, MAX_NOTES),
});
export const allergySchema = z.object({
  id: entryId,
  substance: requiredText(M.substanceRequired, M.substanceTooLong),
  reaction: optionalText(M.reactionTooLong),
  severity: z.enum(ALLERGY_SEVERITIES, { error: M.severityInvalid }),
});
export const surgerySchema = z.object({
  id: entryId,
  procedure: requiredText(M.procedureRequired, M.procedureTooLong),
  date: optionalDate,
  notes: optionalText(M.notesTooLong, MAX_NOTES),
});
export const familyHistorySchema = z.object({
  id: entryId,
  relative: requiredText(M.relativeRequired, M.relativeTooLong),
  condition: requiredText(M.familyConditionRequired, M.familyConditionTooLong),
});
export const immunizationSchema = z.object({
  id: entryId,
  vaccine: requiredText(M.vaccineRequired, M.vaccineTooLong),
  date: optionalDate,
});
export const lifestyleSchema = z.object(
  {
    smoking: z.enum(SMOKING_VALUES, { error: M.smokingInvalid }).default('unknown'),
    alcohol: z.enum(ALCOHOL_VALUES, { error: M.alcoholInvalid }).default('unknown'),
    exercise: z.enum(EXERCISE_VALUES, { error: M.exerciseInvalid }).default('unknown'),
    notes: optionalText(M.notesTooLong, MAX_NOTES),
  },
  { error: M.lifestyleInvalid },
);

export type Condition = z.output<typeof conditionSchema>;
export type Allergy = z.output<typeof allergySchema>;
export type Surgery = z.output<typeof surgerySchema>;
export type FamilyHistoryEntry = z.output<typeof familyHistorySchema>;
export type Immunization = z.output<typeof immunizationSchema>;
export type Lifestyle = z.output<typeof lifestyleSchema>;

/** A list of entries: at most 100, each id once (the screen edits and removes entries by id). */
function entryList<Entry extends z.ZodObject<{ id: typeof entryId }>>(entry: Entry) {
  return z
    .array(entry, { error: M.listInvalid })
    .max(MAX_HISTORY_ENTRIES, M.tooManyEntries)
    .superRefine((entries, context) => {
      const seen = new Set<string>();
      entries.forEach((item, index) => {
        const id = String((item as { id: string }).id).toLowerCase();
        if (seen.has(id))
          context.addIssue({ code: 'custom', message: M.duplicateEntryId, path: [index, 'id'] });
        seen.add(id);
      });
    });
}

/** The six fields of the history and their rules, shared by the forms, the write path and the server. */
export const medicalHistoryFieldsSchema = z.object({
  conditions: entryList(conditionSchema),
  allergies: entryList(allergySchema),
  surgeries: entryList(surgerySchema),
  family_history: entryList(familyHistorySchema),
  immunizations: entryList(immunizationSchema),
  lifestyle: lifestyleSchema,
});
export type MedicalHistoryFields = z.output<typeof medicalHistoryFieldsSchema>;
export type MedicalHistoryField = keyof MedicalHistoryFields;
export const MEDICAL_HISTORY_FIELDS = Object.keys(
  medicalHistoryFieldsSchema.shape,
) as readonly MedicalHistoryField[];

/** The list fields (every field but lifestyle). */
export type HistoryListField = Exclude<MedicalHistoryField, 'lifestyle'>;

export const EMPTY_LIFESTYLE: Lifestyle = {
  smoking: 'unknown',
  alcohol: 'unknown',
  exercise: 'unknown',
  notes: '',
};

export function emptyHistoryFields(): MedicalHistoryFields {
  return {
    conditions: [],
    allergies: [],
    surgeries: [],
    family_history: [],
    immunizations: [],
    lifestyle: { ...EMPTY_LIFESTYLE },
  };
}

/**
 * PUT /api/medical-history (and a pushed create or update of `medical_history`): any of the six fields,
 * only those sent change. patient_id and id, when sent, must be the caller's own (the id is made from it).
 */
export const putMedicalHistoryBodySchema = medicalHistoryFieldsSchema.partial().extend({
  patient_id: z.uuid({ error: M.patientInvalid }).optional(),
  id: z.uuid({ error: M.idInvalid }).optional(),
  ...editMetaSchema.shape,
});
export type PutMedicalHistoryBody = z.input<typeof putMedicalHistoryBodySchema>;

/**
 * The record as the device keeps it: a pulled record holds only the fields ever written (a field never
 * written is absent, so it never overwrites another device's edit of it), hence every field optional.
 */
export type MedicalHistory = {
  id: string;
  patient_id: string;
  version: number;
  created_at?: string;
  updated_at?: string;
  /** Names the queued change if the server ever refuses it (outbox.ts). */
  label?: string;
} & Partial<MedicalHistoryFields>;

/** The record with every field, an absent one empty. */
export type FullMedicalHistory = MedicalHistory & MedicalHistoryFields;

export function withHistoryDefaults(record: MedicalHistory): FullMedicalHistory {
  const empty = emptyHistoryFields();
  return {
    ...record,
    conditions: record.conditions ?? empty.conditions,
    allergies: record.allergies ?? empty.allergies,
    surgeries: record.surgeries ?? empty.surgeries,
    family_history: record.family_history ?? empty.family_history,
    immunizations: record.immunizations ?? empty.immunizations,
    lifestyle: { ...empty.lifestyle, ...record.lifestyle },
  };
}

export const medicalHistorySchema = medicalHistoryFieldsSchema.extend({
  id: z.string(),
  patient_id: z.string(),
  version: z.number(),
  /** Absent while nothing of the history is stored. */
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

export const medicalHistoryQuerySchema = z.object({
  patient: z.uuid({ error: M.patientInvalid }).optional(),
});

export const medicalHistoryResponseSchema = z.object({
  success: z.literal(true),
  data: medicalHistorySchema,
});

export const medicalHistorySaveResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: medicalHistorySchema,
  merged: z.boolean(),
});
