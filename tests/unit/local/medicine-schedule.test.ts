import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doseMarkId } from '../../../src/domain/medicine-schedule';
import { PRESCRIPTION_MESSAGES } from '../../../src/domain/prescriptions';
import type { ReminderPush } from '../../../src/domain/reminders';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { markDose } from '../../../src/local/dose-marks';
import { adherenceOf, scheduleOn } from '../../../src/local/medicine-schedule';
import {
  addPrescription,
  editPrescription,
  removePrescription,
  setPrescriptionStatus,
} from '../../../src/local/prescriptions';
import { readReminder, reminderNotification, takeFromReminder } from '../../../src/local/reminder-actions';
import { pushChangeFor } from '../../../src/local/sync-resources';

// Prescriptions and the medicine schedule on the device: every write lands in the table and the outbox
// together (so it works with no signal), a dose marked twice is one record, the schedule and adherence
// read the device's tables, and a reminder's Taken action writes the mark into the right person's outbox.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
const USER = '7d1f1c1e-0000-4000-8000-0000000000aa';
let db: KincareDb;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}${USER}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const metformin = {
  patient_id: PATIENT,
  caregiver_id: null,
  medicine_name: 'Metformin',
  strength: '500 mg',
  form: 'tablet' as const,
  directions: 'Take 1 tablet twice daily',
  doctor_id: null,
  pharmacy_id: null,
  quantity: 60,
  refills: 2,
  start_date: '2026-11-01',
  end_date: null,
  times: ['20:00', '08:00'],
  as_needed: false,
  status: 'active' as const,
  notes: '',
  time_zone: 'America/New_York',
  reminders: true,
  alert_after_minutes: 60,
  alert_caregivers: [],
};

describe('prescriptions on the device', () => {
  it('adds, edits only what changed, changes status and deletes through the outbox', async () => {
    const photo = { blob: new Blob(['png'], { type: 'image/png' }), name: 'label.png' };
    const id = await addPrescription(db, { ...metformin, photo });
    const row = await db.prescriptions.get(id);
    expect(row).toMatchObject({ id, prescription_id: id, times: ['08:00', '20:00'], version: 0 });
    expect(row?.attachment_key).toMatch(/^blob:/);
    const [created] = await db.outbox.toArray();
    expect(created).toMatchObject({ resource: 'prescriptions', op: 'create', label: 'Metformin' });
    expect(created?.blobIds).toHaveLength(1);
    expect(pushChangeFor(created!).payload).toMatchObject({
      medicine_name: 'Metformin',
      patient_id: PATIENT,
    });

    await editPrescription(db, id, { strength: '1000 mg', medicine_name: 'Metformin' });
    await setPrescriptionStatus(db, id, 'on_hold');
    const entries = await db.outbox.toArray();
    expect(entries.map((entry) => [entry.op, Object.keys(entry.payload).sort()])).toEqual([
      ['create', expect.any(Array)],
      ['update', ['strength', 'updated_at']],
      ['update', ['status', 'updated_at']],
    ]);
    expect(await db.prescriptions.get(id)).toMatchObject({ strength: '1000 mg', status: 'on_hold' });

    await expect(editPrescription(db, id, { end_date: '2026-01-01' })).rejects.toThrow(
      PRESCRIPTION_MESSAGES.endBeforeStart,
    );
    await expect(editPrescription(db, id, { times: [] })).rejects.toThrow(
      PRESCRIPTION_MESSAGES.timesRequired,
    );
    await expect(addPrescription(db, { ...metformin, medicine_name: '' })).rejects.toThrow();
    expect(await db.outbox.count()).toBe(3); // the refused edits queued nothing

    await removePrescription(db, id);
    expect(await db.prescriptions.get(id)).toBeUndefined();
  });
});

