import {
  changePasswordResponseSchema,
  loginResponseSchema,
  messageResponseSchema,
  profileResponseSchema,
  sessionListResponseSchema,
  updateProfileResponseSchema,
  verifyOtpResponseSchema,
  type BetaAcknowledgementKey,
  type ChangePasswordBody,
  type LoginBody,
  type LoginResponse,
  type Profile,
  type RegisterBody,
  type ResetPasswordBody,
  type Session as SignedInSession,
  type UpdateProfileFields,
} from '../domain/auth';
import {
  BILLING_CODES,
  subscriptionRequiredBodySchema,
  type SubscriptionRequiredBody,
} from '../domain/billing';
import { http } from './http';
import { statusOf } from './http-errors';
import {
  deleteDataCaches,
  deleteOtherUsersDbs,
  deleteUserDbs,
  openUserDb,
  unsentChangesOfOtherUsers,
  userDb,
} from './db';
import { stopSync } from './sync-trigger';
import { syncLockName, withSyncLock } from './sync-lock';
import { clearSession, endSession, readSession, replaceToken, storeSession } from './session';

// Signing in and out of this device: the session, the per-user replica and the caches that hold the
// user's data. Sign-in is online-only; logout works offline and leaves nothing of the user behind.

/**
 * Asked, after the credentials are accepted and before anything is stored, when this device holds changes
 * an earlier user queued and never sent (signing in deletes their replica); false keeps that replica as it
 * was and cancels the sign-in. Required: no caller may delete someone's changes without asking.
 */
export type ConfirmDeletingOthersChanges = (unsentChanges: number) => Promise<boolean>;

/**
 * The login refused a patient who has no subscription that lets them in (403 with code
 * SUBSCRIPTION_REQUIRED): `body` names the person, the short-lived token that lets them subscribe without
 * being signed in, and the plan chosen at a corporate sign-up. The sign-in form opens the plan choice.
 */
export class SubscriptionRequiredError extends Error {
  readonly code = BILLING_CODES.subscriptionRequired;
  constructor(readonly body: SubscriptionRequiredBody) {
    super(body.message);
    this.name = 'SubscriptionRequiredError';
  }
}

/**
 * Signs in: stores the session, opens the user's replica and loads the profile into it. Answers null
 * when the person chose not to delete an earlier user's unsent changes (nothing of this sign-in is kept).
 * Throws SubscriptionRequiredError when the patient must choose a plan first.
 */
export async function signIn(
  body: LoginBody,
  confirmDeletingOthersChanges: ConfirmDeletingOthersChanges,
): Promise<Profile | null> {
  const response = await http.post('/auth/login', body, { quiet: true }).catch((error: unknown) => {
    throw subscriptionRequiredIn(error) ?? error;
  });
  return completeSignIn(loginResponseSchema.parse(response.data), confirmDeletingOthersChanges);
}

function subscriptionRequiredIn(error: unknown): SubscriptionRequiredError | null {
  if (statusOf(error) !== 403) return null;
  const parsed = subscriptionRequiredBodySchema.safeParse(
    (error as { response?: { data?: unknown } }).response?.data,
  );
  return parsed.success ? new SubscriptionRequiredError(parsed.data) : null;
}

/** What every sign-in does with the server's answer (a password sign-in, or an invited caregiver's onboarding). */
export async function completeSignIn(
  login: LoginResponse,
  confirmDeletingOthersChanges: ConfirmDeletingOthersChanges,
): Promise<Profile | null> {
  // Someone else's replica may be left on this device (their session ended without a logout). The same
  // person's replica is kept, so what they queued before their session ended goes out now. Another
  // person's goes before this session is stored: from the moment it is, nothing of the earlier person's
  // is left to show, or to sync under it.
  const othersUnsent = await unsentChangesOfOtherUsers(login.userId);
  if (othersUnsent > 0 && !(await confirmDeletingOthersChanges(othersUnsent))) return null;
  await deleteOtherUsersDbs(login.userId);
  await storeSession(login.accessToken, login.role);
  await openUserDb(login.userId);
  const profile = await refreshProfile();
  void requestPersistentStorage();
  return profile;
}

/** Fetches the profile and writes it to the local table the screens read. */
export async function refreshProfile(): Promise<Profile> {
  const response = await http.get('/auth/profile');
  const { data } = profileResponseSchema.parse(response.data);
  await userDb().profile.put(data);
  return data;
}

/** How long logout waits for the server to end the session before it signs out here anyway. */
const LOGOUT_CALL_TIMEOUT_MS = 5_000;

