import { z } from 'zod';
import { DateTime } from 'luxon';
import { zoneNameSchema } from './dates';
import { editMetaSchema, recordReceiptSchema } from './record-meta';
import { safeText } from './text';
import { fileKeySchema } from './uploads';
import { prescriptionsResource } from './resources/prescriptions';

// Prescriptions (README.md beside this file; what a patient and a pharmacy label expect): the medicine,
// its strength and form, the directions (sig) and the dose times they become,
// who prescribed it and where it is filled, quantity and refills, the dates it runs, a photo of the label,
// and how reminders work for it. A synced record (resource `prescriptions`); prescription_id is its id.
//
// Dose times are wall-clock times ('08:00') in the prescription's time zone, which is the patient's zone
// when it was written (the device's zone, changeable on the form): a dose at 08:00 stays at 08:00 across a
// daylight-saving change, and a caregiver in another zone sees the patient's 08:00.

export const PRESCRIPTION_STATUSES = ['active', 'on_hold', 'completed', 'discontinued'] as const;
export type PrescriptionStatus = (typeof PRESCRIPTION_STATUSES)[number];
export const PRESCRIPTION_STATUS_LABELS: Record<PrescriptionStatus, string> = {
  active: 'Active',
  on_hold: 'On hold',
  completed: 'Completed',
  discontinued: 'Discontinued',
};

export const PRESCRIPTION_FORMS = [
  'tablet',
  'capsule',
  'liquid',
  'injection',
  'inhaler',
  'cream',
  'drops',
  'patch',
  'other',
] as const;
export type PrescriptionForm = (typeof PRESCRIPTION_FORMS)[number];

/** At most this many dose times a day (every 2 hours). */
export const MAX_DOSE_TIMES = 12;
export const DEFAULT_ALERT_AFTER_MINUTES = 60;

export const PRESCRIPTION_MESSAGES = {
  nameRequired: 'Medicine name is required.',
  nameTooLong: 'Medicine name must be at most 200 characters.',
  strengthTooLong: 'Strength must be at most 50 characters.',
  formInvalid: 'Choose a form: tablet, capsule, liquid, injection, inhaler, cream, drops, patch or other.',
  directionsTooLong: 'Directions must be at most 500 characters.',
  quantityInvalid: 'Quantity must be a whole number from 0 to 10000.',
  refillsInvalid: 'Refills must be a whole number from 0 to 99.',
  startDateRequired: 'Start date is required.',
  dateInvalid: 'Enter a valid date (YYYY-MM-DD).',
  endBeforeStart: 'End date cannot be before the start date.',
  timeInvalid: 'Each dose time must be a time of day (HH:mm).',
  timesDuplicate: 'Each dose time may appear only once.',
  timesTooMany: `At most ${MAX_DOSE_TIMES} dose times a day.`,
  timesRequired: 'Add at least one dose time, or mark it as needed.',
  statusInvalid: 'Status must be active, on_hold, completed or discontinued.',
  notesTooLong: 'Notes must be at most 2000 characters.',
  timeZoneInvalid: 'Choose a valid time zone.',
  alertAfterInvalid: 'The missed-dose alert must come 5 to 1440 minutes after the dose.',
  alertCaregiversInvalid: 'Choose caregivers from your list to alert.',
  alertCaregiversTooMany: 'Choose at most 10 caregivers to alert.',
  caregiverNotLinked: 'A caregiver chosen for missed-dose alerts is not one of your caregivers.',
  patientInvalid: 'Choose a valid patient.',
  doctorInvalid: 'Choose a valid doctor.',
  pharmacyInvalid: 'Choose a valid pharmacy.',
  idInvalid: 'The prescription id must be a UUID.',
  notFound: 'Prescription not found.',
  exists: 'A prescription with this id already exists.',
  deletedElsewhere: 'This prescription was deleted on another device, so your change was not applied.',
  imageUnknown: 'The label photo was not found. Attach it again.',
  added: 'Prescription added successfully!',
  updated: 'Prescription updated successfully!',
  deleted: 'Prescription deleted successfully!',
  statusChanged: 'Prescription status updated.',
} as const;

/** The permissions of its declaration (src/domain/resources). */
export const PRESCRIPTION_PERMISSIONS = prescriptionsResource.permissions;

const uuid = (message: string) => z.uuid({ error: message });

