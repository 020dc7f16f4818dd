import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { SYNCED_RESOURCES } from '../../../src/domain/resources/list';
import { DB_PREFIX, closeUserDb, deleteUserDbs, openUserDb } from '../../../src/local/db';

// Schema version 8 of the replica dropped the appointments' appointment_date index (never queried by:
// screens sort a patient's appointments in memory). A device that updates the app opens its replica of
// version 7 at version 8: every appointment, and everything else kept, must come through unchanged.
// The schema is declared at its current version only (src/local/db.ts): a replica of any earlier version
// gets the tables added since, with what it held kept.

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

  it('opens a version 1 replica at version 8 with every table added since, its rows kept', async () => {
    const userId = 'user-first-version';
    const earlier = new Dexie(`${DB_PREFIX}${userId}`);
    earlier.version(1).stores({
      profile: 'id',
      associatedPatients: 'patient_id',
      appointments: 'id, patient_id, appointment_date',
      doctors: 'id, patient_id',
      serverRows: 'key',
      outbox: '++seq, status, [resource+entityId]',
      blobs: 'id',
      syncState: 'key',
    });
    await earlier.table('doctors').put({ id: 'd-1', patient_id: 'p-1', name: 'Dr. Ada Lovelace' });
    await earlier.table('syncState').put({ key: 'cursor', value: 7 });
    earlier.close();

    const db = await openUserDb(userId);
    expect(db.verno).toBe(8);
    expect((await db.doctors.get('d-1'))?.name).toBe('Dr. Ada Lovelace');
    expect((await db.syncState.get('cursor'))?.value).toBe(7);
    // Tables of later versions are there, with their indexes, and take rows.
    await db.table('check_ins').put({ id: 'c-1', patient_id: 'p-1', day: '2026-11-24' });
    expect(await db.check_ins.where('[patient_id+day]').equals(['p-1', '2026-11-24']).count()).toBe(1);
    await db.table('dose_marks').put({ id: 'm-1', patient_id: 'p-1', date: '2026-11-24' });
    expect(await db.dose_marks.where('[patient_id+date]').equals(['p-1', '2026-11-24']).count()).toBe(1);
    expect(await db.careActivity.orderBy('at').count()).toBe(0);
    // Every declared resource's table (src/domain/resources) and the device's own tables.
    expect(db.tables.map((table) => table.name).sort()).toEqual(
      [
        ...SYNCED_RESOURCES,
        'associatedPatients',
        'billing',
        'blobs',
        'careActivity',
        'careApproved',
        'careReceived',
        'careSent',
        'labExtractions',
        'outbox',
        'permissionRequests',
        'profile',
        'serverRows',
        'shareLinks',
        'syncState',
      ].sort(),
    );
  });

  it("adds a new resource's table to a replica of the same version, every row of the others kept", async () => {
    const userId = 'user-new-resource';
    // The replica as the app before a resource was declared left it: version 8 without that table.
    const current = await openUserDb('probe-current');
    const stores = Object.fromEntries(
      current.tables.map((table) => [
        table.name,
        [table.schema.primKey.src, ...table.schema.indexes.map((index) => index.src)].join(', '),
      ]),
    );
    closeUserDb();
    const { vitals: _left, ...before } = stores;
    const earlier = new Dexie(`${DB_PREFIX}${userId}`);
    earlier.version(8).stores(before);
    await earlier.table('appointments').put({ id: 'a-1', patient_id: 'p-1', appointment_title: 'Kept' });
    await earlier
      .table('outbox')
      .add({ resource: 'appointments', entityId: 'a-1', status: 'pending', op: 'update' });
    earlier.close();

    const db = await openUserDb(userId);
    expect(db.tables.map((table) => table.name)).toContain('vitals');
    await db.vitals.put({ id: 'v-1', patient_id: 'p-1', kind: 'pulse' } as never);
    expect(await db.vitals.where('[patient_id+kind]').equals(['p-1', 'pulse']).count()).toBe(1);
    expect((await db.appointments.get('a-1'))?.appointment_title).toBe('Kept');
    expect(await db.outbox.count()).toBe(1);
  });
});
