import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { DB_PREFIX, closeUserDb, deleteUserDbs, openUserDb } from '../../../src/local/db';

// Schema version 8 of the replica dropped the appointments' appointment_date index (never queried by:
// screens sort a patient's appointments in memory). A device that updates the app opens its replica of
// version 7 at version 8: every appointment, and everything else kept, must come through unchanged.

afterEach(async () => {
  closeUserDb();
  await deleteUserDbs();
});

describe('the replica across schema versions', () => {
  it('opens a version 7 replica at version 8 with every appointment, queued change and sync state kept', async () => {
    const userId = 'user-upgrade';
    // The replica as version 7 left it: appointments indexed by patient and by date.
    const earlier = new Dexie(`${DB_PREFIX}${userId}`);
    earlier.version(7).stores({
      appointments: 'id, patient_id, appointment_date',
      outbox: '++seq, status, [resource+entityId]',
      syncState: 'key',
    });
    await earlier.table('appointments').bulkPut([
      {
        id: 'a-2',
        patient_id: 'p-1',
        appointment_title: 'Dermatology',
        appointment_date: '2027-02-01T09:00:00.000Z',
      },
      {
        id: 'a-1',
        patient_id: 'p-1',
        appointment_title: 'Cardiology',
        appointment_date: '2027-01-05T10:00:00.000Z',
      },
      {
        id: 'a-3',
        patient_id: 'p-2',
        appointment_title: 'Another patient',
        appointment_date: '2027-01-01T08:00:00.000Z',
      },
    ]);
    await earlier
      .table('outbox')
      .add({ resource: 'appointments', entityId: 'a-1', status: 'pending', op: 'update' });
    await earlier.table('syncState').put({ key: 'cursor', value: 42 });
    earlier.close();

    const db = await openUserDb(userId);
    expect(db.verno).toBe(8);
    expect(db.appointments.schema.indexes.map((index) => index.name)).toEqual(['patient_id']);
    const ofPatient = await db.appointments.where('patient_id').equals('p-1').sortBy('appointment_date');
    expect(ofPatient.map((row) => row.appointment_title)).toEqual(['Cardiology', 'Dermatology']);
    expect(await db.appointments.count()).toBe(3);
    expect(await db.outbox.where('status').equals('pending').count()).toBe(1);
    expect((await db.syncState.get('cursor'))?.value).toBe(42);
  });
});