/** 'YYYY-MM-DD' and a real calendar day. */
export const isoDateSchema = (message: string = PRESCRIPTION_MESSAGES.dateInvalid) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((value) => DateTime.fromISO(value).isValid, message);

/** 'HH:mm', 00:00 to 23:59. */
export const doseTimeSchema = z
  .string({ error: PRESCRIPTION_MESSAGES.timeInvalid })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, PRESCRIPTION_MESSAGES.timeInvalid);

export const doseTimesSchema = z
  .array(doseTimeSchema, { error: PRESCRIPTION_MESSAGES.timeInvalid })
  .max(MAX_DOSE_TIMES, PRESCRIPTION_MESSAGES.timesTooMany)
  .refine((times) => new Set(times).size === times.length, PRESCRIPTION_MESSAGES.timesDuplicate)
  .transform((times) => [...times].sort());

export const timeZoneSchema = zoneNameSchema(PRESCRIPTION_MESSAGES.timeZoneInvalid);

/** The editable fields and their rules, shared by the form, the write path and the server. */
export const prescriptionFieldsSchema = z.object({
  medicine_name: safeText(
    z
      .string({ error: PRESCRIPTION_MESSAGES.nameRequired })
      .trim()
      .min(1, PRESCRIPTION_MESSAGES.nameRequired)
      .max(200, PRESCRIPTION_MESSAGES.nameTooLong),
  ),
  strength: safeText(z.string().trim().max(50, PRESCRIPTION_MESSAGES.strengthTooLong)),
  form: z.enum(PRESCRIPTION_FORMS, { error: PRESCRIPTION_MESSAGES.formInvalid }),
  directions: safeText(z.string().trim().max(500, PRESCRIPTION_MESSAGES.directionsTooLong)),
  /** The directory doctor who prescribed it (a doctor_id of GET /api/doctors), or null. */
  doctor_id: uuid(PRESCRIPTION_MESSAGES.doctorInvalid).nullable(),
  /** The directory pharmacy that fills it, or null. */
  pharmacy_id: uuid(PRESCRIPTION_MESSAGES.pharmacyInvalid).nullable(),
  quantity: z
    .number({ error: PRESCRIPTION_MESSAGES.quantityInvalid })
    .int(PRESCRIPTION_MESSAGES.quantityInvalid)
    .min(0, PRESCRIPTION_MESSAGES.quantityInvalid)
    .max(10_000, PRESCRIPTION_MESSAGES.quantityInvalid)
    .nullable(),
  refills: z
    .number({ error: PRESCRIPTION_MESSAGES.refillsInvalid })
    .int(PRESCRIPTION_MESSAGES.refillsInvalid)
    .min(0, PRESCRIPTION_MESSAGES.refillsInvalid)
    .max(99, PRESCRIPTION_MESSAGES.refillsInvalid)
    .nullable(),
  start_date: isoDateSchema(PRESCRIPTION_MESSAGES.startDateRequired),
  end_date: isoDateSchema().nullable(),
  /** Dose times of the day, 'HH:mm', sorted. Empty with as_needed: taken when needed, no fixed times. */
  times: doseTimesSchema,
  as_needed: z.boolean({ error: 'as_needed must be true or false.' }),
  status: z.enum(PRESCRIPTION_STATUSES, { error: PRESCRIPTION_MESSAGES.statusInvalid }),
  notes: safeText(z.string().trim().max(2000, PRESCRIPTION_MESSAGES.notesTooLong)),
  /** A photo of the label or the script: its key from POST /api/upload-image?type=prescription. */
  attachment_key: fileKeySchema.nullable(),
  time_zone: timeZoneSchema,
  /** Send a reminder to the patient's devices at each dose time. */
  reminders: z.boolean({ error: 'reminders must be true or false.' }),
  /** Minutes after a dose time at which an unmarked dose alerts the chosen caregivers. */
  alert_after_minutes: z
    .number({ error: PRESCRIPTION_MESSAGES.alertAfterInvalid })
    .int(PRESCRIPTION_MESSAGES.alertAfterInvalid)
    .min(5, PRESCRIPTION_MESSAGES.alertAfterInvalid)
    .max(1440, PRESCRIPTION_MESSAGES.alertAfterInvalid),
  /** The caregivers (their user ids) a missed dose of this medicine alerts; empty: nobody. */
  alert_caregivers: z
    .array(uuid(PRESCRIPTION_MESSAGES.alertCaregiversInvalid), {
      error: PRESCRIPTION_MESSAGES.alertCaregiversInvalid,
    })
    .max(10, PRESCRIPTION_MESSAGES.alertCaregiversTooMany),
});
export type PrescriptionFields = z.output<typeof prescriptionFieldsSchema>;

