import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import axios, { type AxiosAdapter } from 'axios';
import { signIn } from '../../../src/local/account';
import { DB_PREFIX, deleteUserDbs, KincareDb, openUserDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { setHttpEvents } from '../../../src/local/http-events';
import { enqueue } from '../../../src/local/outbox';
import { clearSession, onSessionChange, readSession, storeSession } from '../../../src/local/session';
import { readSessionCopy, saveSessionCopy } from '../../../src/local/session-store';
import { startSync } from '../../../src/local/sync-client';
import { stopSync } from '../../../src/local/sync-trigger';
import { syncStoredSession } from '../../../src/local/sync-worker';
import { fakeServer, profileOf, storedAnywhere, tokenFor, type Answer, type Call } from './support';

// What a person queued offline stays theirs after their session ends (a 401): it is sent only under their
// own session, never under the session of whoever is signed in on the device when a sync gets to it, and it
// is gone before another person's session exists here. The lab reports they chose to have read wait with it.

const ALICE = 'alice-0000';
const BOB = 'bob-0000';
const ENDED: Answer = { status: 401, data: { message: 'Your session has ended. Please sign in again.' } };
const REFUSED_BATCH: Answer = { status: 400, data: { message: 'The batch was refused.' } };

let route: (call: Call) => Answer;
/** Runs while a request is on its way, before the server answers (another tab acts meanwhile). */
let whileSending: (request: string) => Promise<void>;
let calls: Call[];
const unauthorized = vi.fn();

beforeEach(() => {
  route = () => ENDED;
  whileSending = async () => {};
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  const adapter: AxiosAdapter = async (config) => {
    await whileSending(`${(config.method ?? 'get').toUpperCase()} ${config.url ?? ''}`);
    return server.adapter(config);
  };
  http.defaults.adapter = adapter;
  axios.defaults.adapter = adapter; // the sync transport's own client, created when a sync starts
  unauthorized.mockReset();
  setHttpEvents({ onUnauthorized: unauthorized, onError: () => {} });
});

afterEach(async () => {
  stopSync();
  await clearSession();
  localStorage.clear();
  await deleteUserDbs();
});

/** Alice signed in with an appointment on the device and two changes the server has not taken. */
async function aliceWithUnsentChanges() {
  await storeSession(tokenFor(ALICE), 'Patient');
  const db = await openUserDb(ALICE);
  await db.profile.put(profileOf(ALICE, 'Alice Secretname', 'alice@example.com'));
  await db.viewOf('appointments').put({ id: 'a1', version: 3, appointment_title: 'Cardiology follow-up' });
  await enqueue(db, {
    resource: 'appointments',
    id: 'a3',
    op: 'create',
    payload: { appointment_title: 'Unsent eye exam' },
  });
  await enqueue(db, { resource: 'appointments', id: 'a1', op: 'update', payload: { location: 'Room 4' } });
  return db;
}

/** Alice's queue as it is stored, read without going through the app's open replica. */
async function aliceQueue(): Promise<[string, string, string][]> {
  const db = new KincareDb(`${DB_PREFIX}${ALICE}`);
  await db.open();
  try {
    return (await db.outbox.toArray()).map((entry) => [entry.op, entry.entityId, entry.status]);
  } finally {
    db.close();
  }
}

/** The first push is refused as a whole, so the engine goes on one change at a time: a second request. */
function bobSignsInDuringTheFirstPush(signInAsBob: () => Promise<void>) {
  let pushes = 0;
  route = (call) => (call.url === '/sync/push' ? REFUSED_BATCH : ENDED);
  whileSending = async (request) => {
    if (request === 'POST /sync/push' && ++pushes === 1) await signInAsBob();
  };
}

describe("unsent changes are sent only under their maker's session", () => {
  it("the page's sync under way when another person signs in sends nothing more, and leaves that person signed in", async () => {
    await aliceWithUnsentChanges();
    bobSignsInDuringTheFirstPush(() => storeSession(tokenFor(BOB), 'Patient')); // another tab signed in
    const ended = vi.fn();
    await new Promise<void>((resolve) =>
      startSync(ALICE, { onResult: () => resolve(), onSessionEnded: ended }),
    );

    expect(calls.map((call) => [call.url, call.authorization])).toEqual([
      ['/sync/push', `Bearer ${tokenFor(ALICE)}`],
    ]);
    expect(await storedAnywhere(tokenFor(BOB))).toEqual(['indexedDB kincare-session/session']);
    expect(readSession()?.userId).toBe(BOB);
    expect(ended).not.toHaveBeenCalled();
    expect(await aliceQueue()).toEqual([
      ['create', 'a3', 'pending'],
      ['update', 'a1', 'pending'],
    ]);
  });

  it("the service worker's sync under way when another person signs in sends nothing more, and leaves that person signed in", async () => {
    await aliceWithUnsentChanges();
    bobSignsInDuringTheFirstPush(() => saveSessionCopy(BOB, tokenFor(BOB)));
    await syncStoredSession();

    expect(calls.map((call) => [call.url, call.authorization])).toEqual([
      ['/sync/push', `Bearer ${tokenFor(ALICE)}`],
    ]);
    expect(await readSessionCopy()).toEqual({ userId: BOB, token: tokenFor(BOB) });
    expect(await aliceQueue()).toEqual([
      ['create', 'a3', 'pending'],
      ['update', 'a1', 'pending'],
    ]);
  });

  it('the service worker forgets a person whose session ended as a page does: only their queue stays', async () => {
    await aliceWithUnsentChanges();
    await syncStoredSession(); // the push is answered 401
    expect(calls.map((call) => [call.url, call.authorization])).toEqual([
      ['/sync/push', `Bearer ${tokenFor(ALICE)}`],
    ]);
    expect(await readSessionCopy()).toBeUndefined();
    expect(await aliceQueue()).toEqual([
      ['create', 'a3', 'pending'],
      ['update', 'a1', 'pending'],
    ]);
    expect(await storedAnywhere('Alice Secretname')).toEqual([]);
    // The edited record's title stays only as the name of the queued edit (to say which record, if refused).
    expect(await storedAnywhere('Cardiology follow-up')).toEqual([`indexedDB ${DB_PREFIX}${ALICE}/outbox`]);
  });

  it("another person's session is stored only once the earlier person's replica is gone", async () => {
    await aliceWithUnsentChanges();
    await expect(http.get('/appointments')).rejects.toMatchObject({ response: { status: 401 } });
    expect(await aliceQueue()).toHaveLength(2);
    route = (call) => {
      if (call.url === '/auth/login')
        return {
          status: 200,
          data: { success: true, accessToken: tokenFor(BOB), role: 'Patient', userId: BOB },
        };
      if (call.url === '/auth/profile')
        return { status: 200, data: { success: true, data: profileOf(BOB, 'Bob Other', 'bob@example.com') } };
      return ENDED;
    };
    // What the device holds at the moment Bob's session appears (databases() answers the state of that moment).
    const atBobsSession: { names?: Promise<IDBDatabaseInfo[]> } = {};
    const unsubscribe = onSessionChange(() => {
      if (readSession()?.userId === BOB) atBobsSession.names ??= indexedDB.databases();
    });
    try {
      expect((await signIn({ email: 'bob@example.com', password: 'x' }, async () => true))?.name).toBe(
        'Bob Other',
      );
    } finally {
      unsubscribe();
    }
    expect(atBobsSession.names).toBeDefined();
    expect(((await atBobsSession.names) ?? []).map((info) => info.name)).not.toContain(
      `${DB_PREFIX}${ALICE}`,
    );
    expect(await storedAnywhere('Unsent eye exam')).toEqual([]);
  });
});

describe('the work an ended session leaves unfinished', () => {
  it('keeps the lab reports of queued changes waiting to be read, without what was read from them', async () => {
    const db = await aliceWithUnsentChanges();
    await db.viewOf('lab_reports').bulkPut([
      { id: 'r2', version: 1, report_type: 'Thyroid panel', attachment_key: 'lab/alice/r2.pdf' },
      { id: 'r3', version: 1, report_type: 'Iron panel', attachment_key: 'lab/alice/r3.pdf' },
    ]);
    await enqueue(db, {
      resource: 'lab_reports',
      id: 'r1',
      op: 'create',
      payload: { report_type: 'Lipid panel', attachment_key: 'lab/alice/r1.pdf' },
    });
    await enqueue(db, { resource: 'lab_reports', id: 'r2', op: 'update', payload: { notes: 'fasting' } });
    await enqueue(db, { resource: 'lab_reports', id: 'r4', op: 'delete' });
    const read = {
      doctor_name: 'Dr Hiddenname',
      report_date: '2026-11-19',
      lab_results: [],
      report_type: 'Thyroid panel',
      doctor_id: null,
      source: 'ocr' as const,
    };
    const job = { patient_id: ALICE, updated_at: '2026-11-20T10:00:00.000Z' };
    await db.labExtractions.bulkPut([
      // Chosen offline, its create still queued: to be read once it is uploaded.
      { ...job, report_id: 'r1', state: 'waiting', extraction: null, message: null },
      // Read and waiting for the person's review, with an edit of the report queued.
      { ...job, report_id: 'r2', state: 'ready', extraction: read, message: 'Please review.' },
      // Read and waiting for review, nothing of it queued: the report is on the server as it is.
      { ...job, report_id: 'r3', state: 'ready', extraction: read, message: 'Please review.' },
      // Could not be read: stays so (the person chooses to read it again).
      { ...job, report_id: 'r4', state: 'failed', extraction: null, message: 'Not a lab report.' },
    ]);
    await expect(http.get('/appointments')).rejects.toMatchObject({ response: { status: 401 } });

    const kept = new KincareDb(`${DB_PREFIX}${ALICE}`);
    await kept.open();
    try {
      // Read again after the next sign-in, once the first pull has brought the reports back.
      expect(
        (await kept.labExtractions.toArray()).map((entry) => [
          entry.report_id,
          entry.state,
          entry.extraction,
          entry.message,
        ]),
      ).toEqual([
        ['r1', 'waiting', null, null],
        ['r2', 'waiting', null, null],
        ['r4', 'failed', null, 'Not a lab report.'],
      ]);
    } finally {
      kept.close();
    }
    for (const secret of ['Dr Hiddenname', 'Iron panel', 'Please review.'])
      expect(await storedAnywhere(secret), secret).toEqual([]);
  });
});
