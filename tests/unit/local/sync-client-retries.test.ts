import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import type { PushChange } from '../../../src/domain/sync';
import { addAppointment } from '../../../src/local/appointments';
import { deleteUserDbs, openUserDb, userDb } from '../../../src/local/db';
import { clearSession, storeSession } from '../../../src/local/session';
import { startSync } from '../../../src/local/sync-client';
import type { SyncResult } from '../../../src/local/sync-engine';
import { stopSync } from '../../../src/local/sync-trigger';
import { tokenFor } from './support';

// When the page syncs (src/local/README.md): a change made offline goes out once the device is back, even
// when the online event comes while a sync that found no connection is still under way (the event's own
// sync must not be folded into that one and lost with it), and when the device says it is online but the
// connection does not work yet (no online event will come: the sync is tried again within seconds).

const ALICE = 'alice-retries-0000';
const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';

type Network = { up: boolean; pushes: PushChange[]; held: (() => void)[]; holdNextFailure: boolean };
let network: Network;

/** The server behind a network that is up or down; a failure can be held until the test lets it go. */
function adapterFor(state: Network): AxiosAdapter {
  return async (config: InternalAxiosRequestConfig) => {
    if (!state.up) {
      if (state.holdNextFailure) {
        state.holdNextFailure = false;
        await new Promise<void>((resolve) => state.held.push(resolve));
      }
      throw new Error('Network Error');
    }
    const answer = (data: unknown) => ({
      data,
      status: 200,
      statusText: '',
      headers: {},
      config,
      request: {},
    });
    if (config.url?.startsWith('/sync/push')) {
      const { changes } = JSON.parse(String(config.data)) as { changes: PushChange[] };
      state.pushes.push(...changes);
      return answer({
        results: changes.map((change, index) => ({
          idempotency_key: change.idempotency_key,
          status: 201,
          body: { success: true, data: { ...change.payload, version: state.pushes.length + index } },
        })),
      });
    }
    return answer({ changes: [], cursor: 0, more: false, reset: false, scope: 'own' });
  };
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

const visit = (title: string) => ({
  patient_id: PATIENT,
  caregiver_id: null,
  appointment_title: title,
  appointment_date: '2026-12-03T09:00:00.000Z',
  doctor_id: null,
  location: '',
  notes: '',
  status: 'scheduled' as const,
});

const pushedTitles = () =>
  network.pushes.map((change) => (change.payload as { appointment_title?: string }).appointment_title);

beforeEach(async () => {
  network = { up: false, pushes: [], held: [], holdNextFailure: false };
  axios.defaults.adapter = adapterFor(network);
  await storeSession(tokenFor(ALICE), 'Patient');
  await openUserDb(ALICE);
});

afterEach(async () => {
  stopSync();
  setOnline(true);
  await clearSession();
  localStorage.clear();
  await deleteUserDbs();
});

describe('the page sync of a change made offline', () => {
  it('goes out when the online event comes while a sync that found no connection is still under way', async () => {
    setOnline(false);
    await addAppointment(userDb(), visit('Eye exam'));
    network.holdNextFailure = true;
    const results: SyncResult[] = [];
    startSync(ALICE, { onResult: (result) => results.push(result) });
    await expect.poll(() => network.held.length).toBe(1); // the first sync waits on its failing request

    // The connection is back and the online event comes before that first sync has given up.
    network.up = true;
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    for (const release of network.held) release();

    await expect.poll(() => pushedTitles(), { timeout: 5000 }).toEqual(['Eye exam']);
    expect(results[0]?.problem).toBeDefined(); // the first one failed, and the event's sync went on
    await expect.poll(() => results.at(-1)?.problem ?? 'none').toBe('none');
  });

  it('is tried again within seconds when the device says it is online but the connection fails', async () => {
    setOnline(true);
    await addAppointment(userDb(), visit('Dentist'));
    const results: SyncResult[] = [];
    startSync(ALICE, { onResult: (result) => results.push(result) });
    await expect.poll(() => results.length).toBeGreaterThan(0);
    expect(results[0]?.problem).toBe('offline');

    // No online event: the device never said it was offline.
    network.up = true;
    await expect.poll(() => pushedTitles(), { timeout: 8000 }).toEqual(['Dentist']);
  });
});