/** The rules across fields, for a whole record (create) and for the record after an edit. */
export function prescriptionProblems(
  fields: Pick<PrescriptionFields, 'start_date' | 'end_date' | 'times' | 'as_needed'>,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (fields.end_date !== null && fields.end_date < fields.start_date)
    problems.push({ path: 'end_date', message: PRESCRIPTION_MESSAGES.endBeforeStart });
  if (fields.times.length === 0 && !fields.as_needed)
    problems.push({ path: 'times', message: PRESCRIPTION_MESSAGES.timesRequired });
  return problems;
}

const withCrossFieldRules = <Schema extends z.ZodType<PrescriptionFields>>(schema: Schema) =>
  schema.superRefine((fields, context) => {
    for (const problem of prescriptionProblems(fields))
      context.addIssue({ code: 'custom', message: problem.message, path: [problem.path] });
  });

const createFields = prescriptionFieldsSchema.extend({
  strength: prescriptionFieldsSchema.shape.strength.default(''),
  form: prescriptionFieldsSchema.shape.form.default('tablet'),
  directions: prescriptionFieldsSchema.shape.directions.default(''),
  doctor_id: prescriptionFieldsSchema.shape.doctor_id.default(null),
  pharmacy_id: prescriptionFieldsSchema.shape.pharmacy_id.default(null),
  quantity: prescriptionFieldsSchema.shape.quantity.default(null),
  refills: prescriptionFieldsSchema.shape.refills.default(null),
  end_date: prescriptionFieldsSchema.shape.end_date.default(null),
  times: prescriptionFieldsSchema.shape.times.default([]),
  as_needed: prescriptionFieldsSchema.shape.as_needed.default(false),
  status: prescriptionFieldsSchema.shape.status.default('active'),
  notes: prescriptionFieldsSchema.shape.notes.default(''),
  attachment_key: prescriptionFieldsSchema.shape.attachment_key.default(null),
  time_zone: prescriptionFieldsSchema.shape.time_zone.default('UTC'),
  reminders: prescriptionFieldsSchema.shape.reminders.default(true),
  alert_after_minutes:
    prescriptionFieldsSchema.shape.alert_after_minutes.default(DEFAULT_ALERT_AFTER_MINUTES),
  alert_caregivers: prescriptionFieldsSchema.shape.alert_caregivers.default([]),
});

/** POST /api/prescriptions: the fields, the patient, and the id a device minted (one is made when absent). */
export const createPrescriptionBodySchema = withCrossFieldRules(
  createFields.extend({
    id: uuid(PRESCRIPTION_MESSAGES.idInvalid).optional(),
    patient_id: uuid(PRESCRIPTION_MESSAGES.patientInvalid),
    ...editMetaSchema.shape,
  }),
);
export type CreatePrescriptionBody = z.input<typeof createPrescriptionBodySchema>;

/** PUT /api/prescriptions/:prescription_id names only the fields it changed. */
export const updatePrescriptionBodySchema = prescriptionFieldsSchema.partial().extend(editMetaSchema.shape);
export type UpdatePrescriptionBody = z.input<typeof updatePrescriptionBodySchema>;

/** POST /api/prescriptions/status { id, status }. */
export const prescriptionStatusBodySchema = z
  .object({
    id: uuid(PRESCRIPTION_MESSAGES.idInvalid),
    status: prescriptionFieldsSchema.shape.status,
  })
  .extend(editMetaSchema.shape);

