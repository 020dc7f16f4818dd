import { z } from 'zod';
import { directoryPharmacySchema } from './directory';
import { editMetaSchema } from './record-meta';
import { pharmaciesResource } from './resources/pharmacies';

// "My pharmacies" (GET /api/pharmacies/list, POST /api/pharmacies/add, DELETE /api/pharmacies/:id):
// the pharmacies a patient uses, each a synced record (resource `pharmacies`) that holds the directory's
// `pharmacy_id`, a copy of the pharmacy as the directory had it, and whether it is the preferred one (at
// most one is). The catalogue gives caregivers ReadPharmacy (see the list) and SearchPharmacy (search the
// directory) and nothing to change a patient's pharmacies: adding, removing and choosing the preferred
// pharmacy are the patient's.

export const MY_PHARMACY_MESSAGES = {
  added: 'Pharmacy added successfully!',
  removed: 'Pharmacy removed from your list.',
  preferred: 'Preferred pharmacy saved.',
  exists: 'This pharmacy is already in your list.',
  pharmacyUnknown: 'Choose a pharmacy from the directory.',
  pharmacyRequired: 'Choose a pharmacy.',
  patientInvalid: 'Choose a valid patient.',
  idInvalid: 'The id must be a UUID.',
  notFound: 'Pharmacy not found.',
  preferredInvalid: 'Preferred must be true or false.',
  entryExists: 'An entry with this id already exists.',
  searchOffline: 'Searching for pharmacies needs a connection. Your own list works offline.',
} as const;

/** The permissions of its declaration (src/domain/resources). */
export const PHARMACY_PERMISSIONS = { ...pharmaciesResource.permissions, search: 'SearchPharmacy' } as const;

const uuid = (message: string) => z.uuid({ error: message });

/** POST /api/pharmacies/add: { patient_id, pharmacy_id }, optionally preferred, and the entry's id. */
export const addPharmacyBodySchema = z
  .object({
    id: uuid(MY_PHARMACY_MESSAGES.idInvalid).optional(),
    patient_id: uuid(MY_PHARMACY_MESSAGES.patientInvalid),
    pharmacy_id: z
      .string({ error: MY_PHARMACY_MESSAGES.pharmacyRequired })
      .pipe(uuid(MY_PHARMACY_MESSAGES.pharmacyUnknown)),
    preferred: z.boolean({ error: MY_PHARMACY_MESSAGES.preferredInvalid }).default(false),
  })
  .extend(editMetaSchema.shape);
export type AddPharmacyBody = z.input<typeof addPharmacyBodySchema>;

/** PUT /api/pharmacies/:id: only whether it is the preferred pharmacy can change. */
export const updatePharmacyBodySchema = z
  .object({ preferred: z.boolean({ error: MY_PHARMACY_MESSAGES.preferredInvalid }) })
  .extend(editMetaSchema.shape);
export type UpdatePharmacyBody = z.input<typeof updatePharmacyBodySchema>;

export const pharmacyProfileSchema = directoryPharmacySchema.omit({ distance_miles: true });
export type PharmacyProfile = z.infer<typeof pharmacyProfileSchema>;
export const PHARMACY_PROFILE_FIELDS = Object.keys(pharmacyProfileSchema.shape) as (keyof PharmacyProfile)[];

export const myPharmacySchema = pharmacyProfileSchema.extend({
  id: z.string(),
  patient_id: z.string(),
  version: z.number(),
  preferred: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MyPharmacy = z.infer<typeof myPharmacySchema>;

export const myPharmacyListQuerySchema = z.object({
  patient: uuid(MY_PHARMACY_MESSAGES.patientInvalid).optional(),
});
export const myPharmacyListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(myPharmacySchema),
});
export const myPharmacyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.union([
    myPharmacySchema,
    z.object({ id: z.string(), version: z.number(), deleted: z.boolean().optional() }),
  ]),
  merged: z.boolean().optional(),
});
