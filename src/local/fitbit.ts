import {
  FITBIT_MESSAGES,
  fitbitAuthorizeSchema,
  fitbitDataSchema,
  fitbitMessageSchema,
  notConnectedFitbit,
  type FitbitData,
} from '../domain/fitbit';
import type { KincareDb } from './db';
import { errorMessages, statusOf } from './http-errors';
import { http } from './http';

// Fitbit on the device (src/server/services/fitbit/README.md): the server's GET /api/fitbit/data for a
// patient, and the last answer kept in the replica (syncState, one key per patient), so Home shows the charts
// offline with the time they were read; it goes with the replica at sign-out. Connecting: the server's Fitbit
// sign-in address (authorize), then the code Fitbit sends back to /fitbit/callback (finishFitbitConnection).

/** The syncState key of a patient's last Fitbit answer. */
export const fitbitKey = (patientId: string) => `fitbit:${patientId}`;

/** The last answer and when the device got it (ISO). */
export type SavedFitbit = { data: FitbitData; savedAt: string };

/** A read that did not work: the server's words (503 when Fitbit is not set up), or offline. */
export type FitbitProblem = { status: number | undefined; message: string };

export async function readSavedFitbit(db: KincareDb, patientId: string): Promise<SavedFitbit | null> {
  const entry = await db.syncState.get(fitbitKey(patientId));
  if (typeof entry?.value !== 'string') return null;
  try {
    const stored = JSON.parse(entry.value) as { data?: unknown; savedAt?: unknown };
    const data = fitbitDataSchema.safeParse(stored.data);
    if (!data.success || typeof stored.savedAt !== 'string') return null;
    return { data: data.data, savedAt: stored.savedAt };
  } catch {
    return null;
  }
}

const problemOf = (error: unknown): FitbitProblem => ({
  status: statusOf(error),
  message: errorMessages(error)[0] ?? FITBIT_MESSAGES.unavailable,
});

/** Asks the server for the patient's days and keeps the answer; a failure keeps what was kept. */
export async function refreshFitbit(
  db: KincareDb,
  patientId: string,
  now: () => Date = () => new Date(),
): Promise<{ ok: true; saved: SavedFitbit } | { ok: false; problem: FitbitProblem }> {
  try {
    const response = await http.get('/fitbit/data', { params: { patient: patientId }, quiet: true });
    const parsed = fitbitDataSchema.safeParse(response.data);
    if (!parsed.success)
      return { ok: false, problem: { status: undefined, message: FITBIT_MESSAGES.broken } };
    const saved: SavedFitbit = { data: parsed.data, savedAt: now().toISOString() };
    await db.syncState.put({ key: fitbitKey(patientId), value: JSON.stringify(saved) });
    return { ok: true, saved };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

/** Fitbit's sign-in page for the signed-in patient (the server keeps the PKCE verifier). */
export async function fitbitSignInAddress(): Promise<
  { ok: true; url: string } | { ok: false; problem: FitbitProblem }
> {
  try {
    const response = await http.get('/fitbit/authorize', { quiet: true });
    const parsed = fitbitAuthorizeSchema.safeParse(response.data);
    return parsed.success
      ? { ok: true, url: parsed.data.url }
      : { ok: false, problem: { status: undefined, message: FITBIT_MESSAGES.broken } };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

/** POST /api/fitbit/callback with the code Fitbit sent back: the server's message, or why not. */
export async function finishFitbitConnection(body: {
  code: string;
  userId: string;
  state?: string;
}): Promise<{ ok: true; message: string } | { ok: false; problem: FitbitProblem }> {
  try {
    const response = await http.post('/fitbit/callback', body, { quiet: true });
    const parsed = fitbitMessageSchema.safeParse(response.data);
    return { ok: true, message: parsed.success ? parsed.data.message : FITBIT_MESSAGES.connected };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

/** DELETE /api/fitbit: the server forgets the tokens and days; the device forgets the days it saved. */
export async function disconnectFitbit(
  db: KincareDb,
  patientId: string,
): Promise<{ ok: true; message: string } | { ok: false; problem: FitbitProblem }> {
  try {
    const response = await http.delete('/fitbit', { quiet: true });
    const parsed = fitbitMessageSchema.safeParse(response.data);
    // Kept as 'not connected' (not deleted), so Home offers to connect again at once, offline too.
    const saved: SavedFitbit = {
      data: notConnectedFitbit(true),
      savedAt: new Date().toISOString(),
    };
    await db.syncState.put({ key: fitbitKey(patientId), value: JSON.stringify(saved) });
    return { ok: true, message: parsed.success ? parsed.data.message : FITBIT_MESSAGES.disconnected };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}
