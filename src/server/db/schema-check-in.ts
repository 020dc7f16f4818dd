import { date, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CHECK_IN_STATUSES, type CheckInEntry } from '../../domain/check-in';
import { patients } from './schema';

// The daily health check-ins (issue 14 point 5). Kept apart from schema.ts, which re-exports them.

/**
 * One patient's check-in of one day (the device's local date). Its id is made from the patient and the
 * day (services/check-in.ts), so it is known before anything is stored: the first answer writes the row.
 */
export const checkIns = pgTable(
  'check_ins',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** The answers in the order given. */
    answers: jsonb('answers').$type<CheckInEntry[]>().notNull().default([]),
    status: text('status', { enum: CHECK_IN_STATUSES }).notNull().default('in_progress'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('check_ins_patient_day_unique').on(table.patientId, table.day)],
);
