import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FITBIT_MESSAGES, notConnectedFitbit, type FitbitData } from '../../../src/domain/fitbit';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { setHttpEvents } from '../../../src/local/http-events';
import {
  disconnectFitbit,
  finishFitbitConnection,
  fitbitKey,
  fitbitSignInAddress,
  readSavedFitbit,
  refreshFitbit,
} from '../../../src/local/fitbit';
import { fakeServer, type Answer, type Call } from './support';

// Fitbit on the device: the server's days kept in the replica per patient (read back offline with their
// time), a failure keeping what was kept and never toasting, and the connect calls.

const PATIENT = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const DATA: FitbitData = {
  set_up: true,
  connected: true,
  reconnect: false,
  days: [{ date: '2026-11-24', steps: 5234, resting_heart_rate: 61, sleep_minutes: 410 }],
  fetched_at: '2026-11-24T14:00:00.000Z',
};

let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];
const toasts = vi.fn();

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}fitbit-test-${crypto.randomUUID()}`);
  await db.open();
  route = () => ({ status: 200, data: DATA });
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  toasts.mockReset();
  setHttpEvents({ onUnauthorized: () => {}, onError: toasts });
});
afterEach(async () => {
  await db.delete();
});

const at = () => new Date('2026-11-24T15:00:00.000Z');

describe('the Fitbit days on the device', () => {
  it("keeps the server's answer per patient and reads it back without the network", async () => {
    const result = await refreshFitbit(db, PATIENT, at);
    expect(result).toEqual({ ok: true, saved: { data: DATA, savedAt: at().toISOString() } });
    expect(calls[0]?.url).toBe('/fitbit/data');
    route = () => {
      throw new Error('no network read expected');
    };
    expect(await readSavedFitbit(db, PATIENT)).toEqual({ data: DATA, savedAt: at().toISOString() });
    expect(await readSavedFitbit(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it("keeps what it had when the server refuses, answers the server's words, and does not toast", async () => {
    await refreshFitbit(db, PATIENT, at);
    route = () => ({ status: 503, data: { message: FITBIT_MESSAGES.notSetUp } });
    const result = await refreshFitbit(db, PATIENT);
    expect(result).toEqual({ ok: false, problem: { status: 503, message: FITBIT_MESSAGES.notSetUp } });
    expect((await readSavedFitbit(db, PATIENT))?.data).toEqual(DATA);
    expect(toasts).not.toHaveBeenCalled();
  });

  it('does not keep an answer it cannot read, and ignores a damaged saved value', async () => {
    route = () => ({ status: 200, data: { connected: 'yes' } });
    expect((await refreshFitbit(db, PATIENT)).ok).toBe(false);
    expect(await readSavedFitbit(db, PATIENT)).toBeNull();
    await db.syncState.put({ key: fitbitKey(PATIENT), value: '{not json' });
    expect(await readSavedFitbit(db, PATIENT)).toBeNull();
  });
});

describe('connecting Fitbit', () => {
  it("gets Fitbit's sign-in address from the server", async () => {
    route = () => ({ status: 200, data: { url: 'https://www.fitbit.com/oauth2/authorize?client_id=x' } });
    expect(await fitbitSignInAddress()).toEqual({
      ok: true,
      url: 'https://www.fitbit.com/oauth2/authorize?client_id=x',
    });
    expect(calls[0]?.url).toBe('/fitbit/authorize');
  });

  it("posts the code and the user id, and answers the server's message or its refusal", async () => {
    route = () => ({ status: 200, data: { message: FITBIT_MESSAGES.connected } });
    const body = { code: 'abc123', userId: PATIENT, state: 'st' };
    expect(await finishFitbitConnection(body)).toEqual({ ok: true, message: FITBIT_MESSAGES.connected });
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/fitbit/callback', body });
    route = () => ({ status: 400, data: { message: FITBIT_MESSAGES.codeRefused } });
    expect(await finishFitbitConnection(body)).toEqual({
      ok: false,
      problem: { status: 400, message: FITBIT_MESSAGES.codeRefused },
    });
    expect(toasts).not.toHaveBeenCalled();
  });
});

describe('disconnecting Fitbit', () => {
  it('asks the server to forget, then keeps only "not connected" on the device', async () => {
    await refreshFitbit(db, PATIENT, at);
    route = () => ({ status: 200, data: { message: FITBIT_MESSAGES.disconnected } });
    expect(await disconnectFitbit(db, PATIENT)).toEqual({ ok: true, message: FITBIT_MESSAGES.disconnected });
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/fitbit' });
    const saved = await readSavedFitbit(db, PATIENT);
    expect(saved?.data).toEqual(notConnectedFitbit(true));
  });

  it('keeps the days when the server could not be reached', async () => {
    await refreshFitbit(db, PATIENT, at);
    route = () => ({ status: 503, data: { message: FITBIT_MESSAGES.unavailable } });
    expect((await disconnectFitbit(db, PATIENT)).ok).toBe(false);
    expect((await readSavedFitbit(db, PATIENT))?.data).toEqual(DATA);
  });
});
