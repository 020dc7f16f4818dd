import { DateTime } from 'luxon';
import {
  adherence,
  doseMarkId,
  indexMarks,
  scheduleForDay,
  type DoseMark,
  type ScheduleEntry,
} from '../domain/medicine-schedule';
import type { Prescription } from '../domain/prescriptions';
import type { KincareDb } from './db';
import { enqueue } from './outbox';

// The medicine schedule on the device: read from the replica's prescriptions and dose marks (so a
// caregiver checks it with no signal), and marking a dose taken or not taken through the outbox. A dose's
// mark has an id made from the dose (doseMarkId), so marking it again, on any device, writes the same
// record: every mark is queued as a create, which the server applies as "this dose is now taken".

export type DoseToMark = {
  patient_id: string;
  schedule_id: string;
  date: string;
  time: string;
  is_taken: boolean;
  /** Who marks it (shown at once; the server records the same from the token). */
  marked_by: string;
  marked_by_name: string;
  /** 'Metformin 500 mg - 08:00': names the change if it is ever refused. */
  label: string;
};

export async function markDose(db: KincareDb, dose: DoseToMark, now = new Date()): Promise<string> {
  const id = await doseMarkId(dose.schedule_id, dose.date, dose.time);
  const stamp = now.toISOString();
  const current = await db.dose_marks.get(id);
  const payload = {
    ...dose,
    id,
    marked_at: stamp,
    created_at: current?.created_at ?? stamp,
    updated_at: stamp,
  };
  await enqueue(db, { resource: 'dose_marks', id, op: 'create', payload }, now.getTime());
  return id;
}

/** The patient's prescriptions on this device. */
export function prescriptionsOf(db: KincareDb, patientId: string): Promise<Prescription[]> {
  return db.prescriptions.where('patient_id').equals(patientId).toArray();
}

/** The marks of the patient's days from `from` to `to` (inclusive), through the [patient_id+date] index. */
export function marksBetween(
  db: KincareDb,
  patientId: string,
  from: string,
  to: string,
): Promise<DoseMark[]> {
  return db.dose_marks
    .where('[patient_id+date]')
    .between([patientId, from], [patientId, to], true, true)
    .toArray();
}

/** One day's schedule of the patient (src/domain/README.md), from the device's tables. */
export async function scheduleOn(
  db: KincareDb,
  patientId: string,
  date: string,
  now = new Date(),
): Promise<ScheduleEntry[]> {
  const [prescriptions, marks] = await Promise.all([
    prescriptionsOf(db, patientId),
    marksBetween(db, patientId, date, date),
  ]);
  return scheduleForDay(date, prescriptions, indexMarks(marks), now);
}

/** Adherence over the `days` days ending `today`, from the device's tables. */
export async function adherenceOf(
  db: KincareDb,
  patientId: string,
  today: string,
  days: number,
  now = new Date(),
): Promise<ReturnType<typeof adherence>> {
  const from =
    DateTime.fromISO(today)
      .minus({ days: days - 1 })
      .toISODate() ?? today;
  const [prescriptions, marks] = await Promise.all([
    prescriptionsOf(db, patientId),
    marksBetween(db, patientId, from, today),
  ]);
  return adherence(today, days, prescriptions, indexMarks(marks), now);
}
