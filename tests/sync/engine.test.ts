import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addAppointment, editAppointment, removeAppointment } from '../../src/local/appointments';
import { discardFailed, enqueue, retryRefused } from '../../src/local/outbox';
import { pull, PullError } from '../../src/local/sync-pull';
import { syncOnce } from '../../src/local/sync-engine';
import type { Transport } from '../../src/local/sync-transport';
import type { Profile } from '../../src/domain/auth';
import { push, backoffMs } from '../../src/local/sync-push';
import { purgeTombstones } from '../../src/server/services/records';
import { careLinks, records, uploads } from '../../src/server/db/schema';
import { TINY_PNG } from '../fixtures/images';
import {
  linkCaregiver,
  makeAccount,
  makeDevice,
  startServer,
  type Account,
  type Device,
  type Server,
  visitFields,
} from './harness';

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

const visit = (account: Account, title = 'Dentist') => visitFields(account.patientId ?? '', title);

/** The profile the app stores at sign-in (only the role matters to the sync engine). */
const profileOf = (account: Account, role: 'Patient' | 'Caregiver'): Profile => ({
  id: account.userId,
  name: role,
  role,
  email: `${account.userId}@example.com`,
  zip_code: '10001',
  patient_id: account.patientId,
  caregiver_id: account.caregiverId,
  stripe_customer_id: null,
  email_verified: true,
  birth_date: null,
  age: null,
  gender: null,
  race: null,
  ethnicity: null,
  phone: null,
  address: null,
  city: null,
  state: null,
  photo_url: null,
  beta_policy_accepted_at: null,
});

async function serverRows(account: Account) {
  const rows = await server.database().db.select().from(records);
  return rows.filter((row) => row.patientId === account.patientId && !row.deletedAt);
}

