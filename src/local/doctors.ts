import {
  directoryDoctorSchema,
  pageOf,
  type DirectoryDoctor,
  type DoctorSearchQuery,
} from '../domain/directory';
import { DOCTOR_PROFILE_FIELDS, MY_DOCTOR_MESSAGES, type DoctorProfile } from '../domain/doctors';
import type { KincareDb } from './db';
import { errorMessages, fieldErrors, statusOf } from './http-errors';
import { enqueue } from './outbox';

// "My doctors" (SPEC section 7, Doctors): adding a directory doctor to a patient's list and removing one go
// through the outbox like every synced resource, so both work offline. Searching the directory is the one
// part that needs the server: it answers what it found, or says plainly that it needs a connection.

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

const searchAnswerSchema = pageOf(directoryDoctorSchema);
export type DoctorSearchPage = {
  doctors: DirectoryDoctor[];
  page: number;
  totalPages: number;
  totalCount: number;
};

/** What a search came to: a page of doctors, no connection, or the server's (or network's) words. */
export type DoctorSearchResult =
  | { kind: 'found'; result: DoctorSearchPage }
  | { kind: 'offline'; message: string }
  | { kind: 'failed'; message: string; fieldErrors: Record<string, string> };

/** Reads `navigator.onLine` unless told (tests). */
type SearchOptions = { online?: () => boolean; signal?: AbortSignal };

/**
 * GET /api/doctors: the directory's doctors by name, speciality and zip (nearest first), a page at a time.
 * Never throws for a failed call: offline (before trying, or when the call could not reach the server
 * while the browser says it is offline) answers `offline`, anything else `failed` with the words to show.
 */
export async function searchDoctors(
  query: DoctorSearchQuery,
  options: SearchOptions = {},
): Promise<DoctorSearchResult> {
  const online = options.online ?? (() => navigator.onLine);
  const offline = { kind: 'offline', message: MY_DOCTOR_MESSAGES.searchOffline } as const;
  if (!online()) return offline;
  // The HTTP client (axios) loads with the first search, not with the screen.
  const { http } = await import('./http');
  try {
    const params = Object.fromEntries(
      Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
    );
    const response = await http.get('/doctors', { params, quiet: true, signal: options.signal });
    const answer = searchAnswerSchema.parse(response.data);
    return {
      kind: 'found',
      result: {
        doctors: answer.data,
        page: answer.page,
        totalPages: answer.totalPages,
        totalCount: answer.totalCount,
      },
    };
  } catch (error) {
    if (statusOf(error) === undefined && !online()) return offline;
    return { kind: 'failed', message: errorMessages(error).join(' '), fieldErrors: fieldErrors(error) };
  }
}
