import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEDICAL_HISTORY_MESSAGES as M, medicalHistoryId } from '../../../src/domain/medical-history';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import {
  historyOf,
  removeHistoryEntry,
  saveHistoryEntry,
  saveLifestyle,
  saveMoodScreeningSharing,
} from '../../../src/local/medical-history';
import { moodScreeningShared } from '../../../src/local/check-in';
import { pushChangeFor } from '../../../src/local/sync-resources';

// The medical history on the device: every save lands in the table and the outbox in one
// transaction; each entry is a field of its own (`<list>:<id>`, null once removed). Without a server copy a
// save is a create of the record made from the patient's id carrying only the fields this device wrote (so
// it never blanks another device's), and with one it is an update of the one entry changed, on the version
// the person saw.

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
    const now = new Date('2026-01-02T03:04:05.000Z');
    await saveHistoryEntry(db, PATIENT, 'conditions', asthma, now);
    await saveHistoryEntry(db, PATIENT, 'allergies', penicillin, now);

    const row = await db.medical_history.get(id);
    const added = { added_at: now.toISOString() };
    expect(row).toMatchObject({
      id,
      patient_id: PATIENT,
      version: 0,
      [`conditions:${asthma.id}`]: { ...asthma, ...added },
      [`allergies:${penicillin.id}`]: { ...penicillin, ...added },
    });
    // Whole lists and fields never written stay absent: sent, they would undo another device's edits.
    expect(
      Object.keys(row ?? {})
        .filter((field) => !field.includes(':'))
        .sort(),
    ).toEqual(['created_at', 'id', 'label', 'patient_id', 'updated_at', 'version']);
    expect((await historyOf(db, PATIENT)).allergies).toEqual([{ ...penicillin, ...added }]);

    const entries = await db.outbox.toArray();
    expect(entries.map((entry) => [entry.op, entry.entityId, entry.label])).toEqual([
      ['create', id, 'Conditions: Asthma'],
      ['create', id, 'Allergies: Penicillin'],
    ]);
    const second = pushChangeFor(entries[1]!);
    expect(second.payload).toMatchObject({
      patient_id: PATIENT,
      [`conditions:${asthma.id}`]: { ...asthma, ...added },
      [`allergies:${penicillin.id}`]: { ...penicillin, ...added },
    });
    expect(second.payload).not.toHaveProperty('allergies');
    expect(second.base_version).toBeUndefined();
  });

  it('carries a removal made before the first answer as a tombstone', async () => {
    await saveHistoryEntry(db, PATIENT, 'allergies', penicillin);
    await removeHistoryEntry(db, PATIENT, 'allergies', penicillin.id);
    const [, removal] = await db.outbox.toArray();
    // The first create may have reached the server with its answer lost: the null removes it there too.
    expect(removal).toMatchObject({ op: 'create', payload: { [`allergies:${penicillin.id}`]: null } });
    expect((await historyOf(db, PATIENT)).allergies).toEqual([]);
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
  it('queues an update of the changed entry only, on the version seen', async () => {
    const id = await medicalHistoryId(PATIENT);
    const addedAt = '2025-01-01T00:00:00.000Z';
    // As the server answered (or a pull brought it): the record as stored, version 7.
    await db.medical_history.put({
      id,
      patient_id: PATIENT,
      version: 7,
      [`conditions:${asthma.id}`]: { ...asthma, added_at: addedAt },
      [`allergies:${penicillin.id}`]: { ...penicillin, added_at: addedAt },
      lifestyle: { smoking: 'never', alcohol: 'none', exercise: 'light', notes: '' },
    });
    const edited = { ...penicillin, severity: 'life_threatening' as const };
    await saveHistoryEntry(db, PATIENT, 'allergies', edited);
    await saveHistoryEntry(db, PATIENT, 'allergies', edited); // the same again: nothing more
    await saveLifestyle(db, PATIENT, { smoking: 'never', alcohol: 'none', exercise: 'light', notes: '' });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1); // the unchanged lifestyle queued nothing
    const pushed = pushChangeFor(entries[0]!);
    expect(pushed).toMatchObject({ op: 'update', id, base_version: 7 });
    expect(Object.keys(pushed.payload ?? {}).sort()).toEqual([
      `allergies:${penicillin.id}`,
      'changed_at',
      'label',
      'updated_at',
    ]);
    // An edit keeps when the entry was added.
    expect(pushed.payload?.[`allergies:${penicillin.id}`]).toEqual({ ...edited, added_at: addedAt });
    expect((await historyOf(db, PATIENT)).allergies).toEqual([{ ...edited, added_at: addedAt }]);

    await removeHistoryEntry(db, PATIENT, 'conditions', asthma.id);
    await removeHistoryEntry(db, PATIENT, 'conditions', asthma.id); // gone already: nothing more
    const [, removal] = await db.outbox.toArray();
    expect(removal).toMatchObject({
      op: 'update',
      label: 'Conditions: Asthma (removed)',
      payload: { [`conditions:${asthma.id}`]: null },
    });
    expect(Object.keys(removal?.payload ?? {}).filter((field) => field.includes(':'))).toHaveLength(1);
    const history = await historyOf(db, PATIENT);
    expect(history.conditions).toEqual([]);
    expect(history.allergies).toEqual([{ ...edited, added_at: addedAt }]);
    expect(await db.outbox.count()).toBe(2);
  });

  it('refuses the 101st entry of a list with the domain’s message', async () => {
    const id = await medicalHistoryId(PATIENT);
    const full = Object.fromEntries(
      Array.from({ length: 100 }, () => {
        const entry = { id: crypto.randomUUID(), vaccine: 'Flu', date: null };
        return [`immunizations:${entry.id}`, entry];
      }),
    );
    await db.medical_history.put({ id, patient_id: PATIENT, version: 3, ...full });
    await expect(
      saveHistoryEntry(db, PATIENT, 'immunizations', {
        id: crypto.randomUUID(),
        vaccine: 'Tetanus',
        date: null,
      }),
    ).rejects.toThrow(M.tooManyEntries);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('sharing the check-ins’ mood screening with caregivers', () => {
  it('is off until the patient turns it on; each change is queued, offline, as one field', async () => {
    const id = await medicalHistoryId(PATIENT);
    expect(await moodScreeningShared(db, PATIENT)).toBe(false);
    expect((await historyOf(db, PATIENT)).share_mood_screening).toBe(false);
    await saveMoodScreeningSharing(db, PATIENT, false); // already off: nothing queued
    expect(await db.outbox.count()).toBe(0);

    // No server copy yet: a create of the record, carrying what this device wrote before.
    await saveHistoryEntry(db, PATIENT, 'conditions', asthma);
    await saveMoodScreeningSharing(db, PATIENT, true);
    expect(await moodScreeningShared(db, PATIENT)).toBe(true);
    const [, turnedOn] = await db.outbox.toArray();
    expect(turnedOn).toMatchObject({
      op: 'create',
      entityId: id,
      label: 'Sharing of my mood screening (PHQ-2) with caregivers',
    });
    expect(pushChangeFor(turnedOn!).payload).toMatchObject({
      share_mood_screening: true,
      [`conditions:${asthma.id}`]: { ...asthma },
    });

    // With the server's copy: an update of that field alone, on the version seen.
    await db.outbox.clear();
    await db.serverRows.clear();
    await db.medical_history.put({ id, patient_id: PATIENT, version: 4, share_mood_screening: true });
    await saveMoodScreeningSharing(db, PATIENT, false);
    const [turnedOff] = await db.outbox.toArray();
    const pushed = pushChangeFor(turnedOff!);
    expect(pushed).toMatchObject({ op: 'update', id, base_version: 4 });
    expect(pushed.payload).toMatchObject({ share_mood_screening: false });
    expect(Object.keys(pushed.payload ?? {}).filter((field) => field.includes(':'))).toEqual([]);
    expect(await moodScreeningShared(db, PATIENT)).toBe(false);
  });
});
