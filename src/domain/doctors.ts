import { z } from 'zod';
import { directoryDoctorSchema } from './directory';
import { editMetaSchema } from './record-meta';
import { doctorsResource } from './resources/doctors';

// "My doctors" (src/server/directory/README.md): the doctors a patient keeps in their list, each a synced
// record (resource `doctors`) that holds the directory's `doctor_id` and a copy of the doctor's profile as
// the directory had it when added, so the list and the profiles read offline. The server fills the copy from
// the directory: a device sends only which doctor.

export const MY_DOCTOR_MESSAGES = {
  added: 'Doctor added successfully!',
  removed: 'Doctor removed from your list.',
  exists: 'This doctor is already in your list.',
  doctorUnknown: 'Choose a doctor from the directory.',
  doctorRequired: 'Choose a doctor.',
  patientInvalid: 'Choose a valid patient.',
  idInvalid: 'The id must be a UUID.',
  notFound: 'Doctor not found.',
  notEditable: 'A doctor in your list cannot be changed: remove it and add it again.',
  entryExists: 'An entry with this id already exists.',
  searchOffline: 'Searching the doctor directory needs a connection. Your own list works offline.',
} as const;

/** The permissions of its declaration (src/domain/resources). */
export const DOCTOR_PERMISSIONS = { ...doctorsResource.permissions, profile: 'ViewDoctorProfile' } as const;

const uuid = (message: string) => z.uuid({ error: message });

/** POST /api/doctors/add: { patient_id, doctor_id }, and the entry's id when a device minted it. */
export const addDoctorBodySchema = z
  .object({
    id: uuid(MY_DOCTOR_MESSAGES.idInvalid).optional(),
    patient_id: uuid(MY_DOCTOR_MESSAGES.patientInvalid),
    doctor_id: z
      .string({ error: MY_DOCTOR_MESSAGES.doctorRequired })
      .pipe(uuid(MY_DOCTOR_MESSAGES.doctorUnknown)),
  })
  .extend(editMetaSchema.shape);
export type AddDoctorBody = z.input<typeof addDoctorBodySchema>;

/** The profile copied into the entry (the directory's fields, without the search's distance). */
export const doctorProfileSchema = directoryDoctorSchema.omit({ distance_miles: true });
export type DoctorProfile = z.infer<typeof doctorProfileSchema>;
export const DOCTOR_PROFILE_FIELDS = Object.keys(doctorProfileSchema.shape) as (keyof DoctorProfile)[];

/** An entry of my doctors, as the API and the device's table show it. */
export const myDoctorSchema = doctorProfileSchema.extend({
  id: z.string(),
  patient_id: z.string(),
  version: z.number(),
  /** Who added it: the caregiver's id when a caregiver did, else null. */
  added_by_caregiver: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MyDoctor = z.infer<typeof myDoctorSchema>;

export const myDoctorListQuerySchema = z.object({
  /** The patient whose list (their patient_id); a patient's own list without it. */
  patient: uuid(MY_DOCTOR_MESSAGES.patientInvalid).optional(),
  /** Another name for the same: the patient's user id (a caregiver's selected patient). */
  userId: uuid('userId must be a UUID.').optional(),
});

export const myDoctorListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(myDoctorSchema),
});
export const myDoctorResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.union([
    myDoctorSchema,
    z.object({ id: z.string(), version: z.number(), deleted: z.boolean().optional() }),
  ]),
  merged: z.boolean().optional(),
});
