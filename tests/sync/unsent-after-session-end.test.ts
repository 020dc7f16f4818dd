import 'fake-indexeddb/auto'; // first: the replica module (Dexie) finds this IndexedDB when it loads
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAppointment, editAppointment } from '../../src/local/appointments';
import { DB_PREFIX, forgetUserData, KincareDb } from '../../src/local/db';
import { syncOnce } from '../../src/local/sync-engine';
import { createTransport, ownersToken } from '../../src/local/sync-transport';
import { records } from '../../src/server/db/schema';
import { makeAccount, makeDevice, startServer, type Account, type Server, visitFields } from './harness';

// A person's changes made offline outlive their session on the device, against the real server: the
// session ends (401) with two changes queued, the device forgets everything else of theirs, another
// person signs in and a sync of the first person's queue sends nothing under that session; the first
// person signs in again and both changes go out, the edit merged with what another device changed
// meanwhile, and their records come back with the pull.

let server: Server;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());

async function appointmentsOf(account: Account) {
  const rows = await server.database().db.select().from(records);
  return rows
    .filter((row) => row.patientId === account.patientId && !row.deletedAt)
    .map((row) => row.data as Record<string, unknown>)
    .sort((a, b) => String(a.appointment_title).localeCompare(String(b.appointment_title)));
}

const visit = (account: Account, title: string) => visitFields(account.patientId ?? '', title);

describe("a person's unsent changes after their session ended", () => {
  it('are sent under no one else’s session, and go out, merged, when the same person signs in again', async () => {
    const alice = await makeAccount(server, 'Patient');
    const bob = await makeAccount(server, 'Patient');
    /** Who is signed in on this device, as the session store would say. */
    let signedIn: { userId: string; token: string } | null = { userId: alice.userId, token: alice.token };
    const name = `${DB_PREFIX}${alice.userId}`;
    const transport = createTransport({
      baseURL: server.baseURL,
      getToken: () => ownersToken(alice.userId, signedIn),
    });
    const sync = (db: KincareDb) =>
      syncOnce(db, transport, { lockName: `phone:${alice.userId}`, force: true });

    let phone = new KincareDb(name);
    await phone.open();
    const dentist = await addAppointment(phone, visit(alice, 'Dentist'));
    expect((await sync(phone)).ok).toBe(true);

    // Offline on the phone: an edit and a new appointment. Meanwhile the laptop edits another field.
    await editAppointment(phone, dentist, { location: 'Main St' });
    await addAppointment(phone, visit(alice, 'Eye exam'));
    const laptop = await makeDevice(server, alice, 'laptop');
    expect((await laptop.sync()).ok).toBe(true);
    await editAppointment(laptop.db, dentist, { notes: 'Bring the x-rays' });
    expect((await laptop.sync()).ok).toBe(true);
    laptop.close();

    // The phone's session ends (its token is refused): only the queue stays.
    signedIn = { userId: alice.userId, token: 'ended.session.token' };
    expect((await sync(phone)).problem).toBe('signed-out');
    phone.close();
    expect(await forgetUserData(alice.userId)).toBe(2);
    phone = new KincareDb(name);
    await phone.open();
    expect(await phone.appointments.count()).toBe(0);
    expect(await phone.outbox.count()).toBe(2);

    // Bob signs in on the phone; a sync of Alice's queue still under way sends nothing under his session.
    signedIn = { userId: bob.userId, token: bob.token };
    expect((await sync(phone)).problem).toBe('signed-out');
    expect(await appointmentsOf(bob)).toEqual([]);
    expect((await appointmentsOf(alice)).map((row) => [row.appointment_title, row.location])).toEqual([
      ['Dentist', ''],
    ]);
    expect(await phone.outbox.count()).toBe(2);

    // Alice signs in again: both changes go out, the edit merged with the laptop's, and the records return.
    signedIn = { userId: alice.userId, token: alice.token };
    expect((await sync(phone)).ok).toBe(true);
    expect(
      (await appointmentsOf(alice)).map((row) => [row.appointment_title, row.location, row.notes]),
    ).toEqual([
      ['Dentist', 'Main St', 'Bring the x-rays'],
      ['Eye exam', '', ''],
    ]);
    expect(await phone.outbox.count()).toBe(0);
    expect(await phone.serverRows.count()).toBe(0);
    expect(
      (await phone.appointments.toArray())
        .map((row) => [row.appointment_title, row.location, row.notes])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['Dentist', 'Main St', 'Bring the x-rays'],
      ['Eye exam', '', ''],
    ]);
    phone.close();
  });
});
