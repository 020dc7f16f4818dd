import { z } from 'zod';
import { uuidFromName } from './record-ids';
import { safeText } from './text';

// The medical history's fields (see medical-history.ts for how they are stored and merged): the record's
// id, the entries of each list and their rules, the lifestyle, and the messages a person sees.

export const CONDITION_STATUSES = ['active', 'managed', 'resolved'] as const;
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe', 'life_threatening'] as const;
export const SMOKING_VALUES = ['never', 'former', 'current', 'unknown'] as const;
export const ALCOHOL_VALUES = ['none', 'occasional', 'regular', 'unknown'] as const;
export const EXERCISE_VALUES = ['none', 'light', 'moderate', 'active', 'unknown'] as const;

/** The words for each choice, as the screens show them. */
export const CONDITION_STATUS_LABELS: Record<(typeof CONDITION_STATUSES)[number], string> = {
  active: 'Active',
  managed: 'Managed',
  resolved: 'Resolved',
};
export const ALLERGY_SEVERITY_LABELS: Record<(typeof ALLERGY_SEVERITIES)[number], string> = {
  mild: 'Mild',
  moderate: 'Moderate',
  severe: 'Severe',
  life_threatening: 'Life-threatening',
};

/** At most this many live entries in each list. */
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
  shareMoodScreeningInvalid: 'share_mood_screening must be true or false.',
  entryIdInvalid: 'Each entry needs an id (a UUID).',
  addedAtInvalid: 'added_at must be a date and time (ISO 8601), when the entry was added.',
  listInvalid: 'Each part of the history must be a list of entries.',
  tooManyEntries: `Each list holds at most ${MAX_HISTORY_ENTRIES} entries.`,
  duplicateEntryId: 'Each entry of a list must have its own id.',
  entryFieldInvalid:
    'An entry field is named <list>:<entry id>, the list one of conditions, allergies, surgeries, family_history or immunizations.',
  entryFieldIdInvalid: 'The entry id in an entry field’s name must be a UUID.',
  entryValueInvalid: 'An entry field holds the entry, or null to remove it.',
  entryIdMismatch: 'An entry’s id must be the id in its field’s name.',
  listAndEntries: 'Send a list either whole or as entry fields (<list>:<entry id>), not both.',
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

/** The patient's medical history record id (a name-based UUID, as doseMarkId). */
export function medicalHistoryId(patientId: string): Promise<string> {
  return uuidFromName(medicalHistoryName(patientId));
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
/** Every entry: its id, and when it was added (set by the device that made it; it orders the lists). */
const entryBase = {
  id: z.uuid({ error: M.entryIdInvalid }),
  added_at: z.iso.datetime({ offset: true, error: M.addedAtInvalid }).optional(),
};

export const conditionSchema = z.object({
  ...entryBase,
  name: requiredText(M.conditionNameRequired, M.conditionNameTooLong),
  onset: optionalDate,
  status: z.enum(CONDITION_STATUSES, { error: M.conditionStatusInvalid }).default('active'),
  notes: optionalText(M.notesTooLong, MAX_NOTES),
});
export const allergySchema = z.object({
  ...entryBase,
  substance: requiredText(M.substanceRequired, M.substanceTooLong),
  reaction: optionalText(M.reactionTooLong),
  severity: z.enum(ALLERGY_SEVERITIES, { error: M.severityInvalid }),
});
export const surgerySchema = z.object({
  ...entryBase,
  procedure: requiredText(M.procedureRequired, M.procedureTooLong),
  date: optionalDate,
  notes: optionalText(M.notesTooLong, MAX_NOTES),
});
export const familyHistorySchema = z.object({
  ...entryBase,
  relative: requiredText(M.relativeRequired, M.relativeTooLong),
  condition: requiredText(M.familyConditionRequired, M.familyConditionTooLong),
});
export const immunizationSchema = z.object({
  ...entryBase,
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
export type Lifestyle = z.output<typeof lifestyleSchema>;

/** The lists of the history and the schema of each one's entries. */
export const HISTORY_ENTRY_SCHEMAS = {
  conditions: conditionSchema,
  allergies: allergySchema,
  surgeries: surgerySchema,
  family_history: familyHistorySchema,
  immunizations: immunizationSchema,
} as const;
export type HistoryListField = keyof typeof HISTORY_ENTRY_SCHEMAS;
export const HISTORY_LISTS = Object.keys(HISTORY_ENTRY_SCHEMAS) as readonly HistoryListField[];
export type HistoryEntry<List extends HistoryListField = HistoryListField> = z.output<
  (typeof HISTORY_ENTRY_SCHEMAS)[List]
>;
// Own keys only: `constructor` or `toString` are no lists, whatever `in` says.
export const isHistoryList = (name: string): name is HistoryListField =>
  Object.hasOwn(HISTORY_ENTRY_SCHEMAS, name);

/** A whole list (the API's form): at most 100 entries, each id once (whatever its case). */
function entryList<List extends HistoryListField>(list: List) {
  return z
    .array(HISTORY_ENTRY_SCHEMAS[list], { error: M.listInvalid })
    .max(MAX_HISTORY_ENTRIES, M.tooManyEntries)
    .superRefine((entries, context) => {
      const seen = new Set<string>();
      entries.forEach((item, index) => {
        const id = item.id.toLowerCase();
        if (seen.has(id))
          context.addIssue({ code: 'custom', message: M.duplicateEntryId, path: [index, 'id'] });
        seen.add(id);
      });
    }) as unknown as z.ZodType<HistoryEntry<List>[], unknown>;
}

/**
 * Whether the patient shares the mood screening (PHQ-2) answers of their check-ins with the caregivers
 * who read this history; off until the patient turns it on (README.md beside this file).
 */
export const shareMoodScreeningSchema = z.boolean({ error: M.shareMoodScreeningInvalid });

/**
 * The history as the API answers it and the screens show it: five lists, the lifestyle, and whether the
 * check-ins' mood screening is shared with the caregivers who read it.
 */
export const medicalHistoryFieldsSchema = z.object({
  conditions: entryList('conditions'),
  allergies: entryList('allergies'),
  surgeries: entryList('surgeries'),
  family_history: entryList('family_history'),
  immunizations: entryList('immunizations'),
  lifestyle: lifestyleSchema,
  share_mood_screening: shareMoodScreeningSchema,
});
export type MedicalHistoryFields = { [List in HistoryListField]: HistoryEntry<List>[] } & {
  lifestyle: Lifestyle;
  share_mood_screening: boolean;
};

export const EMPTY_LIFESTYLE: Lifestyle = {
  smoking: 'unknown',
  alcohol: 'unknown',
  exercise: 'unknown',
  notes: '',
};