describe('sync engine against the real server', () => {
  it('sends changes made offline once, with the edited values', async () => {
    const phone = await makeDevice(server, patient, 'phone');
    phone.network.online = false;
    const id = await addAppointment(phone.db, visit(patient));
    await editAppointment(phone.db, id, { appointment_title: 'Dentist (moved)', location: 'Main St' });
    expect((await phone.sync()).problem).toBe('offline');
    expect(await phone.db.outbox.count()).toBe(2);
    phone.network.online = true;
    expect((await phone.sync()).ok).toBe(true);
    const rows = await serverRows(patient);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.data).toMatchObject({ appointment_title: 'Dentist (moved)', location: 'Main St' });
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.serverRows.count()).toBe(0);
    expect((await phone.db.appointments.get(id))?.version).toBe(rows[0]?.version);
    phone.close();
  });

  it('keeps entries on lost answers and duplicated deliveries, and applies each once', async () => {
    const phone = await makeDevice(server, patient, 'phone2');
    phone.network.loseAnswerRate = 1;
    phone.network.duplicateRate = 1;
    const id = await addAppointment(phone.db, visit(patient));
    await editAppointment(phone.db, id, { notes: 'fasting' });
    await phone.sync();
    expect(await phone.db.outbox.count()).toBe(2); // the first answer was lost: nothing was dropped
    phone.network.loseAnswerRate = 0;
    await phone.sync();
    await phone.network.replayOldRequest();
    expect(await serverRows(patient)).toHaveLength(1);
    expect((await serverRows(patient))[0]?.data).toMatchObject({ notes: 'fasting' });
    expect(await phone.db.outbox.count()).toBe(0);
    phone.close();
  });

  it('does not let a pull overwrite a pending local edit: it rebases the edit on top', async () => {
    const phone = await makeDevice(server, patient, 'phone3');
    const laptop = await makeDevice(server, patient, 'laptop3');
    const id = await addAppointment(phone.db, visit(patient));
    await phone.sync();
    await laptop.sync();
    phone.network.online = false;
    await editAppointment(phone.db, id, { appointment_title: 'Phone title' });
    await editAppointment(laptop.db, id, { location: 'Laptop room' });
    await laptop.sync();
    phone.network.online = true;
    await pull(phone.db, phone.network.transport); // pull only: the phone's edit is still queued
    expect(await phone.db.appointments.get(id)).toMatchObject({
      appointment_title: 'Phone title',
      location: 'Laptop room',
    });
    expect((await phone.sync()).push.merged).toBe(1); // the server says it merged the phone's edit
    await laptop.sync();
    const expected = { appointment_title: 'Phone title', location: 'Laptop room' };
    expect((await serverRows(patient))[0]?.data).toMatchObject(expected);
    expect(await laptop.db.appointments.get(id)).toMatchObject(expected);
    expect(await phone.db.appointments.get(id)).toEqual(await laptop.db.appointments.get(id));
    phone.close();
    laptop.close();
  });

  it('retries on 5xx with backoff and keeps order', async () => {
    const phone = await makeDevice(server, patient, 'phone4');
    await addAppointment(phone.db, visit(patient, 'A'));
    await addAppointment(phone.db, visit(patient, 'B'));
    await server.stop(); // the server is gone: connection refused
    const outcome = await push(phone.db, phone.network.transport, { force: true });
    expect(outcome.stoppedBy).toBe('retry-later');
    let head = await phone.db.outbox.orderBy('seq').first();
    expect(head?.attempts).toBe(0); // a try the person asked for does not count towards the backoff
    expect(head?.nextAttemptAt).toBeGreaterThan(Date.now());
    expect(
      (await push(phone.db, phone.network.transport, { now: () => Date.now() + 60_000 })).stoppedBy,
    ).toBe('retry-later');
    head = await phone.db.outbox.orderBy('seq').first();
    expect(head?.attempts).toBe(1); // an automatic try does
    expect((await push(phone.db, phone.network.transport)).stoppedBy).toBe('retry-later'); // still backing off
    await server.start();
    await phone.sync();
    expect((await serverRows(patient)).map((row) => row.data.appointment_title).sort()).toEqual(['A', 'B']);
    expect([backoffMs(1, () => 1), backoffMs(3, () => 1), backoffMs(30, () => 1)]).toEqual([
      1000, 4000, 300_000,
    ]);
    phone.close();
  });

  it('rolls back a change the server refuses, keeps it as failed with the reason, and can discard it', async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment']);
    const carer = await makeDevice(server, caregiver, 'carer5');
    await addAppointment(carer.db, { ...visit(patient), caregiver_id: caregiver.caregiverId });
    const result = await carer.sync();
    expect(result.push.rejected[0]?.message).toBe('You do not have permission to do this for this patient.');
    expect(await carer.db.appointments.count()).toBe(0); // rolled back
    const [failed] = await carer.db.outbox.toArray();
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'You do not have permission to do this for this patient.',
    });
    await discardFailed(carer.db, failed?.seq ?? -1);
    expect(await carer.db.outbox.count()).toBe(0);
    expect(await carer.db.serverRows.count()).toBe(0);
    carer.close();
  });

  it("takes a record a caregiver may add but not read off the caregiver's device once the server has it", async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['AddAppointment']);
    const carer = await makeDevice(server, caregiver, 'carer-add-only');
    const id = await addAppointment(carer.db, {
      ...visit(patient, 'Physio'),
      caregiver_id: caregiver.caregiverId,
    });
    const result = await carer.sync();
    expect(result.push.rejected).toEqual([]);
    expect(await carer.db.outbox.count()).toBe(0);
    // The answer was a receipt (id and version): no empty row may stand in for the record on the device.
    expect(await carer.db.appointments.get(id)).toBeUndefined();
    expect((await serverRows(patient)).find((row) => row.id === id)?.data.appointment_title).toBe('Physio');
    carer.close();
  });

  it('rolls an edit back to the server copy when the record was deleted elsewhere (the delete wins)', async () => {
    const phone = await makeDevice(server, patient, 'phone6');
    const laptop = await makeDevice(server, patient, 'laptop6');
    const id = await addAppointment(phone.db, visit(patient));
    await phone.sync();
    await laptop.sync();
    await removeAppointment(laptop.db, id);
    await laptop.sync();
    await editAppointment(phone.db, id, { notes: 'too late' });
    const result = await phone.sync();
    expect(result.push.rejected.map((rejection) => rejection.message)).toEqual([
      'This appointment was deleted on another device, so your change was not applied.',
    ]);
    expect(await phone.db.appointments.get(id)).toBeUndefined();
    phone.close();
    laptop.close();
  });

  it('waits for a fresh sign-in on 401, and sends with the token of the moment', async () => {
    let token = 'expired.token.value';
    const phone = await makeDevice(server, patient, 'phone7', () => token);
    await addAppointment(phone.db, visit(patient));
    expect((await phone.sync()).problem).toBe('signed-out');
    expect(await phone.db.outbox.count()).toBe(1);
    token = patient.token; // the person signed in again
    expect((await phone.sync()).ok).toBe(true);
    expect(await serverRows(patient)).toHaveLength(1);
    phone.close();
  });

  it('starts over when its cursor is older than the tombstone horizon, keeping queued edits', async () => {
    const phone = await makeDevice(server, patient, 'phone8');
    const laptop = await makeDevice(server, patient, 'laptop8');
    const keep = await addAppointment(laptop.db, visit(patient, 'Keep'));
    const gone = await addAppointment(laptop.db, visit(patient, 'Gone'));
    await laptop.sync();
    await phone.sync();
    await removeAppointment(laptop.db, gone);
    await laptop.sync();
    await purgeTombstones(server.database().db, new Date(Date.now() + 1000));
    phone.network.online = false;
    await editAppointment(phone.db, keep, { notes: 'queued before the reset' });
    phone.network.online = true;
    await phone.sync();
    expect((await phone.db.appointments.toArray()).map((row) => [row.appointment_title, row.notes])).toEqual([
      ['Keep', 'queued before the reset'],
    ]);
    phone.close();
    laptop.close();
  });
});