/**
 * Logout (README.md beside this file): ends the session on the server when online (best effort: offline, or
 * with no answer, the device still forgets), clears the session, deletes the user's replica and the service
 * worker's data caches. The app shell's precache stays: it holds no personal data and lets the app open
 * offline. Callers ask first when unsent changes would be deleted (the shell's unsent-changes dialog).
 */
export async function signOut(): Promise<void> {
  const session = readSession();
  stopSync();
  await clearSession();
  const told = session ? endServerSession(session.token) : Promise.resolve();
  // Under the sync lock: a sync under way (another tab, the service worker) finishes first, so it
  // cannot write the replica back after it was deleted.
  if (session) await withSyncLock(syncLockName(session.userId), deleteUserDbs);
  else await deleteUserDbs();
  await deleteDataCaches();
  await told;
}

async function endServerSession(token: string): Promise<void> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return;
  try {
    await http.post('/auth/logout', undefined, {
      quiet: true,
      endsSession: true,
      timeout: LOGOUT_CALL_TIMEOUT_MS,
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch {
    // Best effort: the token is already gone from this device, and the session expires on the server.
  }
}

/**
 * 'Sign out of all devices': the server ends every session of this person, this one too; this device then
 * forgets the person as after any ended session (unsent changes stay until they sign in again). Online
 * only: it throws when the server did not take it, and nothing changes.
 */
export async function signOutEverywhere(): Promise<void> {
  const session = readSession();
  if (!session) return;
  try {
    await http.post('/auth/logout-all', undefined, { quiet: true, endsSession: true });
  } catch (error) {
    if (statusOf(error) !== 401) throw error; // 401: this session had already ended
  }
  stopSync();
  await endSession(session.token);
}

/** The person's sessions (online only; not synced): when and where each signed in, and which is this one. */
export async function listSessions(): Promise<SignedInSession[]> {
  const response = await http.get('/auth/sessions', { quiet: true });
  return sessionListResponseSchema.parse(response.data).data;
}

/** Ends one of the person's other sessions: that device's next call is answered 401. */
export async function endOtherSession(id: string): Promise<string> {
  const response = await http.delete(`/auth/sessions/${encodeURIComponent(id)}`, { quiet: true });
  return messageResponseSchema.parse(response.data).message;
}

async function requestPersistentStorage(): Promise<void> {
  try {
    if (navigator.storage?.persist && !(await navigator.storage.persisted()))
      await navigator.storage.persist();
  } catch {
    // Persistence is a request, not a right: the browser may refuse, and the app works either way.
  }
}

// Online-only account calls (/auth). Each parses the answer with the domain contract.

/** `plan`: the plan chosen at a corporate sign-up (/signup/:plan); the server keeps it for the first sign-in. */
export async function register(body: RegisterBody): Promise<string> {
  const response = await http.post('/auth/register', body, { quiet: true });
  return messageResponseSchema.parse(response.data).message;
}

export async function verifyEmail(token: string): Promise<string> {
  const response = await http.post('/auth/verify-email', { token }, { quiet: true });
  return messageResponseSchema.parse(response.data).message;
}

export async function requestPasswordReset(email: string): Promise<string> {
  const response = await http.post('/auth/forgot-password', { email }, { quiet: true });
  return messageResponseSchema.parse(response.data).message;
}

/** Checks the reset code; answers the single-use reset token that reset-password requires (keep it in memory only). */
export async function verifyOtp(email: string, otp: string): Promise<string> {
  const response = await http.post('/auth/verify-otp', { email, otp }, { quiet: true });
  return verifyOtpResponseSchema.parse(response.data).resetToken;
}

export async function resetPassword(email: string, newPassword: string, resetToken: string): Promise<void> {
  const body: ResetPasswordBody = { email, newPassword, resetToken };
  await http.post('/auth/reset-password', body, { quiet: true });
}

/** Changes the password; the server signs out older tokens and hands this device a fresh one. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  const response = await http.put('/auth/change-password', body, { quiet: true });
  const { accessToken } = changePasswordResponseSchema.parse(response.data);
  await replaceToken(accessToken);
}

/** Updates the profile (multipart: text fields and an optional photo) and the local copy. */
export async function updateProfile(fields: UpdateProfileFields, photo: File | null): Promise<Profile> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
  if (photo) form.append('photo', photo);
  const response = await http.put('/auth/update-profile', form, { quiet: true });
  const { data } = updateProfileResponseSchema.parse(response.data);
  await userDb().profile.put(data);
  return data;
}

export async function acceptBetaPolicy(
  acknowledgements: Record<BetaAcknowledgementKey, true>,
): Promise<Profile> {
  const response = await http.post('/auth/beta-policy', acknowledgements, { quiet: true });
  const { data } = profileResponseSchema.parse(response.data);
  await userDb().profile.put(data);
  return data;
}
