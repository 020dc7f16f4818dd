import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import {
  clearSession,
  loadSession,
  readSession,
  replaceToken,
  storeSession,
  userIdFromToken,
} from '../../../src/local/session';
import { DB_PREFIX, deleteUserDbs, openUserDb, userDb } from '../../../src/local/db';
import { readSessionCopy, saveSessionCopy } from '../../../src/local/session-store';
import { tokenFor, storedAnywhere } from './support';

afterEach(async () => {
  await clearSession();
  localStorage.clear();
  await deleteUserDbs();
});

describe('session', () => {
  it('reads a session stored by the earlier, Dexie-kept session database, and replaces it', async () => {
    const earlier = new Dexie('kincare-session');
    earlier.version(1).stores({ session: 'id' });
    await earlier.table('session').put({ id: 'current', userId: 'user-9', token: tokenFor('user-9') });
    earlier.close();
    localStorage.setItem('role', 'Patient');
    expect(await loadSession()).toMatchObject({ userId: 'user-9', token: tokenFor('user-9') });
    await saveSessionCopy('user-8', tokenFor('user-8'));
    expect(await readSessionCopy()).toEqual({ userId: 'user-8', token: tokenFor('user-8') });
  });

  it('keeps the token in IndexedDB only (role under its own key) and reads the user id from the token', async () => {
    await storeSession(tokenFor('user-1'), 'Patient');
    expect(readSession()).toEqual({ token: tokenFor('user-1'), role: 'Patient', userId: 'user-1' });
    expect(localStorage.getItem('role')).toBe('Patient');
    expect(localStorage.getItem('token')).toBeNull();
    expect(await readSessionCopy()).toEqual({ userId: 'user-1', token: tokenFor('user-1') });
    expect(await storedAnywhere(tokenFor('user-1'))).toEqual(['indexedDB kincare-session/session']);
    // The same object while nothing changed: React's useSyncExternalStore depends on it.
    expect(readSession()).toBe(readSession());
  });

  it('loads the stored token at start-up, before anything reads the session', async () => {
    await storeSession(tokenFor('user-2'), 'Caregiver');
    await clearSessionInMemoryOnly();
    expect(await loadSession()).toEqual({ token: tokenFor('user-2'), role: 'Caregiver', userId: 'user-2' });
    await replaceToken(tokenFor('user-2') + 'x');
    expect(readSession()?.token).toBe(tokenFor('user-2') + 'x');
    expect((await readSessionCopy())?.token).toBe(tokenFor('user-2') + 'x');
    await expect(replaceToken(tokenFor('someone-else'))).rejects.toThrow('not for the signed-in person');
  });

  it('moves a token an older version kept in localStorage into IndexedDB, once, and deletes it there', async () => {
    localStorage.setItem('token', tokenFor('legacy'));
    localStorage.setItem('role', 'Patient');
    expect(await loadSession()).toEqual({ token: tokenFor('legacy'), role: 'Patient', userId: 'legacy' });
    expect(localStorage.getItem('token')).toBeNull();
    expect((await readSessionCopy())?.token).toBe(tokenFor('legacy'));
    expect(await storedAnywhere(tokenFor('legacy'))).toEqual(['indexedDB kincare-session/session']);
  });

  it('clears token, role, selected patient and check-in flag, but keeps the voice preference', async () => {
    await storeSession(tokenFor('user-1'), 'Caregiver');
    localStorage.setItem('selectedPatientId', 'p1');
    localStorage.setItem('healthCheckinDone', 'true');
    localStorage.setItem('isSpeechEnabled', 'true');
    await clearSession();
    expect(
      ['token', 'role', 'selectedPatientId', 'healthCheckinDone'].map((key) => localStorage.getItem(key)),
    ).toEqual([null, null, null, null]);
    expect(localStorage.getItem('isSpeechEnabled')).toBe('true');
    expect(readSession()).toBeNull();
    expect(await readSessionCopy()).toBeUndefined();
    expect(await loadSession()).toBeNull();
  });

  it('treats a malformed token or an unknown role as no session', async () => {
    localStorage.setItem('token', 'garbage');
    localStorage.setItem('role', 'Patient');
    expect(await loadSession()).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(userIdFromToken('a.b.c')).toBeNull();
    await expect(storeSession('garbage', 'Patient')).rejects.toThrow('without a user id');
    await storeSession(tokenFor('u'), 'Patient');
    localStorage.setItem('role', 'Superuser');
    expect(readSession()).toBeNull();
  });
});

describe('per-user replica', () => {
  it('keeps each user in a database of their own and deletes it at logout', async () => {
    const first = await openUserDb('alice');
    await first.profile.put({ id: 'alice', name: 'Alice' } as never);
    const second = await openUserDb('bob');
    expect(second.name).toBe(`${DB_PREFIX}bob`);
    expect(await userDb().profile.get('alice')).toBeUndefined();
    await deleteUserDbs();
    expect((await Dexie.getDatabaseNames()).filter((name) => name.startsWith(DB_PREFIX))).toEqual([]);
    expect(() => userDb()).toThrow('nobody is signed in');
  });
});

/** A fresh page: nothing in memory, the stored session as it was. */
async function clearSessionInMemoryOnly() {
  const copy = await readSessionCopy();
  const role = localStorage.getItem('role');
  await clearSession();
  if (copy) await saveSessionCopy(copy.userId, copy.token);
  if (role) localStorage.setItem('role', role);
}
