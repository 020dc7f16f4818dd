import { directoryDoctorSchema, type DirectoryDoctor, type DoctorSearchQuery } from '../domain/directory';
import { DOCTOR_PROFILE_FIELDS, MY_DOCTOR_MESSAGES, type DoctorProfile } from '../domain/doctors';
import type { KincareDb } from './db';
import { searchDirectory, type DirectorySearchResult, type SearchOptions } from './directory-search';
import { enqueue } from './outbox';

// "My doctors" (src/server/directory/README.md): adding a directory doctor to a patient's list and removing
// one go through the outbox like every synced resource, so both work offline. Searching the directory is the
// one part that needs the server: it answers what it found, or says plainly that it needs a connection.

/** A directory doctor the person chose to add, with the patient whose list it goes in. */
export type NewDoctorEntry = { patient_id: string; caregiver_id: string | null; doctor: DoctorProfile };

/**
 * Queues the entry and shows it at once. The server takes the profile from the directory itself (it reads
 * only patient_id and doctor_id); the payload carries the profile the person saw so that the row on screen
 * (the outbox replays the payload to build it) reads whole until the server's copy replaces it.
 */
export async function addDoctor(db: KincareDb, input: NewDoctorEntry, now = new Date()): Promise<string> {
  const listed = await db.doctors
    .where('patient_id')
    .equals(input.patient_id)
    .filter((entry) => entry.doctor_id === input.doctor.doctor_id)
    .count();
  if (listed > 0) throw new Error(MY_DOCTOR_MESSAGES.exists);
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const profile = Object.fromEntries(DOCTOR_PROFILE_FIELDS.map((field) => [field, input.doctor[field]]));
  const payload = {
    ...profile,
    id,
    patient_id: input.patient_id,
    doctor_id: input.doctor.doctor_id,
    added_by_caregiver: input.caregiver_id, // the server sets it from the token; the same value

    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(db, { resource: 'doctors', id, op: 'create', payload }, now.getTime());
  return id;
}

/** Takes an entry off the list (the entry's id, not the directory's). */
export async function removeDoctor(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await enqueue(db, { resource: 'doctors', id, op: 'delete' }, now.getTime());
}

export type DoctorSearchResult = DirectorySearchResult<DirectoryDoctor>;

/** GET /api/doctors: the directory's doctors by name, speciality and zip (nearest first), a page at a time. */
export function searchDoctors(
  query: DoctorSearchQuery,
  options: SearchOptions = {},
): Promise<DoctorSearchResult> {
  return searchDirectory('/doctors', directoryDoctorSchema, query, MY_DOCTOR_MESSAGES.searchOffline, options);
}
