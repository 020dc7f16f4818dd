import { isRole, type Role } from '../domain/roles';
import { STORAGE_KEYS } from '../domain/storage-keys';
import { deleteSessionCopy, readSessionCopy, saveSessionCopy, SESSION_CHANNEL } from './session-store';
import { syncLockName, withSyncLock } from './sync-lock';

// The signed-in session. The token has one home, the session copy in IndexedDB (session-store.ts), which the service
// worker reads too; the page holds it in memory, loaded once before the app renders (loadSession), so that
// reading the session stays synchronous. The role, selected patient and check-in flag stay in localStorage
// (README.md beside this file): none of them lets anyone call the server. The user id is read from the token.

export type Session = { token: string; role: Role; userId: string };
type Held = { token: string; userId: string };

/** `elsewhere`: the change came from another tab or the service worker, not from this page. */
type Listener = (elsewhere: boolean) => void;

let held: Held | null = null;
let snapshot: Session | null = null;
const listeners = new Set<Listener>();

/** The session, or null when nobody is signed in. The same object while nothing changed (React reads it often). */
export function readSession(): Session | null {
  const role = localStorage.getItem(STORAGE_KEYS.role);
  if (!held || !isRole(role)) return (snapshot = null);
  if (snapshot?.token !== held.token || snapshot.role !== role)
    snapshot = { token: held.token, role, userId: held.userId };
  return snapshot;
}

/**
 * Loads the stored session into memory (page start, before anything reads it). A token an older version
 * kept in localStorage is moved to IndexedDB and deleted there once, so people signed in stay signed in.
 */
export async function loadSession(): Promise<Session | null> {
  const legacy = localStorage.getItem(STORAGE_KEYS.token);
  if (legacy !== null) {
    const userId = userIdFromToken(legacy);
    if (userId) await saveSessionCopy(userId, legacy);
    localStorage.removeItem(STORAGE_KEYS.token);
  }
  held = validCopy(await readSessionCopy());
  // No token (the service worker ended the session meanwhile): what is left of it goes too.
  if (!held) clearKeys();
  notify(false);
  return readSession();
}

/**
 * Loads the stored session and reopens its replica (page load, before the app renders). The replica's
 * module (Dexie) loads only when someone is signed in, so the sign-in page starts without it.
 */
export async function resumeSession(): Promise<boolean> {
  const session = await loadSession();
  if (!session) return false;
  const { openUserDb } = await import('./db');
  await openUserDb(session.userId);
  return true;
}

export async function storeSession(token: string, role: Role): Promise<void> {
  const userId = userIdFromToken(token);
  if (!userId) throw new Error('The server answered a token without a user id.');
  await saveSessionCopy(userId, token);
  localStorage.setItem(STORAGE_KEYS.role, role);
  held = { token, userId };
  changed();
}

/** Replaces the token only (change-password hands out a fresh one for the same person). */
export async function replaceToken(token: string): Promise<void> {
  const userId = userIdFromToken(token);
  if (!userId || userId !== held?.userId) throw new Error('The new token is not for the signed-in person.');
  await saveSessionCopy(userId, token);
  held = { token, userId };
  changed();
}

/**
 * Clears what logout and a 401 clear (README.md beside this file): token, role, selected patient, check-in
 * flag. Nobody is signed in on this page from the moment it is called; the promise ends when the stored token
 * is gone. With `onlyToken`, the stored token is deleted only if it is still that one.
 */
export async function clearSession(onlyToken?: string): Promise<void> {
  held = null;
  clearKeys();
  notify(false);
  await deleteSessionCopy(onlyToken);
  broadcast();
}

let ending: Promise<boolean> | null = null;

/**
 * A call made with `rejectedToken` was answered 401. Unless a newer token was stored meanwhile (another
 * tab signed in again or changed the password: that one is used from now on), the session is over: the
 * session is cleared and the device forgets the person (forgetUserData: only their unsent changes stay,
 * until they sign in again). Answers whether the session ended; concurrent 401s share one ending.
 */
export function endSession(rejectedToken: string): Promise<boolean> {
  ending ??= endNow(rejectedToken).finally(() => {
    ending = null;
  });
  return ending;
}

async function endNow(rejectedToken: string): Promise<boolean> {
  const stored = validCopy(await readSessionCopy());
  if (stored && stored.token !== rejectedToken) {
    if (held?.token !== stored.token) {
      held = stored;
      notify(true);
    }
    return false;
  }
  // Nothing stored and not this page's token either: signed out meanwhile, nothing is left to end.
  if (!stored && held?.token !== rejectedToken) return false;
  const userId = userIdFromToken(rejectedToken);
  await clearSession(rejectedToken);
  // Under the sync lock: a sync under way (another tab, the service worker) finishes first, so it cannot
  // write the replica back after it was emptied.
  // Loaded here, not up front: the replica's module (Dexie) is not needed to read or store a session, and
  // the sign-in page should not wait for it.
  const { forgetUserData, deleteDataCaches } = await import('./db');
  if (userId) await withSyncLock(syncLockName(userId), () => forgetUserData(userId));
  await deleteDataCaches();
  return true;
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(elsewhere: boolean) {
  for (const listener of listeners) listener(elsewhere);
}

function changed() {
  notify(false);
  broadcast();
}

function clearKeys() {
  for (const key of [
    STORAGE_KEYS.token, // only ever there from an older version of the app
    STORAGE_KEYS.role,
    STORAGE_KEYS.selectedPatientId,
    STORAGE_KEYS.healthCheckinDone,
  ]) {
    localStorage.removeItem(key);
  }
}

function validCopy(copy: { userId: string; token: string } | undefined): Held | null {
  return copy && userIdFromToken(copy.token) === copy.userId
    ? { token: copy.token, userId: copy.userId }
    : null;
}

// Other tabs (and the service worker, when it ends a session) say here that the stored session changed:
// this page reloads it, and the app follows (a sign-out elsewhere signs this tab out too).
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
(channel as { unref?: () => void } | null)?.unref?.(); // Node (tests): never keep the process alive
channel?.addEventListener('message', () => void reloadFromElsewhere());
if (typeof window !== 'undefined')
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.role || event.key === null) void reloadFromElsewhere();
  });

function broadcast() {
  channel?.postMessage('changed');
}

async function reloadFromElsewhere(): Promise<void> {
  held = validCopy(await readSessionCopy());
  notify(true);
}

/** The `sub` claim of a JWT, without checking the signature (the server does that on every call). */
export function userIdFromToken(token: string): string | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const payload: unknown = JSON.parse(json);
    const sub =
      typeof payload === 'object' && payload !== null ? (payload as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
