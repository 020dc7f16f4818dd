import Dexie, { type EntityTable } from 'dexie';
import type { Profile } from '../domain/auth';

/** A patient the signed-in caregiver looks after, with the permissions granted (SPEC section 3). */
export type AssociatedPatient = {
  patient_id: string;
  user_id: string;
  name: string;
  email: string;
  permissions: string[];
  permission_id: string;
};

// The device's replica of one signed-in user's data, in IndexedDB via Dexie. One database per user
// (`kincare-<userId>`), opened at sign-in and deleted at logout, so two people sharing a phone never
// see each other's records and nothing of a user stays on the device after they sign out.

export const DB_PREFIX = 'kincare-';

export class KincareDb extends Dexie {
  profile!: EntityTable<Profile, 'id'>;
  associatedPatients!: EntityTable<AssociatedPatient, 'patient_id'>;

  constructor(userId: string) {
    super(`${DB_PREFIX}${userId}`);
    this.version(1).stores({
      profile: 'id',
      associatedPatients: 'patient_id',
    });
  }
}

let current: KincareDb | null = null;

/** Opens (or returns the open) replica of this user. */
export async function openUserDb(userId: string): Promise<KincareDb> {
  if (current && current.name === `${DB_PREFIX}${userId}`) return current;
  current?.close();
  current = new KincareDb(userId);
  await current.open();
  return current;
}

/** The open replica; throws when nobody is signed in (a screen must never read another user's data). */
export function userDb(): KincareDb {
  if (!current) throw new Error('No local database is open: nobody is signed in.');
  return current;
}

export function hasUserDb(): boolean {
  return current !== null;
}

/** Deletes this user's replica (logout). Also removes any replica left from an earlier crash. */
export async function deleteUserDbs(): Promise<void> {
  const open = current;
  current = null;
  if (open) {
    open.close();
    await Dexie.delete(open.name);
  }
  const names = await Dexie.getDatabaseNames().catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(DB_PREFIX)).map((name) => Dexie.delete(name)));
}