export const prescriptionSchema = prescriptionFieldsSchema.extend({
  // On this device, before the upload, the photo is `blob:<id>` (see BLOB_REFERENCE_PREFIX).
  attachment_key: z.string().nullable(),
  times: z.array(z.string()),
  id: z.string(),
  /** The product's other name for the id. */
  prescription_id: z.string(),
  patient_id: z.string(),
  /** Who added it: the caregiver's id when a caregiver did, else null. */
  caregiver_id: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Prescription = z.infer<typeof prescriptionSchema>;

/** PUT /prescriptions/{prescription_id} and DELETE /prescriptions/{id}: one id, one name in the router. */
export const prescriptionIdParamsSchema = z.object({ id: uuid(PRESCRIPTION_MESSAGES.idInvalid) });

const patientQuery = {
  patient: uuid(PRESCRIPTION_MESSAGES.patientInvalid).optional(),
};

/** GET /api/prescriptions?mode=future&patient=: current and upcoming (active or on hold, not ended). */
export const prescriptionListQuerySchema = z.object({
  mode: z.enum(['future', 'all'], { error: "mode must be 'future' or 'all'." }).default('future'),
  ...patientQuery,
  /** The day 'future' is judged on (the device's today); the server's today in UTC when absent. */
  today: isoDateSchema('today must be a date (YYYY-MM-DD).').optional(),
});

/** 'all' (or nothing) means no filter. */
const allOr = <Schema extends z.ZodType>(schema: Schema) =>
  z.union([z.literal('all'), z.literal(''), schema]).optional();

/** GET /api/prescriptions/filter?status&doctor&startDate&endDate&patient. */
export const prescriptionFilterQuerySchema = z
  .object({
    status: allOr(z.enum(PRESCRIPTION_STATUSES, { error: PRESCRIPTION_MESSAGES.statusInvalid })),
    doctor: allOr(uuid(PRESCRIPTION_MESSAGES.doctorInvalid)),
    startDate: allOr(isoDateSchema('startDate must be a date (YYYY-MM-DD).')),
    endDate: allOr(isoDateSchema('endDate must be a date (YYYY-MM-DD).')),
    ...patientQuery,
  })
  .refine(
    (query) =>
      !query.startDate ||
      !query.endDate ||
      query.startDate === 'all' ||
      query.endDate === 'all' ||
      query.startDate <= query.endDate,
    { message: 'endDate cannot be before startDate.', path: ['endDate'] },
  );
export type PrescriptionFilterQuery = z.input<typeof prescriptionFilterQuerySchema>;

export const prescriptionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  /** The prescription, or only its id and version for a caller who may change it but not read it. */
  data: z.union([prescriptionSchema, recordReceiptSchema]),
  merged: z.boolean(),
});
export const prescriptionListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(prescriptionSchema),
});
export const prescriptionDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.string(), version: z.number(), deleted: z.literal(true) }),
});

/** A filter as the list screen and the server apply it ('all' and empty mean no filter). */
export type PrescriptionFilter = {
  status?: PrescriptionStatus | undefined;
  doctor?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
};

/** Whether a prescription runs at all within [startDate, endDate] (either end open). */
function overlaps(prescription: Pick<Prescription, 'start_date' | 'end_date'>, filter: PrescriptionFilter) {
  if (filter.endDate && prescription.start_date > filter.endDate) return false;
  if (filter.startDate && prescription.end_date !== null && prescription.end_date < filter.startDate)
    return false;
  return true;
}

/** The one filter rule, used by the device's list and by GET /api/prescriptions/filter. */
export function matchesPrescriptionFilter(
  prescription: Pick<Prescription, 'status' | 'doctor_id' | 'start_date' | 'end_date'>,
  filter: PrescriptionFilter,
): boolean {
  if (filter.status && prescription.status !== filter.status) return false;
  if (filter.doctor && prescription.doctor_id !== filter.doctor) return false;
  return overlaps(prescription, filter);
}

/** 'future' mode: active or on hold, and not ended before `today` (current and upcoming). */
export function isCurrentOrUpcoming(
  prescription: Pick<Prescription, 'status' | 'end_date'>,
  today: string,
): boolean {
  if (prescription.status !== 'active' && prescription.status !== 'on_hold') return false;
  return prescription.end_date === null || prescription.end_date >= today;
}

/** The list's order: by start date, newest first, then by name. */
export function comparePrescriptions(a: Prescription, b: Prescription): number {
  if (a.start_date !== b.start_date) return a.start_date < b.start_date ? 1 : -1;
  return a.medicine_name.localeCompare(b.medicine_name);
}

/** 'Metformin 500 mg' (name and strength, as a reminder or a list names the medicine). */
export { medicineLabel } from './medicine-label';
