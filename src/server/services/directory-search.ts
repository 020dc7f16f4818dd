import zipcodes from 'zipcodes';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import {
  DIRECTORY_MESSAGES,
  MILES_PER_DEGREE,
  MILITARY_MAIL_STATES,
  NEARBY_MILES,
  pageNumbers,
  type DirectoryDoctor,
  type DirectoryPharmacy,
} from '../../domain/directory';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { directoryDoctors, directoryPharmacies } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { Queryable } from './transaction';

// Searching the provider directory (GET /api/doctors, GET /api/pharmacies). Each filter is written so an
// index can answer it on a million rows (see the directory tables in db/schema.ts):
// - a name is matched anywhere in the name, in any case: `lower(name) like '%term%'`, which the trigram
//   (pg_trgm) GIN index serves for terms of three letters or more;
// - a speciality by `lower(speciality) = ...`, the leading column of its btree index;
// - a zip by the square of the chosen miles (NEARBY_MILES unless told, at most 100) around the zip's
//   coordinates (the latitude, longitude btree), then nearest first by the flat-earth distance, exact
//   enough within 100 miles (milesFrom in src/domain/directory.ts is the same distance, for the sample
//   directory's coverage).
// The count and the page are two statements run side by side: a page past the end still knows the count.

type Place = { latitude: number; longitude: number };

/** A refusal of the zip, named as the field's so the device shows it beside the zip code. */
const zipRefused = (message: string) =>
  new HttpError(400, message, undefined, { errors: [{ msg: message, path: 'zip' }] });

/**
 * The coordinates of a US zip, from the offline `zipcodes` table; 400 for a zip it does not know, and for
 * a military mail zip (APO, FPO, DPO), which names no place (the table puts most of them at 0, 0): a
 * search there would find nothing and say nothing useful.
 */
function placeOfZip(zip: string): Place {
  const found = zipcodes.lookup(zip);
  if (!found || found.country !== 'US') throw zipRefused(DIRECTORY_MESSAGES.zipUnknown);
  if (MILITARY_MAIL_STATES.includes(found.state)) throw zipRefused(DIRECTORY_MESSAGES.zipNoPlace);
  return { latitude: found.latitude, longitude: found.longitude };
}

/** `%term%` for LIKE, with the term's own % _ and \ matched as themselves. */
const containing = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/**
 * The square of `reach` miles around `place` (as a filter) and the distance to it in miles (for ordering
 * and showing).
 */
function nearby(table: { latitude: AnyPgColumn; longitude: AnyPgColumn }, place: Place, reach: number) {
  const latitudeSpan = reach / MILES_PER_DEGREE;
  const longitudeScale = Math.cos((place.latitude * Math.PI) / 180);
  const longitudeSpan = reach / (MILES_PER_DEGREE * Math.max(longitudeScale, 0.01));
  const miles = sql<number>`${MILES_PER_DEGREE}::float8 * sqrt(
    power(${table.latitude} - ${place.latitude}::float8, 2)
    + power((${table.longitude} - ${place.longitude}::float8) * ${longitudeScale}::float8, 2))`;
  // The square lets the index find the candidates; the distance keeps the circle (the square's corners
  // are 1.4 times the reach out).
  const within = sql`${table.latitude} between ${place.latitude - latitudeSpan} and ${place.latitude + latitudeSpan}
    and ${table.longitude} between ${place.longitude - longitudeSpan} and ${place.longitude + longitudeSpan}
    and ${miles} <= ${reach}`;
  return { within, miles };
}

const roundedMiles = (miles: number | null) => (miles === null ? null : Math.round(miles * 10) / 10);

type PageRequest = { page: number; limit: number };

/** What the API shows of a directory doctor (directoryDoctorSchema, without the distance). */
const doctorColumns = {
  doctor_id: directoryDoctors.doctorId,
  npi: directoryDoctors.npi,
  name: directoryDoctors.name,
  speciality: directoryDoctors.speciality,
  qualifications: directoryDoctors.qualifications,
  gender: directoryDoctors.gender,
  address: directoryDoctors.address,
  city: directoryDoctors.city,
  state: directoryDoctors.state,
  zip: directoryDoctors.zip,
  phone: directoryDoctors.phone,
  accepting_new_patients: directoryDoctors.acceptingNewPatients,
};

