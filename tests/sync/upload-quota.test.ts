import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { addAppointment, editAppointment } from '../../src/local/appointments';
import { records, uploads } from '../../src/server/db/schema';
import { TINY_PNG } from '../fixtures/images';
import { makeAccount, makeDevice, startServer, type Account, type Server, visitFields } from './harness';

// A change whose file the server will not take today (the person's daily upload quota: 429) waits on the
// device, and the changes after it go out meanwhile, except those that build on it (the same record, or a
// change that names it), which wait with it. Tomorrow it goes, and each change reaches the server once.
// With one file a day, the second photo of the day is the one held.

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer({ UPLOAD_DAILY_FILES: '1' });
  patient = await makeAccount(server, 'Patient');
}, 60_000);
afterAll(async () => server.close());

const visit = (title: string, notes = '') => visitFields(patient.patientId ?? '', title, { notes });
const photo = (name: string) => ({
  blob: new Blob([Uint8Array.from(TINY_PNG)], { type: 'image/png' }),
  name,
});

async function titlesOnServer(): Promise<string[]> {
  const rows = await server
    .database()
    .db.select()
    .from(records)
    .where(and(eq(records.patientId, patient.patientId ?? ''), eq(records.resource, 'appointments')));
  return rows
    .filter((row) => row.deletedAt === null)
    .map((row) => String((row.data as { appointment_title?: unknown }).appointment_title))
    .sort();
}

describe('a change over the upload quota', () => {
  it('waits with what builds on it while the rest of the queue goes out, and goes itself once the quota lifts', async () => {
    const phone = await makeDevice(server, patient, 'quota-phone');
    phone.network.online = false;
    await addAppointment(phone.db, { ...visit('First scan'), attachment: photo('first.png') });
    const held = await addAppointment(phone.db, { ...visit('Second scan'), attachment: photo('second.png') });
    await addAppointment(phone.db, visit('Dentist'));
    await editAppointment(phone.db, held, { appointment_title: 'Second scan, renamed' });
    await addAppointment(phone.db, visit('Follow-up', `After the visit ${held}`));
    await addAppointment(phone.db, visit('Eye test'));

    phone.network.online = true;
    const today = await phone.sync();
    expect(today.push.rejected).toEqual([]);
    expect(today.problem).toBe('retrying');
    // The first photo's visit and the two that build on nothing waiting went; nothing was refused.
    expect(await titlesOnServer()).toEqual(['Dentist', 'Eye test', 'First scan']);
    const waiting = await phone.db.outbox.orderBy('seq').toArray();
    expect(waiting.map((entry) => [entry.entityId === held, entry.status])).toEqual([
      [true, 'pending'],
      [true, 'pending'],
      [false, 'pending'],
    ]);
    expect(waiting[0]?.heldForUpload).toBe(true);
    // On the device the held visit shows as the person left it, the file still with it.
    expect((await phone.db.appointments.get(held))?.appointment_title).toBe('Second scan, renamed');
    expect(await phone.db.blobs.count()).toBe(1);

    // Tapping Sync now again the same day changes nothing, and sends nothing twice.
    await phone.sync(true);
    expect(await titlesOnServer()).toEqual(['Dentist', 'Eye test', 'First scan']);

    // A day later the quota has room again.
    await server
      .database()
      .db.update(uploads)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(eq(uploads.ownerUserId, patient.userId));
    const tomorrow = await phone.sync(true);
    expect(tomorrow.ok).toBe(true);
    expect(tomorrow.push.rejected).toEqual([]);
    expect(await titlesOnServer()).toEqual([
      'Dentist',
      'Eye test',
      'First scan',
      'Follow-up',
      'Second scan, renamed',
    ]);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.blobs.count()).toBe(0);
    phone.close();
  });
});
