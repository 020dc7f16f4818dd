import { eq } from 'drizzle-orm';
import zipcodes from 'zipcodes';
import { users } from '../db/schema';
import type { Queryable } from './transaction';

// The place the header names beside the weather: the city of the person's profile zip code, from the
// same offline zip table that checks addresses (zip-lookup.ts). Never the coordinates: the device's
// position only picks the weather.

export async function placeOfUser(db: Queryable, userId: string): Promise<string | null> {
  const [row] = await db.select({ zipCode: users.zipCode }).from(users).where(eq(users.id, userId)).limit(1);
  const zip = row?.zipCode?.trim().slice(0, 5);
  if (!zip) return null;
  const found = zipcodes.lookup(zip);
  return found && found.country === 'US' ? found.city : null;
}