describe('the schedule on the device', () => {
  it('marks a dose through the outbox, and marking it again changes the same record', async () => {
    const id = await addPrescription(db, metformin, new Date('2026-11-01T12:00:00Z'));
    const dose = {
      patient_id: PATIENT,
      schedule_id: id,
      date: '2026-11-23',
      time: '08:00',
      is_taken: true,
      marked_by: USER,
      marked_by_name: 'Alex',
      label: 'Metformin 500 mg - 08:00',
    };
    const markId = await markDose(db, dose, new Date('2026-11-23T13:05:00Z'));
    expect(markId).toBe(await doseMarkId(id, '2026-11-23', '08:00'));
    expect(await markDose(db, { ...dose, is_taken: false })).toBe(markId);
    expect(await db.dose_marks.count()).toBe(1);
    expect(await db.dose_marks.get(markId)).toMatchObject({ is_taken: false, marked_by_name: 'Alex' });
    const marks = (await db.outbox.toArray()).filter((entry) => entry.resource === 'dose_marks');
    expect(marks.map((entry) => [entry.op, entry.entityId, entry.payload.is_taken])).toEqual([
      ['create', markId, true],
      ['create', markId, false],
    ]);
    // What goes to the server is the API's mark: the dose, and whether it was taken.
    expect(pushChangeFor(marks[0]!).payload).toMatchObject({
      schedule_id: id,
      date: '2026-11-23',
      time: '08:00',
      is_taken: true,
    });

    const now = new Date('2026-11-23T15:00:00Z'); // 10:00 in New York
    const [entry] = await scheduleOn(db, PATIENT, '2026-11-23', now);
    expect(entry?.doses.map((one) => [one.time, one.is_taken, one.state])).toEqual([
      ['08:00', false, 'not-taken'],
      ['20:00', null, 'upcoming'],
    ]);
    await markDose(db, { ...dose, is_taken: true });
    const week = await adherenceOf(db, PATIENT, '2026-11-23', 7, now);
    // Six whole days of two doses and today's 08:00: 13 due, one taken.
    expect(week).toMatchObject({ due: 13, taken: 1, percent: 8 });
    expect(await scheduleOn(db, 'someone-else', '2026-11-23', now)).toEqual([]);
  });
});

describe('a reminder on the device', () => {
  const reminder: ReminderPush = {
    kind: 'dose-due',
    title: 'Metformin 500 mg - 08:00',
    body: 'Time for your medicine.',
    user_id: USER,
    patient_id: PATIENT,
    schedule_id: '7d1f1c1e-0000-4000-8000-0000000000c1',
    date: '2026-11-23',
    time: '08:00',
    label: 'Metformin 500 mg - 08:00',
    can_mark: true,
    url: '/prescriptions',
  };

  it('shows Taken and Snooze, and Taken writes the mark into the signed-in person’s outbox', async () => {
    expect(readReminder({ kind: 'something else' })).toBeNull();
    const shown = reminderNotification(readReminder(reminder)!);
    expect(shown.title).toBe('Metformin 500 mg - 08:00');
    expect(shown.options.actions?.map((action) => action.title)).toEqual(['Taken', 'Snooze']);
    expect(
      reminderNotification({ ...reminder, can_mark: false }).options.actions?.map((a) => a.title),
    ).toEqual(['Snooze']);

    await db.profile.put({ id: USER, name: 'Pat Patient' } as never);
    db.close();
    expect(await takeFromReminder(reminder, { userId: USER })).toBe('queued');
    await db.open();
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      resource: 'dose_marks',
      op: 'create',
      entityId: await doseMarkId(reminder.schedule_id, '2026-11-23', '08:00'),
      payload: { is_taken: true, marked_by: USER, marked_by_name: 'Pat Patient' },
    });
  });

  it('writes nothing for someone who is not signed in here, or who may not mark', async () => {
    expect(await takeFromReminder(reminder, undefined)).toBe('signed-out');
    expect(await takeFromReminder(reminder, { userId: 'another-person' })).toBe('other-person');
    expect(await takeFromReminder({ ...reminder, can_mark: false }, { userId: USER })).toBe('not-allowed');
    expect(await db.outbox.count()).toBe(0);
  });
});
