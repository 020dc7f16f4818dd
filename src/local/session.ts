import { isRole, type Role } from '../domain/roles';
import { STORAGE_KEYS } from '../domain/storage-keys';

// The signed-in session as SPEC section 3 keeps it: token and role in localStorage (page only; the
// service worker never reads this module). The user id is read from the token itself.

export type Session = { token: string; role: Role; userId: string };

const listeners = new Set<() => void>();

export function readSession(): Session | null {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  const role = localStorage.getItem(STORAGE_KEYS.role);
  if (!token || !isRole(role)) return null;
  const userId = userIdFromToken(token);
  return userId ? { token, role, userId } : null;
}

export function storeSession(token: string, role: Role): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.role, role);
  notify();
}

/** Replaces the token only (change-password hands out a fresh one). */
export function replaceToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  notify();
}

/** Clears what SPEC section 4 says logout and a 401 clear: token, role, selected patient, check-in flag. */
export function clearSession(): void {
  for (const key of [
    STORAGE_KEYS.token,
    STORAGE_KEYS.role,
    STORAGE_KEYS.selectedPatientId,
    STORAGE_KEYS.healthCheckinDone,
  ]) {
    localStorage.removeItem(key);
  }
  notify();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify() {
  for (const listener of listeners) listener();
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