describe('sync engine: resets, access changes, server failures', () => {
  it('keeps a queued create on screen through a reset, and drops what the server no longer has', async () => {
    const phone = await makeDevice(server, patient, 'reset1');
    const laptop = await makeDevice(server, patient, 'reset1-laptop');
    const gone = await addAppointment(laptop.db, visit(patient, 'Purged soon'));
    await laptop.sync();
    await phone.sync();
    await removeAppointment(laptop.db, gone);
    await laptop.sync();
    await purgeTombstones(server.database().db, new Date(Date.now() + 1000));
    // The phone never heard of the delete (its tombstone is purged) and has a create queued.
    const queued = await addAppointment(phone.db, visit(patient, 'Queued create'));
    await pull(phone.db, phone.network.transport); // a pull alone: the create is still queued
    expect((await phone.db.appointments.toArray()).map((row) => row.id)).toEqual([queued]);
    await phone.sync();
    expect((await serverRows(patient)).map((row) => row.data.appointment_title)).toEqual(['Queued create']);
    phone.close();
    laptop.close();
  });

  it("removes a patient's records from a caregiver's device when access is withdrawn, and brings them when granted", async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    const carer = await makeDevice(server, caregiver, 'carer-access');
    const phone = await makeDevice(server, patient, 'patient-access');
    await addAppointment(phone.db, visit(patient, 'Cardiology'));
    await phone.sync();
    await carer.sync();
    expect(await carer.db.appointments.count()).toBe(0);
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment']);
    await carer.sync();
    expect((await carer.db.appointments.toArray()).map((row) => row.appointment_title)).toEqual([
      'Cardiology',
    ]);
    await server.database().db.delete(careLinks);
    await carer.sync();
    expect(await carer.db.appointments.count()).toBe(0);
    carer.close();
    phone.close();
  });

  it('refuses, whole, the changes a caregiver queued offline once the permission is withdrawn before they are sent', async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const phone = await makeDevice(server, patient, 'patient-withdrawn');
    const bookedId = await addAppointment(phone.db, visit(patient, 'Physio'));
    await phone.sync();
    const carer = await makeDevice(server, caregiver, 'carer-withdrawn');
    await carer.sync();
    carer.network.online = false;
    await addAppointment(carer.db, {
      ...visit(patient, 'Added offline'),
      caregiver_id: caregiver.caregiverId,
    });
    await editAppointment(carer.db, bookedId, { appointment_title: 'Edited offline', location: 'Room 4' });
    // Meanwhile the patient takes back everything but reading.
    await server
      .database()
      .db.update(careLinks)
      .set({ permissions: ['ReadAppointment'] });
    carer.network.online = true;
    const result = await carer.sync();
    expect(result.push.rejected.map((refusal) => refusal.message)).toEqual([
      'You do not have permission to do this for this patient.',
      'You do not have permission to do this for this patient.',
    ]);
    // Nothing of either change reached the server, not even one field of the edit.
    const rows = await serverRows(patient);
    expect(rows.map((row) => [row.data.appointment_title, row.data.location])).toEqual([['Physio', '']]);
    // The device shows the server's copy again.
    expect((await carer.db.appointments.toArray()).map((row) => row.appointment_title)).toEqual(['Physio']);
    carer.close();
    phone.close();
  });

  it('sends a change refused for a withdrawn permission again once it is given back, and the server holds it once', async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    const all = ['ReadAppointment', 'AddAppointment', 'EditAppointment'];
    await linkCaregiver(server, patient, caregiver, all);
    const phone = await makeDevice(server, patient, 'patient-regranted');
    const bookedId = await addAppointment(phone.db, visit(patient, 'Physio'));
    await phone.sync();
    const carer = await makeDevice(server, caregiver, 'carer-regranted');
    await carer.sync();
    carer.network.online = false;
    const addedId = await addAppointment(carer.db, {
      ...visit(patient, 'Added offline'),
      caregiver_id: caregiver.caregiverId,
    });
    await editAppointment(carer.db, bookedId, { appointment_title: 'Edited offline', location: 'Room 4' });
    await server
      .database()
      .db.update(careLinks)
      .set({ permissions: ['ReadAppointment'] });
    carer.network.online = true;
    expect((await carer.sync()).push.rejected).toHaveLength(2);
    const refused = await carer.db.outbox.toArray();
    expect(refused.map((entry) => [entry.status, entry.refusal])).toEqual([
      ['failed', { status: 403 }],
      ['failed', { status: 403 }],
    ]);

    // The patient gives the permissions back; the caregiver sends both changes again. Every request is
    // delivered twice, and an old refused request arrives late: each change is still applied once.
    await server.database().db.update(careLinks).set({ permissions: all });
    for (const entry of refused) expect(await retryRefused(carer.db, entry.seq ?? -1)).toBe(true);
    carer.network.duplicateRate = 1;
    const sent = await carer.sync();
    expect(sent.push.sent).toBe(2);
    expect(sent.push.rejected).toEqual([]);
    await carer.network.replayOldRequest();
    await carer.sync();
    expect(await carer.db.outbox.count()).toBe(0);
    const rows = await serverRows(patient);
    expect(rows.map((row) => [row.id, row.data.appointment_title, row.data.location]).sort()).toEqual(
      [
        [addedId, 'Added offline', ''],
        [bookedId, 'Edited offline', 'Room 4'],
      ].sort(),
    );
    expect((await carer.db.appointments.toArray()).map((row) => row.appointment_title).sort()).toEqual([
      'Added offline',
      'Edited offline',
    ]);
    carer.close();
    phone.close();
  });

  it("keeps a caregiver's patient list with their permissions on the device, and empties it when the link ends", async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    const carer = await makeDevice(server, caregiver, 'carer-links');
    // The app writes the profile at sign-in; the care lists follow the role it names.
    await carer.db.profile.put(profileOf(caregiver, 'Caregiver'));
    const phone = await makeDevice(server, patient, 'patient-links');
    await phone.db.profile.put(profileOf(patient, 'Patient'));
    await addAppointment(phone.db, visit(patient, 'Neurology'));
    await phone.sync();
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment', 'AddAppointment']);

    await carer.sync();
    const [linked] = await carer.db.associatedPatients.toArray();
    expect(linked?.patient_id).toBe(patient.patientId);
    expect(linked?.permissions.sort()).toEqual(['AddAppointment', 'ReadAppointment']);
    expect(await carer.db.appointments.count()).toBe(1);
    await phone.sync();
    expect((await phone.db.careApproved.toArray()).map((row) => row.caregiver_id)).toEqual([
      caregiver.caregiverId,
    ]);

    // Offline, the lists stay as they were (a caregiver checks them with no signal).
    carer.network.online = false;
    await carer.sync();
    expect(await carer.db.associatedPatients.count()).toBe(1);
    carer.network.online = true;

    await server.database().db.delete(careLinks);
    await carer.sync();
    expect(await carer.db.associatedPatients.count()).toBe(0);
    expect(await carer.db.appointments.count()).toBe(0);
    await phone.sync();
    expect(await phone.db.careApproved.count()).toBe(0);
    carer.close();
    phone.close();
  });

  it('never gives up a change on 503, 429 or a lost connection, and taps on Sync now do not add to the backoff', async () => {
    const phone = await makeDevice(server, patient, 'status1');
    let answer = 503;
    const failing: typeof phone.network.transport = async (request) =>
      request.method === 'POST'
        ? { status: answer, data: { message: 'Busy' } }
        : phone.network.transport(request);
    await addAppointment(phone.db, visit(patient, 'Keep me'));
    for (let tap = 0; tap < 30; tap++) {
      answer = tap % 2 === 0 ? 503 : 429;
      expect((await push(phone.db, failing, { force: true })).stoppedBy).toBe('retry-later');
    }
    phone.network.online = false;
    expect((await push(phone.db, phone.network.transport, { force: true })).stoppedBy).toBe('retry-later');
    let [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'pending', attempts: 0 }); // 31 taps, no backoff built up
    phone.network.online = true;
    await push(phone.db, failing, { now: () => (entry?.nextAttemptAt ?? 0) + 1 }); // an automatic try does count
    [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await phone.db.appointments.toArray()).map((row) => row.appointment_title)).toEqual(['Keep me']);
    expect((await phone.sync()).ok).toBe(true);
    expect((await serverRows(patient)).map((row) => row.data.appointment_title)).toEqual(['Keep me']);
    phone.close();
  });

  it("reports no merge for one device's own queued edits, sent after reconnecting", async () => {
    const phone = await makeDevice(server, patient, 'chain1');
    phone.network.online = false;
    const id = await addAppointment(phone.db, visit(patient, 'First'));
    await editAppointment(phone.db, id, { notes: 'one' });
    await editAppointment(phone.db, id, { appointment_title: 'Second', notes: 'two' });
    const [, ...edits] = await phone.db.outbox.orderBy('seq').toArray();
    expect(edits.map((edit) => edit.baseVersion)).toEqual([undefined, undefined]); // they build on the queue
    phone.network.online = true;
    const result = await phone.sync();
    expect(result.push).toMatchObject({ sent: 3, merged: 0, rejected: [] });
    expect((await serverRows(patient))[0]?.data).toMatchObject({ appointment_title: 'Second', notes: 'two' });
    // Queued on top of a synced record: the first edit builds on the server copy, the next on the first.
    await editAppointment(phone.db, id, { location: 'Room 1' });
    await editAppointment(phone.db, id, { location: 'Room 2' });
    expect((await phone.sync()).push).toMatchObject({ sent: 2, merged: 0 });
    expect((await serverRows(patient))[0]?.data.location).toBe('Room 2');
    phone.close();
  });

  it('reports a merge only where another device really changed the record meanwhile', async () => {
    const phone = await makeDevice(server, patient, 'chain2');
    const laptop = await makeDevice(server, patient, 'chain2-laptop');
    const id = await addAppointment(phone.db, visit(patient, 'Shared'));
    await phone.sync();
    await laptop.sync();
    phone.network.online = false;
    await editAppointment(phone.db, id, { notes: 'phone 1' });
    await editAppointment(phone.db, id, { notes: 'phone 2' });
    await editAppointment(laptop.db, id, { location: 'Laptop room' });
    expect((await laptop.sync()).push).toMatchObject({ sent: 1, merged: 0 });
    phone.network.online = true;
    // Both of the phone's edits meet the laptop's change, which the phone has not seen: both merged.
    expect((await phone.sync()).push).toMatchObject({ sent: 2, merged: 2 });
    // Once the phone has heard of it, its next edits merge with nothing.
    await editAppointment(phone.db, id, { notes: 'phone 3' });
    await editAppointment(phone.db, id, { notes: 'phone 4' });
    expect((await phone.sync()).push).toMatchObject({ sent: 2, merged: 0 });
    expect((await serverRows(patient))[0]?.data).toMatchObject({ notes: 'phone 4', location: 'Laptop room' });
    phone.close();
    laptop.close();
  });

  it('lets the next queued edit build on the server copy when the one before it was refused', async () => {
    const phone = await makeDevice(server, patient, 'chain3');
    const id = await addAppointment(phone.db, visit(patient, 'Refusal'));
    await phone.sync();
    const synced = (await phone.db.appointments.get(id))?.version;
    // A change the server refuses (a status it does not know), queued as any edit is.
    await enqueue(phone.db, { resource: 'appointments', id, op: 'update', payload: { status: 'bogus' } });
    await editAppointment(phone.db, id, { location: 'kept' });
    const result = await phone.sync();
    expect(result.push.rejected).toHaveLength(1);
    expect(result.push).toMatchObject({ sent: 1, merged: 0 });
    const [refused] = await phone.db.outbox.toArray();
    expect(refused).toMatchObject({ status: 'failed', payload: { status: 'bogus' } });
    expect((await serverRows(patient))[0]?.data).toMatchObject({ location: 'kept', status: 'scheduled' });
    expect((await phone.db.appointments.get(id))?.version).toBeGreaterThan(synced ?? 0);
    phone.close();
  });

  it('keeps a change whose answer is missing from the batch, and sends it again', async () => {
    const phone = await makeDevice(server, patient, 'missing1');
    await addAppointment(phone.db, visit(patient, 'Unanswered'));
    const answersOtherKeys: typeof phone.network.transport = async (request) => {
      if (request.url !== '/sync/push') return phone.network.transport(request);
      return {
        status: 200,
        data: {
          results: [{ idempotency_key: 'someone-else', status: 400, body: { message: 'Not yours.' } }],
        },
      };
    };
    expect((await push(phone.db, answersOtherKeys, { force: true })).stoppedBy).toBe('retry-later');
    expect((await phone.db.outbox.toArray())[0]?.status).toBe('pending');
    expect((await phone.sync()).ok).toBe(true);
    expect(await serverRows(patient)).toHaveLength(1);
    phone.close();
  });

  it('merges against the version the person edited, even when a pull moved the server copy before sending', async () => {
    const phone = await makeDevice(server, patient, 'base1');
    const laptop = await makeDevice(server, patient, 'base1-laptop');
    const id = await addAppointment(phone.db, visit(patient));
    await phone.sync();
    await laptop.sync();
    const now = Date.now();
    await editAppointment(phone.db, id, { notes: 'older phone note' }, new Date(now - 10_000)); // offline, earlier
    await editAppointment(laptop.db, id, { notes: 'newer laptop note' }, new Date(now - 1_000));
    await laptop.sync();
    await pull(phone.db, phone.network.transport); // the phone hears of the laptop's version first
    await push(phone.db, phone.network.transport, { force: true });
    expect((await serverRows(patient))[0]?.data.notes).toBe('newer laptop note');
    await phone.sync();
    expect((await phone.db.appointments.get(id))?.notes).toBe('newer laptop note');
    phone.close();
    laptop.close();
  });
});

