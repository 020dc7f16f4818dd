import { eq } from 'drizzle-orm';
import zipcodes from 'zipcodes';
import { US_ZIP_PATTERN } from '../../domain/zip';
import { users } from '../db/schema';
import type { Queryable } from './transaction';

// The place of a person's profile zip code, from the same offline zip table that checks addresses
// (zip-lookup.ts): its city is named beside the weather, and its coordinates give the weather when the
// device sends no position (the header asks nobody for their location unless they choose to share it).
// Never the device's coordinates: the device's position only picks the weather.

export type ZipPlace = { city: string; latitude: number; longitude: number };

/** The place of the person's zip code, or null: no zip, or one the table does not know (a 6-digit PIN). */
export async function zipPlaceOfUser(db: Queryable, userId: string): Promise<ZipPlace | null> {
  const [row] = await db.select({ zipCode: users.zipCode }).from(users).where(eq(users.id, userId)).limit(1);
  const zip = row?.zipCode?.trim() ?? '';
  // A 6-digit PIN code is India's: its first five digits are no US zip code.
  if (!US_ZIP_PATTERN.test(zip)) return null;
  const found = zipcodes.lookup(zip.slice(0, 5));
  return found && found.country === 'US'
    ? { city: found.city, latitude: found.latitude, longitude: found.longitude }
    : null;
}

/** The city the header names beside the weather: the profile zip code's, or null. */
export async function placeOfUser(db: Queryable, userId: string): Promise<string | null> {
  return (await zipPlaceOfUser(db, userId))?.city ?? null;
}
