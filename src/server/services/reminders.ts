import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { FastifyBaseLogger } from 'fastify';
import { doseInstant, doseMarkId, givesDosesOn, reminderTitle } from '../../domain/medicine-schedule';
import { PRESCRIPTION_PERMISSIONS, prescriptionFieldsSchema } from '../../domain/prescriptions';
import type { ReminderPush } from '../../domain/reminders';
import type { Database } from '../db/client';
import {
  careLinks,
  caregivers,
  patients,
  pushSubscriptions,
  records,
  reminderDeliveries,
  users,
} from '../db/schema';
import { createFairQueue, MAX_CONCURRENT_PUSHES, MAX_CONCURRENT_PUSHES_PER_PERSON } from '../push/queue';
import type { PushSender } from '../push/sender';

// Medicine reminders. A sweep runs every REMINDER_INTERVAL_SECONDS on every server:
// it works out which doses of active prescriptions came due since a while ago (REMINDER_CATCH_UP_MINUTES,
// so a server that was down sends what fell due meanwhile, but not last week's), and which went unmarked
// for longer than the prescription's alert delay. For each it claims a row in reminder_deliveries (the
// dose and the kind are its key): only the server whose insert made the row sends it, so a reminder goes
// out once with several servers and after a restart. Snoozes are rows with a later due_at that the sweep
// claims by setting sent_at. A claimed reminder that then fails to send is not retried (at most once: a
// second copy of a medicine reminder is worse than none for a dose the person already took).
//
// Who gets what: 'due' goes to the patient's devices; 'missed' to the caregivers the patient chose on the
// prescription; a snooze goes back to the person who snoozed. Whatever the kind, a caregiver gets it only
// while still linked with ReadPrescription, checked as it is sent (can_mark says whether they hold
// EditPrescription): a link removed after a snooze, or while the sweep ran, sends nothing.
//
// Deciding what to send is one sweep at a time per server; sending is not. Each push goes through one
// fair queue (push/queue.ts) with its own timeout, so devices that never answer delay nobody else's
// reminder, nor the next sweep (push/README.md).

type Kind = 'due' | 'missed';

type Candidate = {
  prescriptionId: string;
  patientId: string;
  patientUserId: string;
  label: Parameters<typeof reminderTitle>[0];
  date: string;
  time: string;
  kind: Kind;
  dueAt: Date;
  alertCaregivers: string[];
};

/** One reminder of one dose for one person, decided by a sweep and sent to each of their devices. */
type Delivery = {
  userId: string;
  dose: Pick<Candidate, 'patientId' | 'patientUserId' | 'prescriptionId' | 'date' | 'time' | 'label'>;
  kind: ReminderPush['kind'];
  ttlSeconds: number;
  patientName?: string;
};

/** What a recipient may do with the patient's prescriptions when the reminder goes out. */
type RecipientAccess = { caregiver: boolean; canMark: boolean };

const ACTIVE_PRESCRIPTION_FIELDS = prescriptionFieldsSchema.pick({
  medicine_name: true,
  strength: true,
  start_date: true,
  end_date: true,
  times: true,
  status: true,
  time_zone: true,
  reminders: true,
  alert_after_minutes: true,
  alert_caregivers: true,
  as_needed: true,
  form: true,
  directions: true,
});

export type ReminderService = {
  /** One sweep at `now`; answers how many pushes were sent. */
  runOnce(now?: Date): Promise<number>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
};

