import {
  directoryPharmacySchema,
  type DirectoryPharmacy,
  type PharmacySearchQuery,
} from '../domain/directory';
import { MY_PHARMACY_MESSAGES, PHARMACY_PROFILE_FIELDS, type MyPharmacy } from '../domain/pharmacies';
import type { KincareDb } from './db';
import {
  searchDirectory,
  type DirectorySearchPage,
  type DirectorySearchResult,
  type SearchOptions,
} from './directory-search';
import { enqueue } from './outbox';

// "My pharmacies" (src/server/directory/README.md): adding a directory pharmacy to the patient's list,
// choosing the preferred one and removing one go through the outbox like every synced resource, so all of it
// works offline. Searching the directory is the one part that needs the server: it answers what it found, or
// says plainly that it needs a connection. Only the patient changes their pharmacies (no caregiver
// permission).

/** The patient's pharmacies on the device, the preferred one first, then by name. */
export async function pharmaciesOf(db: KincareDb, patientId: string): Promise<MyPharmacy[]> {
  const rows = await db.pharmacies.where('patient_id').equals(patientId).toArray();
  return rows.sort(
    (a, b) =>
      Number(b.preferred) - Number(a.preferred) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
}

/**
 * Queues the entry and shows it at once. The first pharmacy in the list becomes the preferred one (a
 * person with one pharmacy prefers it). The server takes the profile from the directory itself (it reads
 * patient_id, pharmacy_id and preferred); the payload carries the profile the person saw so that the row on
 * screen (the outbox replays the payload to build it) reads whole until the server's copy replaces it.
 */
export async function addPharmacy(
  db: KincareDb,
  input: { patient_id: string; pharmacy: DirectoryPharmacy },
  now = new Date(),
): Promise<string> {
  const listed = await db.pharmacies.where('patient_id').equals(input.patient_id).toArray();
  if (listed.some((entry) => entry.pharmacy_id === input.pharmacy.pharmacy_id))
    throw new Error(MY_PHARMACY_MESSAGES.exists);
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const profile = Object.fromEntries(PHARMACY_PROFILE_FIELDS.map((field) => [field, input.pharmacy[field]]));
  const payload = {
    ...profile,
    id,
    patient_id: input.patient_id,
    pharmacy_id: input.pharmacy.pharmacy_id,
    preferred: listed.length === 0,
    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(db, { resource: 'pharmacies', id, op: 'create', payload }, now.getTime());
  return id;
}

/**
 * Makes the entry the patient's preferred pharmacy: the one preferred until now is queued as no longer
 * preferred first (so the device never shows two), then this one as preferred. The server clears the
 * others too when it takes the second change; the first keeps the two in step if only it reached the server.
 */
export async function makePreferred(db: KincareDb, id: string, now = new Date()): Promise<void> {
  const entry = await db.pharmacies.get(id);
  if (!entry) throw new Error(MY_PHARMACY_MESSAGES.notFound);
  if (entry.preferred) return;
  const others = await db.pharmacies
    .where('patient_id')
    .equals(entry.patient_id)
    .filter((other) => other.id !== id && other.preferred)
    .toArray();
  for (const other of others)
    await enqueue(
      db,
      { resource: 'pharmacies', id: other.id, op: 'update', payload: { preferred: false } },
      now.getTime(),
    );
  await enqueue(
    db,
    { resource: 'pharmacies', id, op: 'update', payload: { preferred: true } },
    now.getTime(),
  );
}

/** Takes an entry off the list (the entry's id, not the directory's). */
export async function removePharmacy(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await enqueue(db, { resource: 'pharmacies', id, op: 'delete' }, now.getTime());
}

export type PharmacySearchPage = DirectorySearchPage<DirectoryPharmacy>;
export type PharmacySearchResult = DirectorySearchResult<DirectoryPharmacy>;

/** GET /api/pharmacies: the directory's pharmacies near a zip (nearest first) and/or by name, a page at a time. */
export function searchPharmacies(
  query: PharmacySearchQuery,
  options: SearchOptions = {},
): Promise<PharmacySearchResult> {
  return searchDirectory(
    '/pharmacies',
    directoryPharmacySchema,
    query,
    MY_PHARMACY_MESSAGES.searchOffline,
    options,
  );
}
