import { z } from 'zod';
import { DateTime } from 'luxon';
import { editMetaSchema, recordReceiptSchema } from './record-meta';
import { zoneNameSchema } from './dates';
import { safeText } from './text';
import { fileKeySchema } from './uploads';
import { appointmentsResource } from './resources/appointments';

// Appointments (the payload: patient_id, doctor_id, appointment_date, appointment_title,
// caregiver_id) plus what people expect: location, notes and a status.

export const APPOINTMENT_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_MESSAGES = {
  titleRequired: 'Title is required.',
  titleTooLong: 'Title must be at most 200 characters.',
  dateRequired: 'Date is required.',
  dateInvalid: 'Enter a valid date and time.',
  locationTooLong: 'Location must be at most 200 characters.',
  notesTooLong: 'Notes must be at most 2000 characters.',
  statusInvalid: 'Status must be scheduled, completed or cancelled.',
  patientInvalid: 'Choose a valid patient.',
  doctorInvalid: 'Choose a valid doctor.',
  idInvalid: 'The appointment id must be a UUID.',
  notFound: 'Appointment not found.',
  deletedElsewhere: 'This appointment was deleted on another device, so your change was not applied.',
  exists: 'An appointment with this id already exists.',
  attachmentUnknown: 'The attached file was not found. Attach it again.',
  timeZoneInvalid: 'Choose a valid time zone, such as America/New_York.',
} as const;

const uuid = (message: string) => z.uuid({ error: message });

export const appointmentDateSchema = safeText(
  z
    .string({ error: APPOINTMENT_MESSAGES.dateRequired })
    .trim()
    .min(1, APPOINTMENT_MESSAGES.dateRequired)
    .refine((value) => DateTime.fromISO(value, { setZone: true }).isValid, APPOINTMENT_MESSAGES.dateInvalid),
);

/** The editable fields and their rules, shared by the form, the write path and the server. */
export const appointmentFieldsSchema = z.object({
  appointment_title: safeText(
    z
      .string({ error: APPOINTMENT_MESSAGES.titleRequired })
      .trim()
      .min(1, APPOINTMENT_MESSAGES.titleRequired)
      .max(200, APPOINTMENT_MESSAGES.titleTooLong),
  ),
  appointment_date: appointmentDateSchema,
  doctor_id: uuid(APPOINTMENT_MESSAGES.doctorInvalid).nullable(),
  location: safeText(z.string().trim().max(200, APPOINTMENT_MESSAGES.locationTooLong)),
  notes: safeText(z.string().trim().max(2000, APPOINTMENT_MESSAGES.notesTooLong)),
  status: z.enum(APPOINTMENT_STATUSES, { error: APPOINTMENT_MESSAGES.statusInvalid }),
  /** A stored file (a referral letter, an appointment card): its key from POST /api/upload-image. */
  attachment_key: fileKeySchema.nullable(),
  /**
   * The zone of the place of the visit (an IANA name): its date and time are that place's wall clock
   * wherever it is read. Null (or absent, as on appointments stored before zones) means the patient's zone.
   */
  time_zone: zoneNameSchema(APPOINTMENT_MESSAGES.timeZoneInvalid).nullable(),
});
export type AppointmentFields = z.infer<typeof appointmentFieldsSchema>;

export const createAppointmentBodySchema = appointmentFieldsSchema
  .extend({
    id: uuid(APPOINTMENT_MESSAGES.idInvalid),
    patient_id: uuid(APPOINTMENT_MESSAGES.patientInvalid),
    caregiver_id: uuid('caregiver_id must be a UUID.').nullable().optional(),
    doctor_id: uuid(APPOINTMENT_MESSAGES.doctorInvalid).nullable().default(null),
    location: appointmentFieldsSchema.shape.location.default(''),
    notes: appointmentFieldsSchema.shape.notes.default(''),
    status: appointmentFieldsSchema.shape.status.default('scheduled'),
    attachment_key: appointmentFieldsSchema.shape.attachment_key.default(null),
    time_zone: appointmentFieldsSchema.shape.time_zone.default(null),
  })
  .extend(editMetaSchema.shape);
export type CreateAppointmentBody = z.input<typeof createAppointmentBodySchema>;

/** An update names only the fields it changed: the others keep whatever the server has. */
export const updateAppointmentBodySchema = appointmentFieldsSchema.partial().extend(editMetaSchema.shape);
export type UpdateAppointmentBody = z.input<typeof updateAppointmentBodySchema>;

export const appointmentSchema = appointmentFieldsSchema.extend({
  // On this device, before the upload, the attachment is `blob:<id>` (see BLOB_REFERENCE_PREFIX).
  attachment_key: z.string().nullable().optional(),
  time_zone: z.string().nullable().optional(),
  id: z.string(),
  patient_id: z.string(),
  caregiver_id: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const appointmentListQuerySchema = z.object({
  patient: uuid(APPOINTMENT_MESSAGES.patientInvalid).optional(),
  startDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'startDate must be YYYY-MM-DD.')
    .refine((value) => DateTime.fromISO(value).isValid, 'startDate must be a real date.')
    .optional(),
});

export const appointmentIdParamsSchema = z.object({ id: uuid(APPOINTMENT_MESSAGES.idInvalid) });

export const appointmentResponseSchema = z.object({
  success: z.literal(true),
  /** The appointment, or only its id and version for a caller who may change it but not read it. */
  data: z.union([appointmentSchema, recordReceiptSchema]),
  merged: z.boolean(),
});
export const appointmentListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(appointmentSchema),
});
export const deleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.string(), version: z.number(), deleted: z.literal(true) }),
});

/** The permissions of its declaration (src/domain/resources). */
export const APPOINTMENT_PERMISSIONS = appointmentsResource.permissions;

/**
 * The time picker steps in 15 minutes (a phone's spinner, the arrow keys); a typed time may be any minute,
 * since visits are booked at 10:10 as well as 10:15.
 */
export const APPOINTMENT_STEP_MINUTES = 15;

/**
 * 'yyyy-MM-ddTHH:mm' as a datetime-local input gives it, read on the wall clock of `zone` (the visit's
 * place) -> the instant in UTC ISO; null when unreadable. A time skipped by a daylight-saving change
 * (02:30 on the spring-forward night) is the same time after the change (03:30), as Luxon reads it.
 */
export function zonedInputToIso(value: string, zone: string): string | null {
  const date = DateTime.fromISO(value, { zone });
  return date.isValid ? date.toUTC().toISO() : null;
}

/** The instant as `zone`'s wall clock for a datetime-local input ('' when unreadable). */
export function isoToZonedInput(iso: string, zone: string): string {
  const date = DateTime.fromISO(iso, { zone });
  return date.isValid ? date.toFormat("yyyy-MM-dd'T'HH:mm") : '';
}

/** The appointment form as a person fills it (all text), checked with the same messages. */
export const appointmentFormSchema = z.object({
  appointment_title: appointmentFieldsSchema.shape.appointment_title,
  appointment_date: z
    .string()
    .min(1, APPOINTMENT_MESSAGES.dateRequired)
    .refine((value) => zonedInputToIso(value, 'UTC') !== null, APPOINTMENT_MESSAGES.dateInvalid),
  time_zone: zoneNameSchema(APPOINTMENT_MESSAGES.timeZoneInvalid),
  doctor_id: z.string(),
  location: appointmentFieldsSchema.shape.location,
  notes: appointmentFieldsSchema.shape.notes,
  status: appointmentFieldsSchema.shape.status,
});
export type AppointmentForm = z.infer<typeof appointmentFormSchema>;
