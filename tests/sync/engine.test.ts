import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addAppointment, editAppointment, removeAppointment } from '../../src/local/appointments';
import { discardFailed } from '../../src/local/outbox';
import { pull } from '../../src/local/sync-pull';
import { push, backoffMs, MAX_SERVER_FAILURES } from '../../src/local/sync-push';
import { purgeTombstones } from '../../src/server/services/records';
import { careLinks, records, uploads } from '../../src/server/db/schema';
import { TINY_PNG } from '../fixtures/images';
import { linkCaregiver, makeAccount, makeDevice, startServer, type Account, type Server } from './harness';

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

const visit = (account: Account, title = 'Dentist') => ({
  patient_id: account.patientId ?? '',
  caregiver_id: null,
  appointment_title: title,
  appointment_date: '2026-12-03T09:00:00.000Z',
  doctor_id: null,
  location: '',
  notes: '',
  status: 'scheduled' as const,
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
    const head = await phone.db.outbox.orderBy('seq').first();
    expect(head?.attempts).toBe(1);
    expect(head?.nextAttemptAt).toBeGreaterThan(Date.now());
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

  it('keeps a change on 503 and 429, and gives it up as failed after the server failed it 8 times', async () => {
    const phone = await makeDevice(server, patient, 'status1');
    let answer = 503;
    const failing: typeof phone.network.transport = async (request) =>
      request.method === 'POST'
        ? { status: answer, data: { message: 'Busy' } }
        : phone.network.transport(request);
    await addAppointment(phone.db, visit(patient, 'Keep me'));
    expect((await push(phone.db, failing, { force: true })).stoppedBy).toBe('retry-later');
    answer = 429;
    expect((await push(phone.db, failing, { force: true })).stoppedBy).toBe('retry-later');
    const [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'pending', serverFailures: 2 });
    for (let attempt = 3; attempt < MAX_SERVER_FAILURES; attempt++)
      await push(phone.db, failing, { force: true });
    const last = await push(phone.db, failing, { force: true });
    expect(last.rejected[0]?.message).toBe('The server could not save this change after 8 tries: Busy');
    expect(await phone.db.appointments.count()).toBe(0);
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

describe('blob store', () => {
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
    expect(key).toMatch(/^appointment\/[0-9a-f]{32}\.png$/);
    expect(await server.app().storage.read(key)).not.toBeNull();
    const stored = await server.database().db.select().from(uploads);
    expect(stored.map((upload) => upload.key)).toEqual([key]); // uploaded once
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
    expect(result.push.rejected[0]?.message).toBe('Upload a photo (PNG, JPEG or WebP) or a PDF.');
    expect(await phone.db.appointments.count()).toBe(0);
    const [failed] = await phone.db.outbox.toArray();
    await discardFailed(phone.db, failed?.seq ?? -1);
    expect(await phone.db.blobs.count()).toBe(0);
    phone.close();
  });
});