export function createReminderService(options: {
  db: Database;
  sender: () => PushSender;
  log: FastifyBaseLogger;
  catchUpMinutes: number;
}): ReminderService {
  const { db, log } = options;
  let timer: NodeJS.Timeout | undefined;
  /** The sweep still deciding what to send: a second call meanwhile joins it. */
  let planning: Promise<number> | undefined;
  /** Every sweep not finished yet, sending included, for stop() to wait for. */
  const sweeps = new Set<Promise<number>>();
  const queue = createFairQueue({
    concurrency: MAX_CONCURRENT_PUSHES,
    perKey: MAX_CONCURRENT_PUSHES_PER_PERSON,
  });

  async function candidates(now: Date): Promise<Candidate[]> {
    const rows = await db
      .select({
        id: records.id,
        patientId: records.patientId,
        data: records.data,
        createdAt: records.createdAt,
        userId: patients.userId,
      })
      .from(records)
      .innerJoin(patients, eq(patients.id, records.patientId))
      .where(
        and(
          eq(records.resource, 'prescriptions'),
          isNull(records.deletedAt),
          sql`${records.data}->>'status' = 'active'`,
          sql`jsonb_array_length(coalesce(${records.data}->'times', '[]'::jsonb)) > 0`,
        ),
      );
    const earliest = now.getTime() - options.catchUpMinutes * 60_000;
    const found: Candidate[] = [];
    for (const row of rows) {
      const parsed = ACTIVE_PRESCRIPTION_FIELDS.safeParse(row.data);
      if (!parsed.success) continue; // a record written before a field existed: nothing to remind of
      const prescription = { ...parsed.data, id: row.id };
      const today = DateTime.fromJSDate(now, { zone: prescription.time_zone });
      // Yesterday too: a dose at 23:30 whose alert falls after midnight.
      for (const day of [today.minus({ days: 1 }), today]) {
        const date = day.toISODate() ?? '';
        if (!givesDosesOn(prescription, date)) continue;
        for (const time of prescription.times) {
          const due = doseInstant(date, time, prescription.time_zone).toJSDate();
          // A dose due before the prescription was added was nobody's to take or to mark: no reminder,
          // and above all no "has not marked this dose" to a caregiver.
          if (due.getTime() < row.createdAt.getTime()) continue;
          const base = {
            prescriptionId: row.id,
            patientId: row.patientId,
            patientUserId: row.userId,
            label: prescription,
            date,
            time,
            alertCaregivers: prescription.alert_caregivers,
          };
          const inWindow = (at: number) => at <= now.getTime() && at > earliest;
          if (prescription.reminders && inWindow(due.getTime()))
            found.push({ ...base, kind: 'due', dueAt: due });
          const alertAt = due.getTime() + prescription.alert_after_minutes * 60_000;
          if (prescription.alert_caregivers.length > 0 && inWindow(alertAt))
            found.push({ ...base, kind: 'missed', dueAt: new Date(alertAt) });
        }
      }
    }
    return found;
  }

  /** Which of these dose marks exist (taken or not): a marked dose needs no reminder. */
  async function existingMarks(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const marked = await db
      .select({ id: records.id })
      .from(records)
      .where(
        and(
          eq(records.resource, 'dose_marks'),
          inArray(records.id, [...new Set(ids)]),
          isNull(records.deletedAt),
        ),
      );
    return new Set(marked.map((row) => row.id));
  }

  /** Claims the reminder: true for the one server whose insert made the row. */
  async function claim(candidate: Candidate, now: Date): Promise<boolean> {
    const inserted = await db
      .insert(reminderDeliveries)
      .values({
        prescriptionId: candidate.prescriptionId,
        doseDate: candidate.date,
        doseTime: candidate.time,
        kind: candidate.kind,
        dueAt: candidate.dueAt,
        sentAt: now,
      })
      .onConflictDoNothing()
      .returning({ kind: reminderDeliveries.kind });
    return inserted.length > 0;
  }

  async function subscriptionsOf(userIds: string[]) {
    if (userIds.length === 0) return [];
    return db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
  }

  /** The user ids of the chosen caregivers linked to the patient (what they may do is checked as it is sent). */
  async function alertedCaregivers(patientId: string, caregiverIds: string[]): Promise<string[]> {
    if (caregiverIds.length === 0) return [];
    const links = await db
      .select({ userId: caregivers.userId })
      .from(careLinks)
      .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
      .where(and(eq(careLinks.patientId, patientId), inArray(careLinks.caregiverId, caregiverIds)));
    return links.map((link) => link.userId);
  }

  /**
   * What `userId` may do with the patient's prescriptions now: the patient everything; a caregiver only
   * while linked with ReadPrescription (null otherwise), marking with EditPrescription.
   */
  async function accessOf(dose: Delivery['dose'], userId: string): Promise<RecipientAccess | null> {
    if (userId === dose.patientUserId) return { caregiver: false, canMark: true };
    const [link] = await db
      .select({ permissions: careLinks.permissions })
      .from(careLinks)
      .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
      .where(and(eq(careLinks.patientId, dose.patientId), eq(caregivers.userId, userId)))
      .limit(1);
    if (!link?.permissions.includes(PRESCRIPTION_PERMISSIONS.read)) return null;
    return { caregiver: true, canMark: link.permissions.includes(PRESCRIPTION_PERMISSIONS.edit) };
  }

  /** Sends one delivery to one device if its recipient may still have it; answers 1 when it was sent. */
  async function sendToDevice(
    device: typeof pushSubscriptions.$inferSelect,
    delivery: Delivery,
    access: () => Promise<RecipientAccess | null>,
  ): Promise<number> {
    const allowed = await access();
    if (!allowed) return 0;
    const outcome = await options
      .sender()
      .send(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        message(delivery, allowed),
        { ttlSeconds: delivery.ttlSeconds, urgency: 'high' },
      );
    if (outcome.status === 'sent') return 1;
    if (outcome.status === 'gone')
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint));
    else
      log.warn(
        { statusCode: outcome.statusCode, reason: outcome.message },
        'a medicine reminder could not be sent',
      );
    return 0;
  }

  /** Sends every delivery to each device of its recipient through the queue; answers how many went. */
  async function deliver(deliveries: Delivery[]): Promise<number> {
    const devices = await subscriptionsOf([...new Set(deliveries.map((delivery) => delivery.userId))]);
    const sends: Promise<number>[] = [];
    for (const delivery of deliveries) {
      // Looked up once per delivery, when its first device's turn comes: not when it was planned.
      let access: Promise<RecipientAccess | null> | undefined;
      const accessNow = () => (access ??= accessOf(delivery.dose, delivery.userId));
      for (const device of devices.filter((candidate) => candidate.userId === delivery.userId))
        sends.push(queue.run(delivery.userId, () => sendToDevice(device, delivery, accessNow)));
    }
    let sent = 0;
    for (const result of await Promise.allSettled(sends)) {
      if (result.status === 'fulfilled') sent += result.value;
      else log.error({ err: result.reason }, 'a medicine reminder failed');
    }
    return sent;
  }

  function message(delivery: Delivery, access: RecipientAccess): ReminderPush {
    const { dose, kind } = delivery;
    const title = reminderTitle(dose.label, dose.time);
    const body =
      kind === 'dose-due'
        ? 'Time for your medicine. Tap Taken once you have taken it.'
        : `${delivery.patientName ?? 'Your patient'} has not marked this dose as taken.`;
    return {
      kind,
      title,
      body,
      user_id: delivery.userId,
      patient_id: dose.patientId,
      schedule_id: dose.prescriptionId,
      date: dose.date,
      time: dose.time,
      label: title,
      can_mark: access.canMark,
      url: access.caregiver ? '/caregiver/prescriptions' : '/prescriptions',
    };
  }

  async function nameOf(userId: string): Promise<string> {
    const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
    return user?.name ?? 'Your patient';
  }

  /** Snoozed reminders now due: claimed by setting sent_at, so one server sends each. */
  async function dueSnoozes(now: Date): Promise<Delivery[]> {
    const claimed = await db
      .update(reminderDeliveries)
      .set({ sentAt: now })
      .where(and(isNull(reminderDeliveries.sentAt), lte(reminderDeliveries.dueAt, now)))
      .returning();
    const deliveries: Delivery[] = [];
    for (const snooze of claimed) {
      if (!snooze.userId) continue;
      const [row] = await db
        .select({ patientId: records.patientId, data: records.data, userId: patients.userId })
        .from(records)
        .innerJoin(patients, eq(patients.id, records.patientId))
        .where(
          and(
            eq(records.resource, 'prescriptions'),
            eq(records.id, snooze.prescriptionId),
            isNull(records.deletedAt),
          ),
        )
        .limit(1);
      const parsed = row ? ACTIVE_PRESCRIPTION_FIELDS.safeParse(row.data) : undefined;
      if (!row || !parsed?.success || parsed.data.status !== 'active') continue;
      const markId = await doseMarkId(snooze.prescriptionId, snooze.doseDate, snooze.doseTime);
      if ((await existingMarks([markId])).has(markId)) continue;
      deliveries.push({
        userId: snooze.userId,
        dose: {
          patientId: row.patientId,
          patientUserId: row.userId,
          prescriptionId: snooze.prescriptionId,
          date: snooze.doseDate,
          time: snooze.doseTime,
          label: parsed.data,
        },
        kind: 'dose-due',
        ttlSeconds: 3600,
      });
    }
    return deliveries;
  }

  /** Claims what is due at `now` and answers what to send for it. */
  async function plan(now: Date): Promise<Delivery[]> {
    const found = await candidates(now);
    const markIds = await Promise.all(
      found.map((candidate) => doseMarkId(candidate.prescriptionId, candidate.date, candidate.time)),
    );
    const marked = await existingMarks(markIds);
    const deliveries: Delivery[] = [];
    for (const [index, candidate] of found.entries()) {
      if (marked.has(markIds[index] ?? '')) continue;
      if (!(await claim(candidate, now))) continue;
      if (candidate.kind === 'due') {
        deliveries.push({
          userId: candidate.patientUserId,
          dose: candidate,
          kind: 'dose-due',
          ttlSeconds: 3600,
        });
        continue;
      }
      const patientName = await nameOf(candidate.patientUserId);
      for (const userId of await alertedCaregivers(candidate.patientId, candidate.alertCaregivers))
        deliveries.push({ userId, dose: candidate, kind: 'dose-missed', ttlSeconds: 6 * 3600, patientName });
    }
    return [...deliveries, ...(await dueSnoozes(now))];
  }

  return {
    runOnce(now = new Date()) {
      // One sweep at a time decides what to send: a call meanwhile joins it.
      if (planning) return planning;
      const planned = plan(now);
      const sweep = planned.then(deliver);
      planning = sweep;
      // The next sweep may begin once this one has claimed its reminders, while they are still being sent.
      const donePlanning = () => {
        if (planning === sweep) planning = undefined;
      };
      planned.then(donePlanning, donePlanning);
      sweeps.add(sweep);
      sweep.then(
        () => sweeps.delete(sweep),
        () => sweeps.delete(sweep),
      );
      return sweep;
    },
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(() => {
        this.runOnce().catch((error: unknown) => log.error({ err: error }, 'the reminder sweep failed'));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled([...sweeps]);
    },
  };
}

/** Puts off the reminder of one dose for the person asking: a row the sweep claims when it is due. */
export async function snoozeReminder(
  db: Database,
  input: { userId: string; prescriptionId: string; date: string; time: string; minutes: number },
  now = new Date(),
): Promise<Date> {
  const dueAt = new Date(now.getTime() + input.minutes * 60_000);
  await db
    .insert(reminderDeliveries)
    .values({
      prescriptionId: input.prescriptionId,
      doseDate: input.date,
      doseTime: input.time,
      kind: `snooze:${input.userId}:${dueAt.getTime()}`,
      userId: input.userId,
      dueAt,
    })
    .onConflictDoNothing();
  return dueAt;
}
