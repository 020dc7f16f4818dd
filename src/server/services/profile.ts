import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Profile, updateProfileFieldsSchema } from '../../domain/auth';
import { ageFromBirthDate } from '../../domain/dates';
import { caregivers, patients, users } from '../db/schema';
import type { FileStorage } from '../plugins/storage';
import type { Database } from '../db/client';
import type { Queryable } from './transaction';

// A user's profile, kept in the users table: id, name, role, email, zip code and the caregiver or patient
// id, plus what update-profile manages.
// Reading joins in the patient/caregiver ids, works out the age from the birth date and turns the
// stored photo key into a signed, expiring link (the photo itself is in the file store).

const profileColumns = {
  id: users.id,
  name: users.name,
  role: users.role,
  email: users.email,
  zipCode: users.zipCode,
  emailVerifiedAt: users.emailVerifiedAt,
  birthDate: users.birthDate,
  gender: users.gender,
  race: users.race,
  ethnicity: users.ethnicity,
  phone: users.phone,
  address: users.address,
  city: users.city,
  state: users.state,
  photoKey: users.photoKey,
  stripeCustomerId: users.stripeCustomerId,
  betaPolicyAcceptedAt: users.betaPolicyAcceptedAt,
  patientId: patients.id,
  caregiverId: caregivers.id,
};

/** The profile's statement, built once per database and prepared: the app reads the profile on every start. */
const prepareProfileQuery = (db: Queryable) =>
  db
    .select(profileColumns)
    .from(users)
    .leftJoin(patients, eq(patients.userId, users.id))
    .leftJoin(caregivers, eq(caregivers.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('profile_load');
const profileQueries = new WeakMap<Queryable, ReturnType<typeof prepareProfileQuery>>();

export async function loadProfile(
  db: Queryable,
  storage: FileStorage,
  userId: string,
): Promise<Profile | null> {
  let query = profileQueries.get(db);
  if (!query) {
    query = prepareProfileQuery(db);
    profileQueries.set(db, query);
  }
  const [row] = await query.execute({ userId });
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    email: row.email,
    zip_code: row.zipCode,
    patient_id: row.patientId,
    caregiver_id: row.caregiverId,
    stripe_customer_id: row.stripeCustomerId,
    email_verified: row.emailVerifiedAt !== null,
    birth_date: row.birthDate,
    age: row.birthDate ? ageFromBirthDate(row.birthDate) : null,
    gender: row.gender,
    race: row.race,
    ethnicity: row.ethnicity,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    photo_url: row.photoKey ? await storage.signedUrl(row.photoKey) : null,
    beta_policy_accepted_at: row.betaPolicyAcceptedAt?.toISOString() ?? null,
  };
}

export type ProfileChanges = z.output<typeof updateProfileFieldsSchema>;

/** An empty string clears a field; a field left out stays as it is. */
function cleared(value: string | undefined): string | null | undefined {
  return value === '' ? null : value;
}

/**
 * Saves the changed fields and, when `photoKey` is not undefined, the new photo (null removes it).
 * Returns the photo key that was replaced, for the caller to delete once the change is committed.
 */
export async function saveProfileChanges(
  db: Database,
  userId: string,
  changes: ProfileChanges,
  photoKey: string | null | undefined,
): Promise<{ replacedPhotoKey: string | null }> {
  return db.transaction(async (tx) => {
    // Locked so that two photo changes at once cannot both miss the key they replace.
    const [before] = await tx
      .select({ photoKey: users.photoKey })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    await tx
      .update(users)
      .set({
        name: changes.name,
        zipCode: changes.zip_code,
        birthDate: cleared(changes.birth_date),
        gender: cleared(changes.gender),
        race: cleared(changes.race),
        ethnicity: cleared(changes.ethnicity),
        phone: cleared(changes.phone),
        address: cleared(changes.address),
        city: cleared(changes.city),
        state: cleared(changes.state),
        photoKey,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    const replaced = before?.photoKey ?? null;
    return { replacedPhotoKey: photoKey !== undefined && replaced !== photoKey ? replaced : null };
  });
}
