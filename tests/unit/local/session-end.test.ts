import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import axios from 'axios';
import Dexie from 'dexie';
import type { Profile } from '../../../src/domain/auth';
import {
  endOtherSession,
  listSessions,
  resetPassword,
  signIn,
  signOut,
  signOutEverywhere,
  verifyOtp,
} from '../../../src/local/account';
import { DB_PREFIX, deleteUserDbs, KincareDb, openUserDb, userDb } from '../../../src/local/db';
import { readSessionCopy, saveSessionCopy } from '../../../src/local/session-store';
import { http } from '../../../src/local/http';
import { setHttpEvents, type SessionEnded } from '../../../src/local/http-events';
import { enqueue } from '../../../src/local/outbox';
import { clearSession, readSession, storeSession } from '../../../src/local/session';
import { startSync } from '../../../src/local/sync-client';
import { stopSync } from '../../../src/local/sync-trigger';
import { fakeServer, profileOf, storedAnywhere, tokenFor, type Answer, type Call } from './support';

// The device forgets a person when their session ends (src/local/README.md). A 401 on any signed-in call (the
// app's HTTP client, the sync engine's push and pull) deletes the replica's records and the token, and keeps
// only the person's unsent changes until they sign in again; logout tells the server and deletes everything.

const ALICE = 'alice-0000';
const BOB = 'bob-0000';
const ENDED: Answer = { status: 401, data: { message: 'Your session has ended. Please sign in again.' } };

/** What must not be on the device once Alice's session has ended: her records, profile, links, files. */
const ALICE_SECRETS = [
  'Alice Secretname',
  'alice@example.com',
  'Patient Privatename',
  'Dr Hiddenname',
  'Cardiology follow-up',
  'Chest pain since May',
  'Left knee swelling',
  'lab-scan-key',
];

let route: (call: Call) => Answer;
let calls: Call[];
const unauthorized = vi.fn();

beforeEach(() => {
  route = () => ENDED;
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  axios.defaults.adapter = server.adapter; // the sync transport's own client, created at startSync
  unauthorized.mockReset();
  setHttpEvents({ onUnauthorized: unauthorized, onError: () => {} });
});

afterEach(async () => {
  stopSync();
  setOnline(true);
  await clearSession();
  localStorage.clear();
  await deleteUserDbs();
});

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

/**
 * Alice signed in, with a synced replica (profile, a caregiver link, a doctor, two appointments, the cursor,
 * an uploaded file) and, unless `unsent` is false, two changes the server has not taken: a new appointment
 * with a file chosen offline, and an edit of an existing one.
 */
async function aliceSignedIn({ unsent = true } = {}) {
  await storeSession(tokenFor(ALICE), 'Patient');
  localStorage.setItem('selectedPatientId', 'p1');
  localStorage.setItem('healthCheckinDone', 'true');
  const db = await openUserDb(ALICE);
  await db.profile.put(profileOf(ALICE, 'Alice Secretname', 'alice@example.com'));
  await db.associatedPatients.put({
    patient_id: 'p1',
    user_id: 'u1',
    name: 'Patient Privatename',
    email: 'p@example.com',
    permissions: ['ReadDoctor'],
    permission_id: 'perm-1',
  });
  await db.viewOf('doctors').put({ id: 'd1', version: 2, patient_id: ALICE, name: 'Dr Hiddenname' });
  await db.viewOf('appointments').bulkPut([
    { id: 'a1', version: 3, appointment_title: 'Cardiology follow-up', notes: 'Chest pain since May' },
    { id: 'a2', version: 4, appointment_title: 'Knee scan', notes: 'Left knee swelling' },
  ]);
  await db.syncState.bulkPut([
    { key: 'cursor', value: 7 },
    { key: 'lastSyncAt', value: Date.now() },
  ]);
  await db.blobs.put({
    id: 'uploaded-blob',
    blob: new Blob(['scan']),
    name: 'scan.png',
    type: 'image/png',
    uploadType: 'lab',
    uploadedKey: 'lab-scan-key',
  });
  if (!unsent) return db;
  await enqueue(db, {
    resource: 'appointments',
    id: 'a3',
    op: 'create',
    payload: { appointment_title: 'Unsent eye exam', attachment_key: 'blob:letter-blob' },
    blobs: [
      {
        id: 'letter-blob',
        blob: new Blob(['letter']),
        name: 'letter.pdf',
        type: 'application/pdf',
        uploadType: 'appointment',
      },
    ],
  });
  await enqueue(db, { resource: 'appointments', id: 'a2', op: 'update', payload: { location: 'Room 4' } });
  return db;
}