describe('pulls of any length', () => {
  /** Counts the pull requests a device makes. */
  function counting(device: Device, between: (gets: number) => Promise<void> = async () => {}) {
    const counter = { gets: 0 };
    const transport: Transport = async (request) => {
      if (request.method === 'GET') {
        counter.gets++;
        await between(counter.gets);
      }
      return device.network.transport(request);
    };
    return { counter, transport };
  }

  async function book(device: Device, account: Account, count: number, prefix: string) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push(await addAppointment(device.db, visit(account, `${prefix} ${i}`)));
    expect((await device.sync()).ok).toBe(true);
    return ids;
  }

  const titles = async (device: Device) =>
    (await device.db.appointments.toArray()).map((row) => row.appointment_title).sort();
  const serverTitles = async (account: Account) =>
    (await serverRows(account)).map((row) => String(row.data.appointment_title)).sort();

  it('brings a new device and a long-offline one every record in ceil(N/P) pages, tombstones purged or not', async () => {
    const laptop = await makeDevice(server, patient, 'long-laptop');
    const ids = await book(laptop, patient, 22, 'Visit');
    const oldPhone = await makeDevice(server, patient, 'long-old-phone');
    await oldPhone.sync();
    await removeAppointment(laptop.db, ids[0] ?? '');
    await laptop.sync();
    await purgeTombstones(server.database().db, new Date(Date.now() + 1000));
    const rows = 21;
    for (const device of [await makeDevice(server, patient, 'long-new-phone'), oldPhone]) {
      const { counter, transport } = counting(device);
      const result = await pull(device.db, transport, 2);
      expect(result.requests).toBe(counter.gets);
      expect(counter.gets).toBeLessThanOrEqual(Math.ceil(rows / 2) + 2);
      expect(await titles(device)).toEqual(await serverTitles(patient));
      expect(await titles(device)).toHaveLength(rows);
      device.close();
    }
    laptop.close();
  });

  it("starts over once when a caregiver is given access in the middle of a pull, and ends with both patients' records", async () => {
    const other = await makeAccount(server, 'Patient');
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment']);
    const phone = await makeDevice(server, patient, 'scope-phone');
    const otherPhone = await makeDevice(server, other, 'scope-other');
    await book(phone, patient, 7, 'Mine');
    await book(otherPhone, other, 5, 'Theirs');
    const carer = await makeDevice(server, caregiver, 'scope-carer');
    const { counter, transport } = counting(carer, async (gets) => {
      if (gets === 3) await linkCaregiver(server, other, caregiver, ['ReadAppointment']);
    });
    await pull(carer.db, transport, 2);
    expect(await titles(carer)).toEqual(
      [...(await serverTitles(patient)), ...(await serverTitles(other))].sort(),
    );
    expect(counter.gets).toBeLessThanOrEqual(Math.ceil(12 / 2) + 2 + 2); // 2 pages before the change
    const quiet = counting(carer);
    await pull(carer.db, quiet.transport, 2);
    expect(quiet.counter.gets).toBe(1); // and the next pull does not start over again
    for (const device of [phone, otherPhone, carer]) device.close();
  });

  it('starts over when tombstones it needs are purged in the middle of a pull, keeping queued edits', async () => {
    const laptop = await makeDevice(server, patient, 'mid-laptop');
    const phone = await makeDevice(server, patient, 'mid-phone');
    const ids = await book(laptop, patient, 4, 'Before');
    await phone.sync();
    await book(laptop, patient, 6, 'After');
    await removeAppointment(laptop.db, ids[0] ?? '');
    await laptop.sync();
    await editAppointment(phone.db, ids[1] ?? '', { notes: 'queued on the phone' });
    const { transport } = counting(phone, async (gets) => {
      if (gets === 2) await purgeTombstones(server.database().db, new Date(Date.now() + 1000));
    });
    await pull(phone.db, transport, 2);
    expect(await titles(phone)).toEqual(await serverTitles(patient)); // the deleted one is gone too
    expect((await phone.db.appointments.get(ids[1] ?? ''))?.notes).toBe('queued on the phone');
    expect((await phone.sync()).ok).toBe(true);
    expect((await serverRows(patient)).find((row) => row.id === ids[1])?.data.notes).toBe(
      'queued on the phone',
    );
    phone.close();
    laptop.close();
  });

  it('stops a pull that does not move forward with an error, releasing the lock so changes still go out', async () => {
    const phone = await makeDevice(server, patient, 'stuck');
    const stuck: Transport = async (request) =>
      request.method === 'GET'
        ? { status: 200, data: { changes: [], cursor: 5, more: true, reset: false, scope: 's', token: 't' } }
        : phone.network.transport(request);
    await expect(pull(phone.db, stuck, 2)).rejects.toBeInstanceOf(PullError);
    await addAppointment(phone.db, visit(patient, 'Still sent'));
    const lockName = 'device:stuck-lock';
    const first = await syncOnce(phone.db, stuck, { lockName, force: true });
    expect(first).toMatchObject({ ok: false, problem: 'server', push: { sent: 1 } });
    expect((await syncOnce(phone.db, phone.network.transport, { lockName, force: true })).ok).toBe(true);
    expect((await serverRows(patient)).map((row) => row.data.appointment_title)).toEqual(['Still sent']);
    phone.close();
  });
});

