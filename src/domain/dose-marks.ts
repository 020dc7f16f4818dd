import { z } from 'zod';
import { DOSE_MARK_MESSAGES } from './medicine-schedule';
import { doseTimeSchema, isoDateSchema, PRESCRIPTION_MESSAGES } from './prescriptions';
import { editMetaSchema } from './record-meta';

// The wire shapes of dose marks (a dose taken or not taken: medicine-schedule.ts says what they are) and of
// the schedule's query. Kept apart from the schedule's own rules, which the device runs on Home's first
// screen without loading a schema library.

/** POST /api/prescriptions/schedule/taken { schedule_id, date, time, is_taken }. */
export const doseMarkBodySchema = z
  .object({
    /** The mark's id when a device made it: must be doseMarkId of the other three. */
    id: z.uuid({ error: DOSE_MARK_MESSAGES.idMismatch }).optional(),
    schedule_id: z.uuid({ error: DOSE_MARK_MESSAGES.scheduleInvalid }),
    date: isoDateSchema(DOSE_MARK_MESSAGES.dateInvalid),
    time: doseTimeSchema,
    is_taken: z.boolean({ error: DOSE_MARK_MESSAGES.takenInvalid }),
  })
  .extend(editMetaSchema.shape);
export type DoseMarkBody = z.input<typeof doseMarkBodySchema>;

/** A mark as the API and the device's table show it. */
export const doseMarkSchema = z.object({
  id: z.string(),
  patient_id: z.string(),
  schedule_id: z.string(),
  date: z.string(),
  time: z.string(),
  is_taken: z.boolean(),
  /** Who marked it (user id) and their name, as the server knew them. */
  marked_by: z.string(),
  marked_by_name: z.string(),
  /** When the person marked it (ISO; the device's clock, capped at the server's). */
  marked_at: z.string(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DoseMark = z.infer<typeof doseMarkSchema>;

export const doseMarkResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.union([doseMarkSchema, z.object({ id: z.string(), version: z.number() })]),
  merged: z.boolean(),
});

export const scheduleQuerySchema = z.object({
  date: isoDateSchema(DOSE_MARK_MESSAGES.dateInvalid),
  patient: z.uuid({ error: PRESCRIPTION_MESSAGES.patientInvalid }).optional(),
});
