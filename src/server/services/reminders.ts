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
import type { PushSender } from '../push/sender';

// Medicine reminders (issue 11, point 4). A sweep runs every REMINDER_INTERVAL_SECONDS on every server:
// it works out which doses of active prescriptions came due since a while ago (REMINDER_CATCH_UP_MINUTES,
// so a server that was down sends what fell due meanwhile, but not last week's), and which went unmarked
// for longer than the prescription's alert delay. For each it claims a row in reminder_deliveries (the
// dose and the kind are its key): only the server whose insert made the row sends it, so a reminder goes
// out once with several servers and after a restart. Snoozes are rows with a later due_at that the sweep
// claims by setting sent_at. A claimed reminder that then fails to send is not retried (at most once: a
// second copy of a medicine reminder is worse than none for a dose the person already took).
//
// Who gets what: 'due' goes to the patient's devices; 'missed' to the caregivers the patient chose on the
// prescription, while they are still linked and may read prescriptions (can_mark says whether they hold
// EditPrescription); a snooze goes back to the person who snoozed.

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
  let running: Promise<number> | undefined;

  async function candidates(now: Date): Promise<Candidate[]> {
    const rows = await db
      .select({ id: records.id, patientId: records.patientId, data: records.data, userId: patients.userId })
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

  /** The alerted caregivers still linked with ReadPrescription: their user ids, and whether they may mark. */
  async function alertedCaregivers(patientId: string, caregiverIds: string[]) {
    if (caregiverIds.length === 0) return [];
    const links = await db
      .select({ userId: caregivers.userId, permissions: careLinks.permissions })
      .from(careLinks)
      .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
      .where(and(eq(careLinks.patientId, patientId), inArray(careLinks.caregiverId, caregiverIds)));
    return links
      .filter((link) => link.permissions.includes(PRESCRIPTION_PERMISSIONS.read))
      .map((link) => ({
        userId: link.userId,
        canMark: link.permissions.includes(PRESCRIPTION_PERMISSIONS.edit),
      }));
  }

  async function send(userId: string, message: ReminderPush, ttlSeconds: number): Promise<number> {
    let sent = 0;
    for (const subscription of await subscriptionsOf([userId])) {
      const outcome = await options
        .sender()
        .send(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          message,
          { ttlSeconds, urgency: 'high' },
        );
      if (outcome.status === 'sent') sent += 1;
      else if (outcome.status === 'gone')
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint));
      else
        log.warn(
          { statusCode: outcome.statusCode, reason: outcome.message },
          'a medicine reminder could not be sent',
        );
    }
    return sent;
  }

  function message(
    candidate: Pick<Candidate, 'patientId' | 'prescriptionId' | 'date' | 'time' | 'label'>,
    kind: ReminderPush['kind'],
    recipient: { userId: string; canMark: boolean; patientName?: string; caregiver: boolean },
  ): ReminderPush {
    const title = reminderTitle(candidate.label, candidate.time);
    const body =
      kind === 'dose-due'
        ? 'Time for your medicine. Tap Taken once you have taken it.'
        : `${recipient.patientName ?? 'Your patient'} has not marked this dose as taken.`;
    return {
      kind,
      title,
      body,
      user_id: recipient.userId,
      patient_id: candidate.patientId,
      schedule_id: candidate.prescriptionId,
      date: candidate.date,
      time: candidate.time,
      label: title,
      can_mark: recipient.canMark,
      url: recipient.caregiver ? '/caregiver/prescriptions' : '/prescriptions',
    };
  }

  async function nameOf(userId: string): Promise<string> {
    const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
    return user?.name ?? 'Your patient';
  }

  /** Snoozed reminders now due: claimed by setting sent_at, so one server sends each. */
  async function dueSnoozes(now: Date): Promise<number> {
    const claimed = await db
      .update(reminderDeliveries)
      .set({ sentAt: now })
      .where(and(isNull(reminderDeliveries.sentAt), lte(reminderDeliveries.dueAt, now)))
      .returning();
    let sent = 0;
    for (const snooze of claimed) {
      if (!snooze.userId) continue;
      const [row] = await db
        .select({ patientId: records.patientId, data: records.data, userId: patients.userId })
        .from(records)
        .innerJoin(patients, eq(patients.id, records.patientId))
        .where(and(eq(records.id, snooze.prescriptionId), isNull(records.deletedAt)))
        .limit(1);
      const parsed = row ? ACTIVE_PRESCRIPTION_FIELDS.safeParse(row.data) : undefined;
      if (!row || !parsed?.success || parsed.data.status !== 'active') continue;
      const markId = await doseMarkId(snooze.prescriptionId, snooze.doseDate, snooze.doseTime);
      if ((await existingMarks([markId])).has(markId)) continue;
      const caregiver = snooze.userId !== row.userId;
      const canMark = caregiver
        ? (await alertedCaregiversOfUser(row.patientId, snooze.userId)).canMark
        : true;
      sent += await send(
        snooze.userId,
        message(
          {
            patientId: row.patientId,
            prescriptionId: snooze.prescriptionId,
            date: snooze.doseDate,
            time: snooze.doseTime,
            label: parsed.data,
          },
          'dose-due',
          { userId: snooze.userId, canMark, caregiver },
        ),
        3600,
      );
    }
    return sent;
  }

  async function alertedCaregiversOfUser(patientId: string, userId: string) {
    const [link] = await db
      .select({ permissions: careLinks.permissions })
      .from(careLinks)
      .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
      .where(and(eq(careLinks.patientId, patientId), eq(caregivers.userId, userId)))
      .limit(1);
    return { canMark: Boolean(link?.permissions.includes(PRESCRIPTION_PERMISSIONS.edit)) };
  }

  async function sweep(now: Date): Promise<number> {
    const found = await candidates(now);
    const markIds = await Promise.all(
      found.map((candidate) => doseMarkId(candidate.prescriptionId, candidate.date, candidate.time)),
    );
    const marked = await existingMarks(markIds);
    let sent = 0;
    for (const [index, candidate] of found.entries()) {
      if (marked.has(markIds[index] ?? '')) continue;
      if (!(await claim(candidate, now))) continue;
      if (candidate.kind === 'due') {
        sent += await send(
          candidate.patientUserId,
          message(candidate, 'dose-due', {
            userId: candidate.patientUserId,
            canMark: true,
            caregiver: false,
          }),
          3600,
        );
        continue;
      }
      const patientName = await nameOf(candidate.patientUserId);
      for (const caregiver of await alertedCaregivers(candidate.patientId, candidate.alertCaregivers))
        sent += await send(
          caregiver.userId,
          message(candidate, 'dose-missed', { ...caregiver, patientName, caregiver: true }),
          6 * 3600,
        );
    }
    return sent + (await dueSnoozes(now));
  }

  return {
    runOnce(now = new Date()) {
      // One sweep at a time per server: a slow push service must not pile sweeps up.
      running ??= sweep(now).finally(() => {
        running = undefined;
      });
      return running;
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
      await running?.catch(() => undefined);
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
