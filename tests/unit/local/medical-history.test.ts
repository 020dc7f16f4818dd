import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEDICAL_HISTORY_MESSAGES as M, medicalHistoryId } from '../../../src/domain/medical-history';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import {
  historyOf,
  removeHistoryEntry,
  saveHistoryEntry,
  saveLifestyle,
} from '../../../src/local/medical-history';
import { pushChangeFor } from '../../../src/local/sync-resources';

// The medical history on the device (issue 14 point 2): every save lands in the table and the outbox in one
// transaction; without a server copy a save is a create of the record made from the patient's id carrying
// only the fields this device wrote (so it never blanks another device's fields), and with one it is an
// update of the changed field on the version the person saw.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
const USER = '7d1f1c1e-0000-4000-8000-0000000000cc';
let db: KincareDb;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}${USER}-history`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const asthma = {
  id: crypto.randomUUID(),
  name: 'Asthma',
  onset: '2010',
  status: 'managed' as const,
  notes: '',
};
const penicillin = {
  id: crypto.randomUUID(),
  substance: 'Penicillin',
  reaction: 'Hives',
  severity: 'severe' as const,
};

describe('saving without a server copy', () => {
  it('queues creates of the patient’s one record, each with the fields this device wrote', async () => {
    const id = await medicalHistoryId(PATIENT);
    expect((await historyOf(db, PATIENT)).allergies).toEqual([]);
    await saveHistoryEntry(db, PATIENT, 'conditions', asthma);
    await saveHistoryEntry(db, PATIENT, 'allergies', penicillin);

    const row = await db.medical_history.get(id);
    expect(row).toMatchObject({
      id,
      patient_id: PATIENT,
      version: 0,
      conditions: [asthma],
      allergies: [penicillin],
    });
    // Fields never written stay absent: sent as empty, they would blank another device's edits of them.
    expect(row).not.toHaveProperty('surgeries');
    expect(row).not.toHaveProperty('lifestyle');

    const entries = await db.outbox.toArray();
    expect(entries.map((entry) => [entry.op, entry.entityId, entry.label])).toEqual([
      ['create', id, 'Medical history: conditions'],
      ['create', id, 'Medical history: allergies'],
    ]);
    const second = pushChangeFor(entries[1]!);
    expect(second.payload).toMatchObject({
      patient_id: PATIENT,
      conditions: [asthma],
      allergies: [penicillin],
    });
    expect(second.payload).not.toHaveProperty('surgeries');
    expect(second.base_version).toBeUndefined();
  });

  it('refuses an entry the domain refuses, with its message, and queues nothing', async () => {
    await expect(
      saveHistoryEntry(db, PATIENT, 'allergies', { ...penicillin, substance: ' ' }),
    ).rejects.toThrow(M.substanceRequired);
    await expect(
      saveHistoryEntry(db, PATIENT, 'conditions', { ...asthma, onset: '2020-02-30' }),
    ).rejects.toThrow(M.dateInvalid);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.medical_history.count()).toBe(0);
  });
});

describe('saving with a server copy', () => {
  it('queues an update of the changed field only, on the version seen', async () => {
    const id = await medicalHistoryId(PATIENT);
    // As the server answered (or a pull brought it): every field, version 7.
    await db.medical_history.put({
      id,
      patient_id: PATIENT,
      version: 7,
      conditions: [asthma],
      allergies: [penicillin],
      surgeries: [],
      family_history: [],
      immunizations: [],
      lifestyle: { smoking: 'never', alcohol: 'none', exercise: 'light', notes: '' },
    });
    const edited = { ...penicillin, severity: 'life_threatening' as const };
    await saveHistoryEntry(db, PATIENT, 'allergies', edited);
    await saveLifestyle(db, PATIENT, { smoking: 'never', alcohol: 'none', exercise: 'light', notes: '' });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1); // the unchanged lifestyle queued nothing
    const pushed = pushChangeFor(entries[0]!);
    expect(pushed).toMatchObject({ op: 'update', id, base_version: 7 });
    expect(Object.keys(pushed.payload ?? {}).sort()).toEqual([
      'allergies',
      'changed_at',
      'label',
      'updated_at',
    ]);
    expect(pushed.payload?.allergies).toEqual([edited]);
    expect((await historyOf(db, PATIENT)).allergies).toEqual([edited]);

    await removeHistoryEntry(db, PATIENT, 'conditions', asthma.id);
    await removeHistoryEntry(db, PATIENT, 'conditions', asthma.id); // gone already: nothing more
    const history = await historyOf(db, PATIENT);
    expect(history.conditions).toEqual([]);
    expect(history.allergies).toEqual([edited]);
    expect(await db.outbox.count()).toBe(2);
  });
});
