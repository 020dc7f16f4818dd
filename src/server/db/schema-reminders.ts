import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema-people';

// The tables of medicine reminders: the devices that opted in, and every reminder sent.
// Kept apart from schema.ts (which schema.ts re-exports, so drizzle-kit and the client see one schema).

/** A device's push subscription (Web Push), held for the person signed in on it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    endpoint: text('endpoint').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The device's zone when it subscribed (shown to nobody; for the record). */
    timeZone: text('time_zone'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
);

/**
 * One row per reminder the servers decided to send: the dose (prescription, day, time) and the kind
 * ('due' to the patient, 'missed' to the chosen caregivers, 'snooze:<n>' after a snooze). Whoever inserts
 * the row sends it, so with several servers, and after a restart, each reminder goes out once.
 * `due_at` is when it is to go: a snooze inserts a row for later, which the sweep then claims.
 */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    prescriptionId: uuid('prescription_id').notNull(),
    doseDate: text('dose_date').notNull(),
    doseTime: text('dose_time').notNull(),
    kind: text('kind').notNull(),
    /** The person a snooze was asked by (null for the scheduled kinds, which go to everyone concerned). */
    userId: uuid('user_id'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** Set by the server that claimed it; a snoozed reminder waits with this empty until it is due. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.prescriptionId, table.doseDate, table.doseTime, table.kind] }),
    index('reminder_deliveries_due_idx').on(table.sentAt, table.dueAt),
  ],
);
