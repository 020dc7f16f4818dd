import { doseMarkId } from '../domain/medicine-schedule';
import type { KincareDb } from './db';
import { enqueue } from './outbox';

// Marking a dose taken or not taken, through the outbox. A dose's mark has an id made from the dose
// (doseMarkId), so marking it again, on any device, writes the same record: every mark is queued as a
// create, which the server applies as "this dose is now taken". Apart from medicine-schedule.ts (the
// reads), which Home's first screen loads without the outbox.

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