/** After Alice's session ended: nothing of hers on the device but her two unsent changes and their file. */
async function expectAliceForgotten() {
  expect(readSession()).toBeNull();
  expect(await readSessionCopy()).toBeUndefined();
  expect(await storedAnywhere(tokenFor(ALICE))).toEqual([]);
  expect(
    ['token', 'role', 'selectedPatientId', 'healthCheckinDone'].map((key) => localStorage.getItem(key)),
  ).toEqual([null, null, null, null]);
  expect(() => userDb()).toThrow('nobody is signed in');
  const db = new KincareDb(`${DB_PREFIX}${ALICE}`);
  await db.open();
  try {
    for (const table of db.tables) {
      if (['outbox', 'blobs', 'serverRows'].includes(table.name)) continue;
      expect(await table.count(), `${table.name} is emptied`).toBe(0);
    }
    expect((await db.outbox.toArray()).map((entry) => [entry.op, entry.entityId, entry.payload])).toEqual([
      ['create', 'a3', { appointment_title: 'Unsent eye exam', attachment_key: 'blob:letter-blob' }],
      ['update', 'a2', { location: 'Room 4' }],
    ]);
    expect(await db.blobs.toCollection().primaryKeys()).toEqual(['letter-blob']);
    // The version each queued edit was made on stays (the server merges against it); the record does not.
    expect(
      (await db.serverRows.toArray()).map((shadow) => [shadow.key, shadow.version, shadow.data]),
    ).toEqual([
      ['appointments:a2', 4, null],
      ['appointments:a3', 0, null],
    ]);
  } finally {
    db.close();
  }
  for (const secret of ALICE_SECRETS) expect(await storedAnywhere(secret), secret).toEqual([]);
  expect(await storedAnywhere('Unsent eye exam')).toEqual([`indexedDB ${DB_PREFIX}${ALICE}/outbox`]);
}

const replicaNames = async () =>
  (await Dexie.getDatabaseNames()).filter((name) => name.startsWith(DB_PREFIX) && name !== 'kincare-session');

describe('a 401 ends the session and the device forgets the person', () => {
  it('on a call of the app: replica emptied, token gone, only the unsent changes kept', async () => {
    await aliceSignedIn();
    await expect(http.get('/appointments')).rejects.toMatchObject({ response: { status: 401 } });
    expect(unauthorized).toHaveBeenCalledTimes(1);
    // The app tells the person how many of their changes wait on the device for them.
    expect(unauthorized).toHaveBeenCalledWith({ unsentChanges: 2 });
    expect(calls.map((call) => call.authorization)).toEqual([`Bearer ${tokenFor(ALICE)}`]);
    await expectAliceForgotten();
  });

  it("on the sync engine's push", async () => {
    const db = await aliceSignedIn();
    // Uploaded already (fake-indexeddb cannot store jsdom's Blob, so it could not be sent from here).
    await db.blobs.update('letter-blob', { uploadedKey: 'letter-key' });
    const ended = new Promise<SessionEnded>((resolve) =>
      startSync(ALICE, { onResult: () => {}, onSessionEnded: resolve }),
    );
    expect(await ended).toEqual({ unsentChanges: 2 });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /sync/push']);
    await expectAliceForgotten();
  });

  it("on the sync engine's first reads (the care lists, before the pull), and with nothing unsent the whole replica goes", async () => {
    await aliceSignedIn({ unsent: false });
    const ended = new Promise<SessionEnded>((resolve) =>
      startSync(ALICE, { onResult: () => {}, onSessionEnded: resolve }),
    );
    expect(await ended).toEqual({ unsentChanges: 0 });
    // A patient's care lists are read together; the pull is not tried once they were refused.
    expect(calls.map((call) => `${call.method} ${call.url.split('?')[0]}`).sort()).toEqual([
      'GET /request/activity',
      'GET /request/approved',
      'GET /request/permission-requests',
      'GET /request/sent',
    ]);
    expect(await replicaNames()).toEqual([]);
    expect(await storedAnywhere(tokenFor(ALICE))).toEqual([]);
    for (const secret of ALICE_SECRETS) expect(await storedAnywhere(secret), secret).toEqual([]);
  });

  it('not for a token that was replaced meanwhile (another tab signed in again): that one is used', async () => {
    await aliceSignedIn();
    const newer = tokenFor(ALICE).replace('signature', 'newer');
    await saveSessionCopy(ALICE, newer); // another tab signed in again
    await expect(http.get('/appointments')).rejects.toMatchObject({ response: { status: 401 } });
    expect(unauthorized).not.toHaveBeenCalled();
    expect(readSession()?.token).toBe(newer);
    expect(await userDb().viewOf('appointments').count()).toBe(3);
    expect(await storedAnywhere('Alice Secretname')).toEqual([`indexedDB ${DB_PREFIX}${ALICE}/profile`]);
  });

  it('the same person signing in again finds the queue; another person is asked before it is deleted', async () => {
    await aliceSignedIn();
    await expect(http.get('/appointments')).rejects.toBeDefined();
    const profiles: Record<string, Profile> = {
      [ALICE]: profileOf(ALICE, 'Alice Secretname', 'alice@example.com'),
      [BOB]: profileOf(BOB, 'Bob Other', 'bob@example.com'),
    };
    let who = ALICE;
    route = (call) => {
      if (call.url === '/auth/login')
        return {
          status: 200,
          data: { success: true, accessToken: tokenFor(who), role: 'Patient', userId: who },
        };
      if (call.url === '/auth/profile') return { status: 200, data: { success: true, data: profiles[who] } };
      return ENDED;
    };
    const confirm = vi.fn(async () => false);
    who = BOB;
    expect(await signIn({ email: 'bob@example.com', password: 'x' }, confirm)).toBeNull();
    expect(confirm).toHaveBeenCalledWith(2);
    expect(readSession()).toBeNull();
    expect(await replicaNames()).toEqual([`${DB_PREFIX}${ALICE}`]);

    confirm.mockClear();
    who = ALICE;
    expect((await signIn({ email: 'alice@example.com', password: 'x' }, confirm))?.name).toBe(
      'Alice Secretname',
    );
    expect(confirm).not.toHaveBeenCalled();
    expect(readSession()?.userId).toBe(ALICE);
    expect(await userDb().outbox.count()).toBe(2);

    // Ended again, then Bob agrees: Alice's changes go with her replica.
    await expect(http.get('/appointments')).rejects.toBeDefined();
    who = BOB;
    confirm.mockImplementation(async () => true);
    expect((await signIn({ email: 'bob@example.com', password: 'x' }, confirm))?.name).toBe('Bob Other');
    expect(await replicaNames()).toEqual([`${DB_PREFIX}${BOB}`]);
    expect(await storedAnywhere('Unsent eye exam')).toEqual([]);
  });
});