describe('blob store', () => {
  it('files a caregiver’s attachment in the patient’s folder on the server', async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const carer = await makeDevice(server, caregiver, 'carer-file');
    await addAppointment(carer.db, {
      ...visit(patient, 'Scan'),
      caregiver_id: caregiver.caregiverId,
      attachment: { blob: new Blob([Uint8Array.from(TINY_PNG)], { type: 'image/png' }), name: 'scan.png' },
    });
    expect((await carer.sync()).push.rejected).toEqual([]);
    const row = (await serverRows(patient)).find((entry) => entry.data.appointment_title === 'Scan');
    const folder = String(row?.data.attachment_key).split('/')[1];
    expect(folder).toBe((patient.patientId ?? '').replaceAll('-', ''));
    carer.close();
  });

  it('uploads a file chosen offline once, before the change that references it, and keeps it until then', async () => {
    const phone = await makeDevice(server, patient, 'blob1');
    phone.network.online = false;
    const id = await addAppointment(phone.db, {
      ...visit(patient, 'Referral'),
      attachment: {
        blob: new Blob([Uint8Array.from(TINY_PNG)], { type: 'image/png' }),
        name: 'referral.png',
      },
    });
    const local = await phone.db.appointments.get(id);
    expect(local?.attachment_key).toMatch(/^blob:/);
    expect(await phone.db.blobs.count()).toBe(1);
    await phone.sync();
    expect(await phone.db.blobs.count()).toBe(1); // still offline: kept
    phone.network.online = true;
    phone.network.loseAnswerRate = 1; // the upload's and the create's answers are lost once
    await phone.sync();
    phone.network.loseAnswerRate = 0;
    await phone.sync();
    const [row] = await serverRows(patient);
    const key = String(row?.data.attachment_key);
    expect(key).toMatch(/^appointment\/[0-9a-f]{32}\/[0-9a-f]{32}\.png$/);
    expect(await server.app().storage.read(key)).not.toBeNull();
    const stored = await server.database().db.select().from(uploads);
    // uploaded once (the database may hold other tests' files: on Postgres the test files share it)
    expect(
      stored.filter((upload) => upload.ownerUserId === patient.userId).map((upload) => upload.key),
    ).toEqual([key]);
    expect(await phone.db.blobs.count()).toBe(0); // the server has it: gone from the device
    expect((await phone.db.appointments.get(id))?.attachment_key).toBe(key);
    phone.close();
  });

  it('rolls back a change whose file the server refuses, and discards the file with it', async () => {
    const phone = await makeDevice(server, patient, 'blob2');
    await addAppointment(phone.db, {
      ...visit(patient, 'Bad file'),
      attachment: { blob: new Blob(['not an image'], { type: 'image/png' }), name: 'fake.png' },
    });
    const result = await phone.sync();
    expect(result.push.rejected[0]?.message).toBe('Upload a photo (PNG, JPEG, WebP or HEIC) or a PDF.');
    expect(await phone.db.appointments.count()).toBe(0);
    const [failed] = await phone.db.outbox.toArray();
    await discardFailed(phone.db, failed?.seq ?? -1);
    expect(await phone.db.blobs.count()).toBe(0);
    phone.close();
  });
});
