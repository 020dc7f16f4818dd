import { z } from 'zod';
import { safeText } from './text';

// The provider directory: doctors and pharmacies from the public NPPES NPI Registry
// (src/server/directory/README.md; paths under /api). The server imports them
// (src/server/directory); patients search them and add doctors and pharmacies to their own lists.

/** The doctor search shows 5 a page. */
export const DOCTOR_PAGE_SIZE = 5;
/** The most a page may ask for: the search is for people, not for copying the directory. */
export const DIRECTORY_PAGE_MAX = 50;
/** A zip search keeps practices within this many miles of the zip, nearest first, unless told another. */
export const NEARBY_MILES = 50;
/** The distances a person may choose for a zip search (miles): nearer in a city, wider in the country. */
export const SEARCH_MILES = [10, 25, 50, 100] as const;
/** The widest a zip search may reach. */
export const WIDEST_SEARCH_MILES = 100;
/** Miles in a degree of latitude (and in a degree of longitude at the equator). */
export const MILES_PER_DEGREE = 69.05;

type Coordinates = { latitude: number; longitude: number };

/**
 * The "states" of military mail (APO, FPO, DPO: Armed Forces Americas, Europe, Pacific): their zips route
 * mail to a unit, wherever it is, and name no place a patient could look for a doctor around.
 */
export const MILITARY_MAIL_STATES: readonly string[] = ['AA', 'AE', 'AP'];

/**
 * The distance a zip search measures from the searched place to a practice: flat-earth, with degrees of
 * longitude shortened by the searched place's latitude; exact enough within NEARBY_MILES. The server's
 * search computes the same in SQL (services/directory-search.ts).
 */
export function milesFrom(searched: Coordinates, practice: Coordinates): number {
  const longitudeScale = Math.cos((searched.latitude * Math.PI) / 180);
  return (
    MILES_PER_DEGREE *
    Math.hypot(
      practice.latitude - searched.latitude,
      (practice.longitude - searched.longitude) * longitudeScale,
    )
  );
}

/**
 * The specialities the directory knows, each from one or more NPPES taxonomy codes (see the import's
 * taxonomy table). The search's speciality filter offers these.
 */
export const SPECIALITIES = [
  'Allergy and Immunology',
  'Anesthesiology',
  'Cardiology',
  'Dermatology',
  'Emergency Medicine',
  'Endocrinology',
  'Family Medicine',
  'Gastroenterology',
  'General Practice',
  'Geriatric Medicine',
  'Hematology and Oncology',
  'Infectious Disease',
  'Internal Medicine',
  'Nephrology',
  'Neurology',
  'Nurse Practitioner',
  'Obstetrics and Gynecology',
  'Ophthalmology',
  'Orthopaedic Surgery',
  'Otolaryngology',
  'Pediatrics',
  'Physical Medicine and Rehabilitation',
  'Physician Assistant',
  'Psychiatry',
  'Pulmonology',
  'Radiology',
  'Rheumatology',
  'General Surgery',
  'Urology',
  'Dentistry',
  'Optometry',
  'Podiatry',
  'Psychology',
  'Chiropractic',
  'Physical Therapy',
] as const;
export type Speciality = (typeof SPECIALITIES)[number];

export const DIRECTORY_MESSAGES = {
  nameTooLong: 'Name must be at most 100 characters.',
  specialityUnknown: 'Choose a speciality from the list.',
  zipInvalid: 'Zip code must be 5 digits.',
  zipUnknown: 'We do not know this zip code. Check it and try again.',
  zipNoPlace:
    'This zip code is for military mail (APO, FPO or DPO) and has no place to search around. Enter the zip code of where you live.',
  pageInvalid: 'Page must be a whole number from 1.',
  limitInvalid: `Limit must be a whole number from 1 to ${DIRECTORY_PAGE_MAX}.`,
  milesInvalid: `Distance must be one of ${SEARCH_MILES.join(', ')} miles.`,
  zipRequired: 'Enter a zip code or a name to search pharmacies.',
  doctorNotFound: 'Doctor not found.',
  pharmacyNotFound: 'Pharmacy not found.',
} as const;