describe('logout', () => {
  it('ends the session on the server, then deletes the replica and the token', async () => {
    await aliceSignedIn({ unsent: false });
    route = (call) =>
      call.url === '/auth/logout' ? { status: 200, data: { success: true, message: 'Signed out.' } } : ENDED;
    await signOut();
    expect(calls).toEqual([
      { method: 'POST', url: '/auth/logout', authorization: `Bearer ${tokenFor(ALICE)}`, body: undefined },
    ]);
    expect(await replicaNames()).toEqual([]);
    expect(await storedAnywhere(tokenFor(ALICE))).toEqual([]);
    expect(readSession()).toBeNull();
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('offline, or when the session had already ended, still forgets everything here', async () => {
    await aliceSignedIn();
    setOnline(false);
    await signOut();
    expect(calls).toEqual([]);
    expect(await replicaNames()).toEqual([]);
    expect(await storedAnywhere(tokenFor(ALICE))).toEqual([]);

    setOnline(true);
    await aliceSignedIn({ unsent: false });
    await signOut(); // the server answers 401: nothing more to end, and no 'Unauthorized' on the way out
    expect(calls.map((call) => call.url)).toEqual(['/auth/logout']);
    expect(unauthorized).not.toHaveBeenCalled();
    expect(await replicaNames()).toEqual([]);
  });

  it("'Sign out of all devices' ends every session on the server, then forgets the person here", async () => {
    await aliceSignedIn();
    route = (call) =>
      call.url === '/auth/logout-all'
        ? { status: 200, data: { success: true, message: 'Signed out of all devices.' } }
        : ENDED;
    await signOutEverywhere();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /auth/logout-all']);
    await expectAliceForgotten();
  });

  it("'Sign out of all devices' that the server did not take changes nothing", async () => {
    await aliceSignedIn();
    route = () => ({ status: 503, data: { message: 'Service unavailable' } });
    await expect(signOutEverywhere()).rejects.toBeDefined();
    expect(readSession()?.userId).toBe(ALICE);
    expect(await userDb().viewOf('appointments').count()).toBe(3);
  });
});

describe('account calls', () => {
  it('lists the sessions and ends one by id', async () => {
    await aliceSignedIn({ unsent: false });
    const listed = [
      {
        id: '6f1c0c52-4a51-4a8e-9d8b-1b9b8f0d0001',
        created_at: '2026-01-02T03:04:05.000Z',
        last_seen_at: '2026-01-02T04:04:05.000Z',
        user_agent: 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile Safari/537.36',
        address: '203.0.113.9',
        current: false,
      },
    ];
    route = (call) =>
      call.method === 'GET'
        ? { status: 200, data: { success: true, data: listed } }
        : { status: 200, data: { success: true, message: 'Session ended.' } };
    expect(await listSessions()).toEqual(listed);
    expect(await endOtherSession(listed[0]?.id ?? '')).toBe('Session ended.');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /auth/sessions',
      `DELETE /auth/sessions/${listed[0]?.id}`,
    ]);
  });

  it('forgot password: the reset token from verify-otp goes with the new password', async () => {
    const resetToken = 'r'.repeat(43);
    route = (call) =>
      call.url === '/auth/verify-otp'
        ? { status: 200, data: { success: true, message: 'OTP verified', resetToken } }
        : { status: 200, data: { success: true, message: 'Password reset' } };
    expect(await verifyOtp('a@example.com', '123456')).toBe(resetToken);
    await resetPassword('a@example.com', 'Correct-Horse-42', resetToken);
    expect(calls.map((call) => call.body)).toEqual([
      { email: 'a@example.com', otp: '123456' },
      { email: 'a@example.com', newPassword: 'Correct-Horse-42', resetToken },
    ]);
  });
});
