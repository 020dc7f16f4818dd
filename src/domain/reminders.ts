import { z } from 'zod';
import { doseTimeSchema, isoDateSchema, timeZoneSchema } from './prescriptions';

// Medicine reminders by Web Push: the subscription a device hands the server, the messages the server
// sends (a dose is due; a dose was not marked in time), and snoozing one.

/** The most devices one person gets reminders on: subscribing one more turns them off on the oldest. */
export const MAX_PUSH_DEVICES_PER_PERSON = 10;

export const REMINDER_MESSAGES = {
  unsupported:
    'This browser cannot show reminders. Install Kincare on your home screen, or use another browser.',
  denied: 'Notifications are blocked for Kincare. Allow them in your browser settings to get reminders.',
  offline: 'Turning reminders on needs a connection.',
  /** The browser refused to set up push (permission given, but the subscription failed). */
  setupFailed:
    'Your browser did not let Kincare set up reminders. Check that notifications are allowed for this site, then try again.',
  /** Anything else the browser threw, never shown in its own words. */
  browserFailed: 'Reminders could not be turned on in this browser. Please try again.',
  enabled: 'Reminders are on for this device.',
  enabledOldestReplaced: `Reminders are on for this device. They go to at most ${MAX_PUSH_DEVICES_PER_PERSON} devices, so they are now off on the device that turned them on longest ago.`,
  disabled: 'Reminders are off for this device.',
  endpointInvalid: 'The push endpoint must be an https address of at most 1000 characters.',
  endpointNotPublic:
    'The push endpoint must be a push service on the internet, not this server or an address of a private network.',
  endpointHostUnknown: "The push endpoint's host could not be found. Check the connection and try again.",
  keysInvalid: 'The subscription keys are not valid.',
  subscriptionUnknown: 'This device is not subscribed to reminders.',
  testSent:
    'A test reminder is on its way to this device. It should appear within a few seconds; if it does not, check that notifications for Kincare are allowed in your device settings.',
  testOffline: 'Sending a test reminder needs a connection.',
  testUnknownDevice:
    'Kincare does not know this device for reminders yet. Turn reminders off and on again, then send a test.',
  testGone:
    'This device no longer receives reminders: its browser ended the subscription. Turn reminders off and on again.',
  testFailed:
    "The browser's notification service did not take the test reminder. Please try again in a minute.",
  snoozed: (minutes: number) => `Reminder snoozed for ${minutes} minutes.`,
  snoozeInvalid: 'Snooze for 5 to 120 minutes.',
} as const;

/** Snoozing a reminder puts it off by this many minutes unless asked otherwise. */
export const DEFAULT_SNOOZE_MINUTES = 10;

const base64Url = (bytes: number, message: string) =>
  z
    .string({ error: message })
    .max(200, message)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, message)
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, message);

/** A push service's address: a URL (so no control characters, which the database would refuse). */
const endpointSchema = z
  .string({ error: REMINDER_MESSAGES.endpointInvalid })
  .max(1000, REMINDER_MESSAGES.endpointInvalid)
  .pipe(z.url({ error: REMINDER_MESSAGES.endpointInvalid }));

/** POST /api/push/subscriptions: what PushSubscription.toJSON() gives, and the device's zone. */
export const pushSubscriptionBodySchema = z.object({
  endpoint: endpointSchema,
  keys: z.object(
    {
      /** The browser's P-256 public key, uncompressed (65 bytes). */
      p256dh: base64Url(65, REMINDER_MESSAGES.keysInvalid),
      /** The 16-byte authentication secret. */
      auth: base64Url(16, REMINDER_MESSAGES.keysInvalid),
    },
    { error: REMINDER_MESSAGES.keysInvalid },
  ),
  time_zone: timeZoneSchema.optional(),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

export const pushUnsubscribeBodySchema = z.object({ endpoint: endpointSchema });

export const pushPublicKeySchema = z.object({ publicKey: z.string() });

/** POST /api/push/test: a test reminder to one of the caller's own devices, named by its endpoint. */
export const pushTestBodySchema = z.object({ endpoint: endpointSchema });
export const pushTestAnswerSchema = z.object({ success: z.literal(true), message: z.string() });

/** The words of a test reminder: what a person sees to know reminders reach this device. */
export const TEST_REMINDER = {
  title: 'Kincare test reminder',
  body: 'Reminders work on this device. Your medicine reminders will look like this.',
} as const;

/** What a test reminder push carries: shown as it is, with no Taken or Snooze; tapping it opens the app. */
export const testReminderPushSchema = z.object({
  kind: z.literal('test'),
  title: z.string(),
  body: z.string(),
  url: z.string(),
});
export type TestReminderPush = z.infer<typeof testReminderPushSchema>;

/** POST /api/push/snooze: put off the reminder of one dose. */
export const snoozeBodySchema = z.object({
  schedule_id: z.uuid({ error: 'schedule_id must be a prescription id (a UUID).' }),
  date: isoDateSchema('date must be a day (YYYY-MM-DD).'),
  time: doseTimeSchema,
  minutes: z
    .number({ error: REMINDER_MESSAGES.snoozeInvalid })
    .int(REMINDER_MESSAGES.snoozeInvalid)
    .min(5, REMINDER_MESSAGES.snoozeInvalid)
    .max(120, REMINDER_MESSAGES.snoozeInvalid)
    .default(DEFAULT_SNOOZE_MINUTES),
});

/**
 * What a reminder push carries, for the service worker to show it and to act on it with no page open:
 * `user_id` says whose replica on the device the Taken action writes to; `can_mark` whether that person
 * may mark the dose (a caregiver alerted of a missed dose without EditPrescription may not).
 */
export const reminderPushSchema = z.object({
  kind: z.enum(['dose-due', 'dose-missed']),
  title: z.string(),
  body: z.string(),
  user_id: z.string(),
  patient_id: z.string(),
  schedule_id: z.string(),
  date: z.string(),
  time: z.string(),
  label: z.string(),
  can_mark: z.boolean(),
  /** Where tapping the notification opens. */
  url: z.string(),
});
export type ReminderPush = z.infer<typeof reminderPushSchema>;
