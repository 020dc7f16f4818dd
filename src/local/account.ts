import {
  changePasswordResponseSchema,
  loginResponseSchema,
  messageResponseSchema,
  profileResponseSchema,
  updateProfileResponseSchema,
  type BetaAcknowledgementKey,
  type ChangePasswordBody,
  type LoginBody,
  type Profile,
  type RegisterBody,
  type UpdateProfileFields,
} from '../domain/auth';
import { http } from './http';
import {
  deleteOtherUsersDbs,
  deleteUserDbs,
  openUserDb,
  saveSessionCopy,
  unsentChangesOfOtherUsers,
  userDb,
} from './db';
import { stopSync } from './sync-client';
import { withSyncLock } from './sync-lock';
import { syncLockName } from './sync-engine';
import { clearSession, readSession, replaceToken, storeSession } from './session';

// Signing in and out of this device: the session keys, the per-user replica and the caches that hold
// the user's data. Sign-in is online-only; logout works offline and leaves nothing of the user behind.

/**
 * Asked, after the credentials are accepted and before anything is stored, when this device holds changes
 * an earlier user queued and never sent (signing in deletes their replica); false keeps that replica as it
 * was and cancels the sign-in. Required: no caller may delete someone's changes without asking.
 */
export type ConfirmDeletingOthersChanges = (unsentChanges: number) => Promise<boolean>;

/**
 * Signs in: stores the session, opens the user's replica and loads the profile into it. Answers null
 * when the person chose not to delete an earlier user's unsent changes (nothing of this sign-in is kept).
 */
export async function signIn(
  body: LoginBody,
  confirmDeletingOthersChanges: ConfirmDeletingOthersChanges,
): Promise<Profile | null> {
  const response = await http.post('/auth/login', body, { quiet: true });
  const login = loginResponseSchema.parse(response.data);
  // Someone else's replica may be left on this device (their session ended without a logout). The same
  // person's replica is kept, so what they queued before their session ended goes out now.
  const othersUnsent = await unsentChangesOfOtherUsers(login.userId);
  if (othersUnsent > 0 && !(await confirmDeletingOthersChanges(othersUnsent))) return null;
  storeSession(login.accessToken, login.role);
  await deleteOtherUsersDbs(login.userId);
  await openUserDb(login.userId);
  await saveSessionCopy(login.userId, login.accessToken);
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

/** Reopens the replica of the stored session (page load). */
export async function resumeSession(): Promise<boolean> {
  const session = readSession();
  if (!session) return false;
  await openUserDb(session.userId);
  await saveSessionCopy(session.userId, session.token);
  return true;
}

/**
 * Logout (SPEC section 4): clears the session keys, deletes the user's replica and the service worker's
 * data caches. The app shell's precache stays: it holds no personal data and lets the app open offline.
 */
export async function signOut(): Promise<void> {
  const session = readSession();
  stopSync();
  clearSession();
  // Under the sync lock: a sync under way (another tab, the service worker) finishes first, so it
  // cannot write the replica back after it was deleted.
  if (session) await withSyncLock(syncLockName(session.userId), deleteUserDbs);
  else await deleteUserDbs();
  if (typeof caches !== 'undefined') {
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)),
    );
  }
}

async function requestPersistentStorage(): Promise<void> {
  try {
    if (navigator.storage?.persist && !(await navigator.storage.persisted()))
      await navigator.storage.persist();
  } catch {
    // Persistence is a request, not a right: the browser may refuse, and the app works either way.
  }
}

// Online-only account calls (SPEC section 7, /auth). Each parses the answer with the domain contract.

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

export async function verifyOtp(email: string, otp: string): Promise<void> {
  await http.post('/auth/verify-otp', { email, otp }, { quiet: true });
}

export async function resetPassword(email: string, newPassword: string): Promise<void> {
  await http.post('/auth/reset-password', { email, newPassword }, { quiet: true });
}

/** Changes the password; the server signs out older tokens and hands this device a fresh one. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  const response = await http.put('/auth/change-password', body, { quiet: true });
  const { accessToken } = changePasswordResponseSchema.parse(response.data);
  replaceToken(accessToken);
  const session = readSession();
  if (session) await saveSessionCopy(session.userId, accessToken);
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