/** What the API shows of a directory pharmacy (directoryPharmacySchema, without the distance). */
const pharmacyColumns = {
  pharmacy_id: directoryPharmacies.pharmacyId,
  npi: directoryPharmacies.npi,
  name: directoryPharmacies.name,
  address: directoryPharmacies.address,
  city: directoryPharmacies.city,
  state: directoryPharmacies.state,
  zip: directoryPharmacies.zip,
  phone: directoryPharmacies.phone,
  opening_hours: directoryPharmacies.openingHours,
  open_24_hours: directoryPharmacies.open24Hours,
};

export async function searchDoctors(
  db: Database,
  query: PageRequest & {
    name?: string | undefined;
    speciality?: string | undefined;
    zip?: string | undefined;
    miles?: number | undefined;
  },
) {
  const table = directoryDoctors;
  const around = query.zip ? nearby(table, placeOfZip(query.zip), query.miles ?? NEARBY_MILES) : undefined;
  const where = and(
    query.name ? sql`lower(${table.name}) like ${containing(query.name)}` : undefined,
    query.speciality ? sql`lower(${table.speciality}) = ${query.speciality.toLowerCase()}` : undefined,
    around?.within,
  );
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(table).where(where),
    db
      .select({
        ...doctorColumns,
        distance_miles: around ? around.miles : sql<null>`null`,
      })
      .from(table)
      .where(where)
      .orderBy(...(around ? [asc(around.miles)] : []), asc(table.name), asc(table.doctorId))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  ]);
  const data: DirectoryDoctor[] = rows.map((row) => ({
    ...row,
    distance_miles: roundedMiles(row.distance_miles),
  }));
  return { data, ...pageNumbers(query.page, query.limit, counted?.total ?? 0) };
}

export async function searchPharmacies(
  db: Database,
  query: PageRequest & { zip?: string | undefined; miles?: number | undefined; name?: string | undefined },
) {
  const table = directoryPharmacies;
  const around = query.zip ? nearby(table, placeOfZip(query.zip), query.miles ?? NEARBY_MILES) : undefined;
  const where = and(
    query.name ? sql`lower(${table.name}) like ${containing(query.name)}` : undefined,
    around?.within,
  );
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(table).where(where),
    db
      .select({
        ...pharmacyColumns,
        distance_miles: around ? around.miles : sql<null>`null`,
      })
      .from(table)
      .where(where)
      .orderBy(...(around ? [asc(around.miles)] : []), asc(table.name), asc(table.pharmacyId))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  ]);
  const data: DirectoryPharmacy[] = rows.map((row) => ({
    ...row,
    distance_miles: roundedMiles(row.distance_miles),
  }));
  return { data, ...pageNumbers(query.page, query.limit, counted?.total ?? 0) };
}

/** One doctor's full profile, or 404. */
export async function directoryDoctor(db: Queryable, doctorId: string): Promise<DirectoryDoctor> {
  const [doctor] = await db
    .select(doctorColumns)
    .from(directoryDoctors)
    .where(eq(directoryDoctors.doctorId, doctorId))
    .limit(1);
  if (!doctor) throw new HttpError(404, DIRECTORY_MESSAGES.doctorNotFound);
  return doctor;
}

/** One pharmacy of the directory, or 404. */
export async function directoryPharmacy(db: Queryable, pharmacyId: string): Promise<DirectoryPharmacy> {
  const [pharmacy] = await db
    .select(pharmacyColumns)
    .from(directoryPharmacies)
    .where(eq(directoryPharmacies.pharmacyId, pharmacyId))
    .limit(1);
  if (!pharmacy) throw new HttpError(404, DIRECTORY_MESSAGES.pharmacyNotFound);
  return pharmacy;
}
