import { afterEach, describe, expect, it } from 'vitest';
import { DB_PREFIX, KincareDb, type SyncedRow } from '../../../src/local/db';
import { applyServerState, enqueue, shadowKey } from '../../../src/local/outbox';

// applyServerState told that nothing of the record is queued any more (the usual answer to a push) takes
// a shorter way: it must leave the device exactly as the general way does, and never show an older copy
// of the record than the one this device already holds from the server.

const ID = '4b1f6d2e-0c3a-4f5e-9a7b-1c2d3e4f5a6b';
const row = (title: string, version: number) =>
  ({ id: ID, patient_id: 'p-1', appointment_title: title, version }) as unknown as SyncedRow;

const opened: KincareDb[] = [];
async function replica(shadow: { version: number; data: SyncedRow | null } | null): Promise<KincareDb> {
  const db = new KincareDb(`${DB_PREFIX}server-state-${crypto.randomUUID()}`);
  await db.open();
  opened.push(db);
  if (shadow) {
    await db.serverRows.put({
      key: shadowKey('appointments', ID),
      resource: 'appointments',
      id: ID,
      ...shadow,
    });
    if (shadow.data) await db.appointments.put(shadow.data as never);
  }
  return db;
}

async function stateOf(db: KincareDb) {
  return {
    view: (await db.appointments.get(ID)) ?? null,
    shadow: (await db.serverRows.get(shadowKey('appointments', ID))) ?? null,
  };
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('the server state of a record with nothing queued', () => {
  const cases = [
    {
      name: 'an answer with no copy kept before',
      shadow: null,
      answer: { version: 3, data: row('Answered', 3) },
    },
    {
      name: 'an answer newer than the copy kept',
      shadow: { version: 2, data: row('Kept', 2) },
      answer: { version: 3, data: row('Answered', 3) },
    },
    {
      name: 'an answer older than the copy kept (a newer one arrived meanwhile)',
      shadow: { version: 5, data: row('Newer', 5) },
      answer: { version: 3, data: row('Answered', 3) },
    },
    { name: 'a delete', shadow: { version: 2, data: row('Kept', 2) }, answer: { version: 4, data: null } },
  ];

  for (const { name, shadow, answer } of cases)
    it(`leaves the device as the general way does: ${name}`, async () => {
      const short = await replica(shadow);
      const general = await replica(shadow);
      await applyServerState(short, 'appointments', ID, answer, true);
      await applyServerState(general, 'appointments', ID, answer);
      expect(await stateOf(short)).toEqual(await stateOf(general));
    });

  it('keeps showing the newer copy when the answer is older, and keeps no copy for rebasing', async () => {
    const db = await replica({ version: 5, data: row('Newer', 5) });
    await applyServerState(db, 'appointments', ID, { version: 3, data: row('Answered', 3) }, true);
    expect(await stateOf(db)).toEqual({ view: row('Newer', 5), shadow: null });
  });
});

describe('edits queued offline, then a pull', () => {
  it('keeps every queued edit on top of the server’s newer copy, not only the last one', async () => {
    const db = await replica({ version: 2, data: row('Check-up', 2) });
    // Offline, two edits of the same record, to different fields.
    await enqueue(db, {
      resource: 'appointments',
      id: ID,
      op: 'update',
      payload: { notes: 'Bring the scans' },
    });
    await enqueue(db, { resource: 'appointments', id: ID, op: 'update', payload: { location: 'Room 4' } });
    // A pull brings the server's copy, changed meanwhile by another device.
    await db.transaction('rw', [db.appointments, db.serverRows, db.outbox], () =>
      applyServerState(db, 'appointments', ID, { version: 3, data: row('Cardiology check-up', 3) }),
    );
    expect(await db.appointments.get(ID)).toMatchObject({
      appointment_title: 'Cardiology check-up',
      notes: 'Bring the scans',
      location: 'Room 4',
    });
    expect(await db.outbox.count()).toBe(2);
  });
});
