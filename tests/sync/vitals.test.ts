import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addRecord, editRecord, RecordInputError } from '../../src/local/record-writes';
import { records } from '../../src/server/db/schema';
import {
  linkCaregiver,
  makeAccount,
  makeDevice,
  startServer,
  type Account,
  type Device,
  type Server,
} from './harness';

// Vital readings through the real sync engine and the real server, on the generic write path of a resource
// served from its declaration (src/local/record-writes.ts): a reading taken without a signal on one device
// reaches another, as entered (its unit, its clock's offset); a caregiver's reading is the patient's with
// the caregiver's name on it; and two devices editing one reading offline merge per field, the later edit
// of a field winning whichever device syncs first.

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

const hourAgo = () => new Date(Date.now() - 3600_000).toISOString().replace('Z', '+00:00');
const pressure = (systolic: number, diastolic: number, note: string | null = null) => ({
  kind: 'blood_pressure',
  unit: 'mmHg',
  systolic,
  diastolic,
  measured_at: hourAgo(),
  note,
});
const ago = (ms: number) => new Date(Date.now() - ms);

async function serverReading(id: string) {
  const [row] = await server.database().db.select().from(records).where(eq(records.id, id));
  return row;
}

async function devices() {
  const phone = await makeDevice(server, patient, `phone-${crypto.randomUUID()}`);
  const tablet = await makeDevice(server, patient, `tablet-${crypto.randomUUID()}`);
  return { phone, tablet };
}

/** Both back online: each syncs in this order, then the first again (to pull what the second sent). */
async function syncInOrder(first: Device, second: Device) {
  first.network.online = true;
  second.network.online = true;
  for (const device of [first, second, first]) {
    const result = await device.sync();
    expect(result.ok, device.name).toBe(true);
    expect(result.push.rejected).toEqual([]);
  }
}

describe('a reading taken offline', () => {
  it('waits on the device, then reaches the server and the patient’s other device as entered', async () => {
    const { phone, tablet } = await devices();
    phone.network.online = false;
    const glucose = {
      kind: 'blood_glucose',
      unit: 'mmol/L',
      value: 5.6,
      fasting: true,
      measured_at: '2026-11-20T08:15:00.000-05:00',
      note: 'Before breakfast',
    };
    const id = await addRecord(phone.db, 'vitals', {
      patientId: patient.patientId ?? '',
      caregiverId: null,
      fields: glucose,
    });
    expect((await phone.sync()).problem).toBe('offline');
    expect(await phone.db.outbox.count()).toBe(1);
    expect(await phone.db.vitals.get(id)).toMatchObject({ ...glucose, version: 0 });
    expect(await serverReading(id)).toBeUndefined();

    phone.network.online = true;
    expect((await phone.sync()).ok).toBe(true);
    expect(await phone.db.outbox.count()).toBe(0);
    expect((await serverReading(id))?.data).toMatchObject(glucose);

    expect((await tablet.sync()).ok).toBe(true);
    const arrived = await tablet.db.vitals.get(id);
    expect(arrived).toMatchObject({ ...glucose, patient_id: patient.patientId, caregiver_id: null });
    expect(arrived?.version).toBe((await serverReading(id))?.version);
    phone.close();
    tablet.close();
  });

  it('is refused on the device when it is not a plausible reading, and nothing is queued', async () => {
    const { phone, tablet } = await devices();
    await expect(
      addRecord(phone.db, 'vitals', {
        patientId: patient.patientId ?? '',
        caregiverId: null,
        fields: pressure(120, 130),
      }),
    ).rejects.toThrow(RecordInputError);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.vitals.count()).toBe(0);
    phone.close();
    tablet.close();
  });

  it('entered by a caregiver with Add Vitals reaches the patient with the caregiver named on it', async () => {
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadVitals', 'AddVitals']);
    const theirs = await makeDevice(server, caregiver, `caregiver-${crypto.randomUUID()}`);
    const patientPhone = await makeDevice(server, patient, `phone-${crypto.randomUUID()}`);
    theirs.network.online = false;
    const id = await addRecord(theirs.db, 'vitals', {
      patientId: patient.patientId ?? '',
      caregiverId: caregiver.caregiverId,
      fields: pressure(141, 91, 'Taken at the clinic'),
    });
    theirs.network.online = true;
    expect((await theirs.sync()).ok).toBe(true);
    expect((await patientPhone.sync()).ok).toBe(true);
    expect(await patientPhone.db.vitals.get(id)).toMatchObject({
      systolic: 141,
      diastolic: 91,
      note: 'Taken at the clinic',
      caregiver_id: caregiver.caregiverId,
    });
    theirs.close();
    patientPhone.close();
  });
});

describe('two devices editing one reading offline', () => {
  async function synced() {
    const { phone, tablet } = await devices();
    const id = await addRecord(
      phone.db,
      'vitals',
      { patientId: patient.patientId ?? '', caregiverId: null, fields: pressure(128, 82, 'Morning') },
      ago(60_000),
    );
    expect((await phone.sync()).ok).toBe(true);
    expect((await tablet.sync()).ok).toBe(true);
    phone.network.online = false;
    tablet.network.online = false;
    return { phone, tablet, id };
  }

  it.each(['the phone first', 'the tablet first'] as const)(
    'keep both edits of different fields, syncing %s',
    async (order) => {
      const { phone, tablet, id } = await synced();
      await editRecord(phone.db, 'vitals', id, { note: 'Morning, left arm' }, ago(2000));
      await editRecord(tablet.db, 'vitals', id, { systolic: 132 }, ago(1000));
      await (order === 'the phone first' ? syncInOrder(phone, tablet) : syncInOrder(tablet, phone));
      const expected = { systolic: 132, diastolic: 82, note: 'Morning, left arm' };
      expect((await serverReading(id))?.data).toMatchObject(expected);
      expect(await phone.db.vitals.get(id)).toMatchObject(expected);
      expect(await tablet.db.vitals.get(id)).toMatchObject(expected);
      phone.close();
      tablet.close();
    },
  );

  it.each(['the later edit first', 'the later edit last'] as const)(
    'of the same field: the later edit wins everywhere, syncing %s',
    async (order) => {
      const { phone, tablet, id } = await synced();
      await editRecord(phone.db, 'vitals', id, { note: 'Earlier words' }, ago(3000));
      await editRecord(tablet.db, 'vitals', id, { note: 'Later words' }, ago(1000));
      await (order === 'the later edit first' ? syncInOrder(tablet, phone) : syncInOrder(phone, tablet));
      for (const note of [
        ((await serverReading(id))?.data as { note?: string } | undefined)?.note,
        (await phone.db.vitals.get(id))?.note,
        (await tablet.db.vitals.get(id))?.note,
      ])
        expect(note).toBe('Later words');
      phone.close();
      tablet.close();
    },
  );
});
