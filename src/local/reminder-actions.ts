import {
  reminderPushSchema,
  testReminderPushSchema,
  type ReminderPush,
  type TestReminderPush,
} from '../domain/reminders';
import { DB_PREFIX, KincareDb } from './db';
import { markDose } from './dose-marks';

// What the service worker does with a medicine reminder (sw/README.md), kept here so that it is
// tested without a service worker: the notification it shows (with Taken and Snooze when the person may
// mark the dose), and the Taken action, which writes the mark into the signed-in person's outbox, exactly
// as tapping Taken in the app does, so it works with no signal and goes out with the next sync.

export type ReminderNotification = {
  title: string;
  options: NotificationOptions & { actions?: { action: string; title: string }[] };
};

/** The push's message, or null for anything that is not a reminder of ours. */
export function readReminder(data: unknown): ReminderPush | null {
  const parsed = reminderPushSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** A test reminder (the person's own check that reminders reach this device), or null. */
export function readTestReminder(data: unknown): TestReminderPush | null {
  const parsed = testReminderPushSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** How a test reminder shows: as a dose's would, without Taken or Snooze. */
export function testReminderNotification(message: TestReminderPush): ReminderNotification {
  return {
    title: message.title,
    options: {
      body: message.body,
      tag: 'kincare-test',
      data: message,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      actions: [],
    },
  };
}

export function reminderNotification(message: ReminderPush): ReminderNotification {
  const actions = [
    ...(message.can_mark ? [{ action: 'taken', title: 'Taken' }] : []),
    { action: 'snooze', title: 'Snooze' },
  ];
  return {
    title: message.title,
    options: {
      body: message.body,
      // One notification per dose and kind: a snoozed reminder replaces its earlier one.
      tag: `${message.kind}:${message.schedule_id}:${message.date}:${message.time}`,
      data: message,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      requireInteraction: true,
      actions,
    },
  };
}

export type TakenOutcome = 'queued' | 'signed-out' | 'other-person' | 'not-allowed';

/**
 * The Taken action: marks the dose taken in the outbox of the person the reminder is for, if that person
 * is the one signed in on this device (a reminder for someone who signed out writes nothing).
 */
export async function takeFromReminder(
  message: ReminderPush,
  session: { userId: string } | undefined,
  now = new Date(),
): Promise<TakenOutcome> {
  if (!message.can_mark) return 'not-allowed';
  if (!session) return 'signed-out';
  if (session.userId !== message.user_id) return 'other-person';
  const db = new KincareDb(`${DB_PREFIX}${session.userId}`);
  try {
    await db.open();
    const profile = await db.profile.toCollection().first();
    await markDose(
      db,
      {
        patient_id: message.patient_id,
        schedule_id: message.schedule_id,
        date: message.date,
        time: message.time,
        is_taken: true,
        marked_by: session.userId,
        marked_by_name: profile?.name ?? '',
        label: message.label,
      },
      now,
    );
    return 'queued';
  } finally {
    db.close();
  }
}
