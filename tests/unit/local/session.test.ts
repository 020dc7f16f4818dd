import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, readSession, storeSession, userIdFromToken } from '../../../src/local/session';
import { DB_PREFIX, deleteUserDbs, openUserDb, userDb } from '../../../src/local/db';
import Dexie from 'dexie';

const tokenFor = (sub: string) =>
  `header.${btoa(JSON.stringify({ sub, tv: 0 })).replace(/=+$/, '')}.signature`;

afterEach(async () => {
  localStorage.clear();
  await deleteUserDbs();
});

describe('session', () => {
  it('stores token and role under the SPEC keys and reads the user id from the token', () => {
    storeSession(tokenFor('user-1'), 'Patient');
    expect(localStorage.getItem('token')).toBe(tokenFor('user-1'));
    expect(localStorage.getItem('role')).toBe('Patient');
    expect(readSession()).toEqual({ token: tokenFor('user-1'), role: 'Patient', userId: 'user-1' });
  });
  it('clears token, role, selected patient and check-in flag, but keeps the voice preference', () => {
    storeSession(tokenFor('user-1'), 'Caregiver');
    localStorage.setItem('selectedPatientId', 'p1');
    localStorage.setItem('healthCheckinDone', 'true');
    localStorage.setItem('isSpeechEnabled', 'true');
    clearSession();
    expect(
      ['token', 'role', 'selectedPatientId', 'healthCheckinDone'].map((key) => localStorage.getItem(key)),
    ).toEqual([null, null, null, null]);
    expect(localStorage.getItem('isSpeechEnabled')).toBe('true');
    expect(readSession()).toBeNull();
  });
  it('treats a malformed token or an unknown role as no session', () => {
    localStorage.setItem('token', 'garbage');
    localStorage.setItem('role', 'Patient');
    expect(readSession()).toBeNull();
    expect(userIdFromToken('a.b.c')).toBeNull();
    storeSession(tokenFor('u'), 'Patient');
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
