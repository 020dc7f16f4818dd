import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AxiosError } from 'axios';
import type { DirectoryDoctor } from '../../../src/domain/directory';
import { MY_DOCTOR_MESSAGES } from '../../../src/domain/doctors';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { addDoctor, removeDoctor, searchDoctors } from '../../../src/local/doctors';
import { http } from '../../../src/local/http';
import { pushChangeFor } from '../../../src/local/sync-resources';
import { fakeServer, type Answer, type Call } from './support';

// My doctors on the device: an add and a remove go through the outbox (the row shows at once, whole), and
// the directory search tells "no connection" apart from the server's refusals.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
const DOCTOR: DirectoryDoctor = {
  doctor_id: '7d1f1c1e-0000-4000-8000-0000000000d1',
  npi: '1153191444',
  name: 'Michael Cohen',
  speciality: 'Internal Medicine',
  qualifications: 'DO',
  gender: 'Male',
  address: '5122 SE University Ave',
  city: 'New York',
  state: 'NY',
  zip: '10001',
  phone: '(860) 303-8257',
  accepting_new_patients: null,
  distance_miles: 1.2,
};

let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}doctors-test-${crypto.randomUUID()}`);
  await db.open();
  route = () => ({ status: 500 });
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
});

afterEach(async () => {
  await db.delete();
});

describe('addDoctor and removeDoctor', () => {
  it('shows the profile at once and queues a create that names the patient and the directory doctor', async () => {
    const id = await addDoctor(db, { patient_id: PATIENT, caregiver_id: null, doctor: DOCTOR });
    const row = await db.doctors.get(id);
    expect(row).toMatchObject({
      id,
      version: 0,
      patient_id: PATIENT,
      doctor_id: DOCTOR.doctor_id,
      name: 'Michael Cohen',
      phone: '(860) 303-8257',
      accepting_new_patients: null,
    });
    expect(row).not.toHaveProperty('distance_miles');
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ resource: 'doctors', entityId: id, op: 'create', label: 'Michael Cohen' });
    const pushed = pushChangeFor(entry!);
    expect(pushed.payload).toMatchObject({ patient_id: PATIENT, doctor_id: DOCTOR.doctor_id });
  });

  it('refuses a doctor already in the list, and a remove queues a delete and hides the entry', async () => {
    const id = await addDoctor(db, { patient_id: PATIENT, caregiver_id: null, doctor: DOCTOR });
    await expect(addDoctor(db, { patient_id: PATIENT, caregiver_id: null, doctor: DOCTOR })).rejects.toThrow(
      MY_DOCTOR_MESSAGES.exists,
    );
    await removeDoctor(db, id);
    expect(await db.doctors.count()).toBe(0);
    expect((await db.outbox.toArray()).map((entry) => entry.op)).toEqual(['create', 'delete']);
  });
});

describe('searchDoctors', () => {
  const query = { zip: '10001', speciality: 'Internal Medicine', page: 2, limit: 5 };

  it('asks the directory with the criteria given and answers the page', async () => {
    route = () => ({
      status: 200,
      data: { data: [DOCTOR], page: 2, limit: 5, totalCount: 6, totalPages: 2, remaining: 0 },
    });
    const answer = await searchDoctors({ ...query, name: '' }, { online: () => true });
    expect(answer).toEqual({
      kind: 'found',
      result: { items: [DOCTOR], page: 2, totalPages: 2, totalCount: 6 },
    });
    expect(calls.map((call) => call.url)).toEqual(['/doctors']);
  });

  it('offline, says the search needs a connection without calling', async () => {
    const answer = await searchDoctors(query, { online: () => false });
    expect(answer).toEqual({ kind: 'offline', message: MY_DOCTOR_MESSAGES.searchOffline });
    expect(calls).toEqual([]);
  });

  it('a call that could not reach the server while the connection dropped is "offline" too', async () => {
    let online = true;
    http.defaults.adapter = async (config) => {
      online = false;
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
    };
    const answer = await searchDoctors(query, { online: () => online });
    expect(answer.kind).toBe('offline');
  });

  it("a refusal is the server's words, with each field's message", async () => {
    route = () => ({
      status: 400,
      data: {
        message: 'We do not know this zip code. Check it and try again.',
        errors: [{ path: 'zip', msg: 'We do not know this zip code. Check it and try again.' }],
      },
    });
    const answer = await searchDoctors(query, { online: () => true });
    expect(answer).toEqual({
      kind: 'failed',
      message: 'We do not know this zip code. Check it and try again.',
      fieldErrors: { zip: 'We do not know this zip code. Check it and try again.' },
    });
  });
});
