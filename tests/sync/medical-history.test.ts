import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { assembleHistory, medicalHistoryId, type HistoryEntry } from '../../src/domain/medical-history';
import { historyOf, removeHistoryEntry, saveHistoryEntry } from '../../src/local/medical-history';
import { records } from '../../src/server/db/schema';
import { makeAccount, makeDevice, startServer, type Account, type Device, type Server } from './harness';

// The medical history changed on two devices without a signal, synced through the real engine against the
// real server. Every entry is a field of its own, so concurrent changes of different entries all stay
// (none is lost to the other device's whole list), and of two edits of one entry the later one wins,
// whichever device syncs first. The server and both devices end with the same lists.

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

const allergy = (substance: string): HistoryEntry<'allergies'> => ({
  id: crypto.randomUUID(),
  substance,
  reaction: '',
  severity: 'moderate',
});
const ago = (ms: number) => new Date(Date.now() - ms);

async function serverAllergies(): Promise<HistoryEntry<'allergies'>[]> {
  const id = await medicalHistoryId(patient.patientId ?? '');
  const [row] = await server.database().db.select().from(records).where(eq(records.id, id));
  return assembleHistory(row?.data ?? {}).allergies;
}
const substances = (entries: { substance: string }[]) => entries.map((entry) => entry.substance).sort();
const deviceAllergies = async (device: Device) =>
  (await historyOf(device.db, patient.patientId ?? '')).allergies;

/** Two devices of the patient; with `synced`, both first hold the record as the server has it. */
async function twoDevices(synced: boolean, seed?: HistoryEntry<'allergies'>[]) {
  const phone = await makeDevice(server, patient, `phone-${crypto.randomUUID()}`);
  const tablet = await makeDevice(server, patient, `tablet-${crypto.randomUUID()}`);
  if (synced) {
    for (const entry of seed ?? [allergy('Dust')])
      await saveHistoryEntry(phone.db, patient.patientId ?? '', 'allergies', entry, ago(60_000));
    expect((await phone.sync()).ok).toBe(true);
    expect((await tablet.sync()).ok).toBe(true);
  }
  phone.network.online = false;
  tablet.network.online = false;
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

describe('two devices offline', () => {
  it.each([
    [false, 'the phone first'],
    [false, 'the tablet first'],
    [true, 'the phone first'],
    [true, 'the tablet first'],
  ] as const)(
    'each add a different allergy (record synced before: %s), sync with %s: both kept everywhere',
    async (synced, order) => {
      const { phone, tablet } = await twoDevices(synced);
      const patientId = patient.patientId ?? '';
      await saveHistoryEntry(phone.db, patientId, 'allergies', allergy('Peanuts'), ago(2000));
      await saveHistoryEntry(tablet.db, patientId, 'allergies', allergy('Latex'), ago(1000));
      await (order === 'the phone first' ? syncInOrder(phone, tablet) : syncInOrder(tablet, phone));

      const expected = synced ? ['Dust', 'Latex', 'Peanuts'] : ['Latex', 'Peanuts'];
      expect(substances(await serverAllergies())).toEqual(expected);
      expect(substances(await deviceAllergies(phone))).toEqual(expected);
      expect(substances(await deviceAllergies(tablet))).toEqual(expected);
      // The same order on every side (by when each was added).
      expect((await deviceAllergies(phone)).map((entry) => entry.id)).toEqual(
        (await serverAllergies()).map((entry) => entry.id),
      );
      phone.close();
      tablet.close();
    },
  );

  it('one removes an allergy while the other edits another: both changes hold', async () => {
    const [dust, latex] = [allergy('Dust'), allergy('Latex')];
    const { phone, tablet } = await twoDevices(true, [dust, latex]);
    const patientId = patient.patientId ?? '';
    await removeHistoryEntry(phone.db, patientId, 'allergies', dust.id, ago(2000));
    await saveHistoryEntry(tablet.db, patientId, 'allergies', { ...latex, severity: 'severe' }, ago(1000));
    await syncInOrder(tablet, phone);

    for (const allergies of [
      await serverAllergies(),
      await deviceAllergies(phone),
      await deviceAllergies(tablet),
    ])
      expect(allergies.map((entry) => [entry.substance, entry.severity])).toEqual([['Latex', 'severe']]);
    phone.close();
    tablet.close();
  });

  it.each(['the later edit first', 'the later edit last'])(
    'both edit the same allergy, syncing %s: the later edit wins everywhere',
    async (order) => {
      const latex = allergy('Latex');
      const { phone, tablet } = await twoDevices(true, [latex]);
      const patientId = patient.patientId ?? '';
      await saveHistoryEntry(phone.db, patientId, 'allergies', { ...latex, severity: 'mild' }, ago(3000));
      await saveHistoryEntry(tablet.db, patientId, 'allergies', { ...latex, severity: 'severe' }, ago(1000));
      await (order === 'the later edit first' ? syncInOrder(tablet, phone) : syncInOrder(phone, tablet));

      for (const allergies of [
        await serverAllergies(),
        await deviceAllergies(phone),
        await deviceAllergies(tablet),
      ])
        expect(allergies.map((entry) => entry.severity)).toEqual(['severe']);
      phone.close();
      tablet.close();
    },
  );
});
