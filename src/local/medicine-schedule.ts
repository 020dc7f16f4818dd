import { DateTime } from 'luxon';
import {
  adherence,
  indexMarks,
  scheduleForDay,
  type DoseMark,
  type ScheduleEntry,
} from '../domain/medicine-schedule';
import type { Prescription } from '../domain/prescriptions';
import type { KincareDb } from './db';

// The medicine schedule on the device: read from the replica's prescriptions and dose marks, so a
// caregiver checks it with no signal. Marking a dose is dose-marks.ts's: apart, so Home's first screen
// draws the schedule without the outbox and the schemas a change is checked with.

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