/** A whole number from a query string ('2'), within bounds; the message says what is allowed. */
const wholeNumber = (message: string, max: number) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(max, { error: message });

/** An optional query text: blank means no filter. */
const optionalQueryText = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .pipe(schema.optional());

const zipSchema = z.string().regex(/^\d{5}$/, { error: DIRECTORY_MESSAGES.zipInvalid });

/** How far a zip search reaches: one of SEARCH_MILES, NEARBY_MILES when not given. */
const milesSchema = optionalQueryText(
  z.string().refine((value) => SEARCH_MILES.some((miles) => String(miles) === value), {
    error: DIRECTORY_MESSAGES.milesInvalid,
  }),
).transform((value) => (value === undefined ? NEARBY_MILES : Number(value)));

/** GET /api/doctors: name (partial, any case), speciality, zip (nearby first) and miles, page, limit. */
export const doctorSearchQuerySchema = z.object({
  name: optionalQueryText(safeText(z.string().max(100, { error: DIRECTORY_MESSAGES.nameTooLong }))),
  speciality: optionalQueryText(
    z.string().refine((value) => SPECIALITIES.some((known) => known.toLowerCase() === value.toLowerCase()), {
      error: DIRECTORY_MESSAGES.specialityUnknown,
    }),
  ),
  zip: optionalQueryText(zipSchema),
  miles: milesSchema,
  page: wholeNumber(DIRECTORY_MESSAGES.pageInvalid, 1_000_000).default(1),
  limit: wholeNumber(DIRECTORY_MESSAGES.limitInvalid, DIRECTORY_PAGE_MAX).default(DOCTOR_PAGE_SIZE),
});
export type DoctorSearchQuery = z.input<typeof doctorSearchQuerySchema>;

/**
 * GET /api/pharmacies?zip=&miles=: by location (a zip search) or by name (SearchPharmacy: "search
 * by name or location"), or both; one of them is needed.
 */
export const pharmacySearchQuerySchema = z
  .object({
    zip: optionalQueryText(zipSchema),
    miles: milesSchema,
    name: optionalQueryText(safeText(z.string().max(100, { error: DIRECTORY_MESSAGES.nameTooLong }))),
    page: wholeNumber(DIRECTORY_MESSAGES.pageInvalid, 1_000_000).default(1),
    limit: wholeNumber(DIRECTORY_MESSAGES.limitInvalid, DIRECTORY_PAGE_MAX).default(DOCTOR_PAGE_SIZE),
  })
  .refine((query) => query.zip !== undefined || query.name !== undefined, {
    error: DIRECTORY_MESSAGES.zipRequired,
    path: ['zip'],
  });
export type PharmacySearchQuery = z.input<typeof pharmacySearchQuerySchema>;

/** A doctor as the directory shows it (the full profile). */
export const directoryDoctorSchema = z.object({
  doctor_id: z.string(),
  npi: z.string(),
  name: z.string(),
  speciality: z.string(),
  qualifications: z.string(),
  gender: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  phone: z.string().nullable(),
  accepting_new_patients: z.boolean().nullable(),
  /** Miles from the searched zip (a zip search only). */
  distance_miles: z.number().nullable().optional(),
});
export type DirectoryDoctor = z.infer<typeof directoryDoctorSchema>;

export const directoryPharmacySchema = z.object({
  pharmacy_id: z.string(),
  npi: z.string(),
  name: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  phone: z.string().nullable(),
  opening_hours: z.string().nullable(),
  open_24_hours: z.boolean().nullable(),
  distance_miles: z.number().nullable().optional(),
});
export type DirectoryPharmacy = z.infer<typeof directoryPharmacySchema>;

/** The doctor list response: data, page, limit, totalCount, totalPages, remaining. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    remaining: z.number().int(),
  });

/** The page arithmetic of the list response: what is left after this page, never below 0. */
export function pageNumbers(page: number, limit: number, totalCount: number) {
  const totalPages = Math.ceil(totalCount / limit);
  const remaining = Math.max(0, totalCount - page * limit);
  return { page, limit, totalCount, totalPages, remaining };
}
