import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AxiosError } from 'axios';
import type { DirectoryPharmacy } from '../../../src/domain/directory';
import { MY_PHARMACY_MESSAGES } from '../../../src/domain/pharmacies';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import {
  addPharmacy,
  makePreferred,
  pharmaciesOf,
  removePharmacy,
  searchPharmacies,
} from '../../../src/local/pharmacies';
import { pushChangeFor } from '../../../src/local/sync-resources';
import { fakeServer, type Answer, type Call } from './support';

// My pharmacies on the device: an add, a change of the preferred one and a remove go through the outbox (the
// row shows at once, whole; at most one is preferred), and the directory search tells "no connection" apart
// from the server's refusals.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
const pharmacy = (n: number, name: string): DirectoryPharmacy => ({
  pharmacy_id: `7d1f1c1e-0000-4000-8000-0000000000f${n}`,
  npi: `165000000${n}`,
  name,
  address: `${n} Main St`,
  city: 'New York',
  state: 'NY',
  zip: '10001',
  phone: '(212) 555-0100',
  opening_hours: null,
  open_24_hours: n === 1,
  distance_miles: 0.4 * n,
});
const ZETA = pharmacy(1, 'ZETA 24 HOUR PHARMACY');
const ALPHA = pharmacy(2, 'ALPHA FAMILY PHARMACY');

let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}pharmacies-test-${crypto.randomUUID()}`);
  await db.open();
  route = () => ({ status: 500 });
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
});

afterEach(async () => {
  await db.delete();
});

describe('addPharmacy, makePreferred and removePharmacy', () => {
  it('shows the first pharmacy at once as the preferred one and queues a create naming patient and pharmacy', async () => {
    const id = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ZETA });
    const row = await db.pharmacies.get(id);
    expect(row).toMatchObject({
      id,
      version: 0,
      patient_id: PATIENT,
      pharmacy_id: ZETA.pharmacy_id,
      name: ZETA.name,
      phone: '(212) 555-0100',
      open_24_hours: true,
      preferred: true,
    });
    expect(row).not.toHaveProperty('distance_miles');
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ resource: 'pharmacies', entityId: id, op: 'create', label: ZETA.name });
    expect(pushChangeFor(entry!).payload).toMatchObject({
      patient_id: PATIENT,
      pharmacy_id: ZETA.pharmacy_id,
      preferred: true,
    });
  });

  it('adds the second as not preferred and lists the preferred first, whatever the names', async () => {
    const first = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ZETA });
    const second = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ALPHA });
    expect((await db.pharmacies.get(second))?.preferred).toBe(false);
    expect((await pharmaciesOf(db, PATIENT)).map((row) => row.id)).toEqual([first, second]);
  });

  it('making one preferred queues false for the one preferred before, then true for it: one preferred at a time', async () => {
    const first = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ZETA });
    const second = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ALPHA });
    await makePreferred(db, second);
    const rows = await pharmaciesOf(db, PATIENT);
    expect(rows.map((row) => [row.id, row.preferred])).toEqual([
      [second, true],
      [first, false],
    ]);
    const updates = (await db.outbox.toArray()).filter((entry) => entry.op === 'update');
    expect(updates.map((entry) => [entry.entityId, entry.payload])).toEqual([
      [first, { preferred: false }],
      [second, { preferred: true }],
    ]);
    // Making the preferred one preferred again queues nothing.
    await makePreferred(db, second);
    expect(await db.outbox.count()).toBe(4);
  });

  it('refuses a pharmacy already in the list, and a remove queues a delete and hides the entry', async () => {
    const id = await addPharmacy(db, { patient_id: PATIENT, pharmacy: ZETA });
    await expect(addPharmacy(db, { patient_id: PATIENT, pharmacy: ZETA })).rejects.toThrow(
      MY_PHARMACY_MESSAGES.exists,
    );
    await removePharmacy(db, id);
    expect(await db.pharmacies.count()).toBe(0);
    expect((await db.outbox.toArray()).map((entry) => entry.op)).toEqual(['create', 'delete']);
  });
});

describe('searchPharmacies', () => {
  const query = { zip: '10001', page: 2, limit: 5 };

  it('asks the directory with the criteria given (blank ones left out) and answers the page', async () => {
    route = () => ({
      status: 200,
      data: { data: [ZETA], page: 2, limit: 5, totalCount: 6, totalPages: 2, remaining: 0 },
    });
    // The fake server's record has no query string: keep what axios was asked for beside it.
    const asked: unknown[] = [];
    const answerFromFake = http.defaults.adapter;
    http.defaults.adapter = async (config) => {
      asked.push(config.params);
      if (typeof answerFromFake !== 'function') throw new Error('no fake server');
      return answerFromFake(config);
    };
    const answer = await searchPharmacies({ ...query, name: '' }, { online: () => true });
    expect(answer).toEqual({
      kind: 'found',
      result: { items: [ZETA], page: 2, totalPages: 2, totalCount: 6 },
    });
    expect(calls.map((call) => call.url)).toEqual(['/pharmacies']);
    expect(asked).toEqual([query]);
  });

  it('offline, says the search needs a connection without calling', async () => {
    const answer = await searchPharmacies(query, { online: () => false });
    expect(answer).toEqual({ kind: 'offline', message: MY_PHARMACY_MESSAGES.searchOffline });
    expect(calls).toEqual([]);
  });

  it('a call that could not reach the server while the connection dropped is "offline" too', async () => {
    let online = true;
    http.defaults.adapter = async (config) => {
      online = false;
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
    };
    const answer = await searchPharmacies(query, { online: () => online });
    expect(answer.kind).toBe('offline');
  });

  it("a refusal is the server's words, with each field's message", async () => {
    route = () => ({
      status: 400,
      data: {
        message: 'Enter a zip code or a name to search pharmacies.',
        errors: [{ path: 'zip', msg: 'Enter a zip code or a name to search pharmacies.' }],
      },
    });
    const answer = await searchPharmacies({ page: 1 }, { online: () => true });
    expect(answer).toEqual({
      kind: 'failed',
      message: 'Enter a zip code or a name to search pharmacies.',
      fieldErrors: { zip: 'Enter a zip code or a name to search pharmacies.' },
    });
  });
});
