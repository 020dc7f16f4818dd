import { randomUUID } from 'node:crypto';
import webPush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REMINDER_MESSAGES, reminderPushSchema, type ReminderPush } from '../../src/domain/reminders';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { addedAt as setAddedAt, as, link, makePerson, type Person } from './fixtures';
import { startPushService, type TestPushService } from './push-service';

// Medicine reminders end to end on the real app: devices opt in, the sweep sends each
// due dose to the patient's devices through a local push service that decrypts the message as a
// browser's push service would (RFC 8291), the notification's Taken action marks the dose, an unmarked
// dose alerts the chosen caregivers after the patient's delay, each reminder goes out once (two servers,
// a restart), snoozes come back (to a caregiver only while still allowed), and a subscription the push
// service dropped is forgotten.

let ctx: TestContext;
let push: TestPushService;
let patient: Person;
let carer: Person;
// Every server behind one address shares one VAPID key pair (as they share JWT_SECRET).
const vapid = webPush.generateVAPIDKeys();
const env = {
  PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
};

beforeAll(async () => {
  ctx = await startTestApp(env);
  push = await startPushService();
});
afterAll(async () => {
  await ctx.close();
  await push.close();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  push.messages.length = 0;
  push.rejected.length = 0;
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  carer = await makePerson(ctx, 'Caregiver', 'Cara Carer');
});

const DAY = '2026-11-23';
/** 08:00 in New York on DAY (EST, UTC-5). */
const EIGHT = new Date('2026-11-23T13:00:00.000Z');
const minutes = (count: number) => count * 60_000;
const at = (offset: number) => new Date(EIGHT.getTime() + offset);

async function subscribe(person: Person) {
  const subscription = push.newSubscription({ applicationServerKey: ctx.app.pushSender().publicKey });
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/push/subscriptions',
    payload: subscription,
  });
  expect(response.statusCode, response.body).toBe(201);
  return subscription;
}

/**
 * A prescription added to Kincare at `addedAt` (by default long before the doses these tests sweep): a
 * dose due before its prescription was added is never reminded.
 */
async function prescribe(
  overrides: Record<string, unknown> = {},
  addedAt: Date = new Date('2026-10-01T00:00:00.000Z'),
) {
  const response = await as(ctx, patient, {
    method: 'POST',
    url: '/api/prescriptions',
    payload: {
      patient_id: patient.patientId,
      medicine_name: 'Metformin',
      strength: '500 mg',
      times: ['08:00', '20:00'],
      start_date: '2026-11-01',
      time_zone: 'America/New_York',
      ...overrides,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json<{ data: { id: string } }>().data.id;
  await setAddedAt(ctx, id, addedAt);
  return id;
}

const received = (endpoint: string) =>
  push.messages
    .filter((message) => message.endpoint === endpoint)
    .map((message) => reminderPushSchema.parse(message.payload));

describe('medicine reminders', () => {
  it('sends no reminder, and no caregiver alert, for a dose due before its prescription was added', async () => {
    const phone = await subscribe(patient);
    await link(ctx, patient, carer, ['ReadPrescription', 'EditPrescription']);
    const carerPhone = await subscribe(carer);
    // Added at 08:30 New York time on DAY: its 08:00 dose was due before anyone could mark it.
    await prescribe(
      { times: ['08:00', '20:00'], alert_caregivers: [carer.caregiverId ?? ''], alert_after_minutes: 45 },
      at(minutes(30)),
    );
    expect(await ctx.app.reminders.runOnce(at(minutes(31)))).toBe(0);
    expect(await ctx.app.reminders.runOnce(at(minutes(46)))).toBe(0); // when the alert would be due
    expect(received(phone.endpoint)).toEqual([]);
    expect(received(carerPhone.endpoint)).toEqual([]);
    // Its evening dose is reminded as usual.
    expect(await ctx.app.reminders.runOnce(at(minutes(12 * 60) + 1000))).toBeGreaterThan(0);
    expect(received(phone.endpoint).map((reminder) => reminder.time)).toEqual(['20:00']);
  });

  it('sends each reminder once when two servers sweep at the same moment', async () => {
    const phone = await subscribe(patient);
    await prescribe({ times: ['08:00'] });
    const second = await startTestApp(env, { sharesDatabaseWith: ctx });
    try {
      // On Postgres the sweeps really overlap (each its own connections): only the claim decides.
      // (A server asked again while its sweep runs answers that sweep's count: what counts is what arrived.)
      await Promise.all([ctx, second, ctx, second].map((server) => server.app.reminders.runOnce(at(1000))));
      expect(received(phone.endpoint).map((reminder) => reminder.time)).toEqual(['08:00']);
      expect(push.messages).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('sends a due dose to the patient once, and its Taken action marks the dose', async () => {
    const phone = await subscribe(patient);
    const tablet = await subscribe(patient);
    const id = await prescribe();

    expect(await ctx.app.reminders.runOnce(at(-1000))).toBe(0); // not yet due
    expect(await ctx.app.reminders.runOnce(at(1000))).toBe(2); // both devices
    const [reminder] = received(phone.endpoint);
    expect(reminder).toMatchObject({
      kind: 'dose-due',
      title: 'Metformin 500 mg - 08:00',
      user_id: patient.userId,
      patient_id: patient.patientId ?? '',
      schedule_id: id,
      date: DAY,
      time: '08:00',
      can_mark: true,
      url: '/prescriptions',
    } satisfies Partial<ReminderPush>);
    expect(received(tablet.endpoint)).toHaveLength(1);
    const message = push.messages[0];
    expect(message?.urgency).toBe('high');
    expect(message?.ttl).toBeGreaterThan(0);

    // Sent once: later sweeps (and a second server on the same database) do not send it again.
    expect(await ctx.app.reminders.runOnce(at(minutes(5)))).toBe(0);
    const second = await startTestApp(env, { sharesDatabaseWith: ctx });
    try {
      expect(await second.app.reminders.runOnce(at(minutes(6)))).toBe(0);
    } finally {
      await second.close();
    }

    // The notification's Taken action: the service worker queues this very mark; here it is sent.
    const taken = await as(ctx, patient, {
      method: 'POST',
      url: '/api/prescriptions/schedule/taken',
      payload: {
        schedule_id: reminder?.schedule_id,
        date: reminder?.date,
        time: reminder?.time,
        is_taken: true,
      },
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const schedule = await as(ctx, patient, {
      method: 'GET',
      url: `/api/prescriptions/schedule?date=${DAY}`,
    });
    expect(schedule.json().data[0].doses[0]).toMatchObject({
      time: '08:00',
      is_taken: true,
      marked_by: patient.userId,
    });
    expect(push.rejected).toEqual([]);
  });

  it('alerts the chosen caregivers when a dose is not marked within the delay, and not when it is', async () => {
    await subscribe(patient);
    const carerPhone = await subscribe(carer);
    const other = await makePerson(ctx, 'Caregiver', 'Not chosen');
    const otherPhone = await subscribe(other);
    await link(ctx, patient, carer, ['ReadPrescription', 'EditPrescription']);
    await link(ctx, patient, other, ['ReadPrescription']);
    const carerId = carer.caregiverId ?? '';
    const id = await prescribe({ alert_caregivers: [carerId], alert_after_minutes: 45 });

    await ctx.app.reminders.runOnce(at(1000));
    expect(received(carerPhone.endpoint)).toEqual([]); // the dose reminder is the patient's
    await ctx.app.reminders.runOnce(at(minutes(44)));
    expect(received(carerPhone.endpoint)).toEqual([]); // not yet: the patient chose 45 minutes
    await ctx.app.reminders.runOnce(at(minutes(45) + 1000));
    expect(received(carerPhone.endpoint)).toEqual([
      expect.objectContaining({
        kind: 'dose-missed',
        title: 'Metformin 500 mg - 08:00',
        body: 'Pat Patient has not marked this dose as taken.',
        user_id: carer.userId,
        schedule_id: id,
        can_mark: true,
        url: '/caregiver/prescriptions',
      }),
    ]);
    expect(received(otherPhone.endpoint)).toEqual([]); // not chosen for this medicine

    // The 20:00 dose is marked in time: no alert for it.
    const marked = await as(ctx, patient, {
      method: 'POST',
      url: '/api/prescriptions/schedule/taken',
      payload: { schedule_id: id, date: DAY, time: '20:00', is_taken: true },
    });
    expect(marked.statusCode).toBe(200);
    const before = push.messages.length;
    await ctx.app.reminders.runOnce(at(minutes(12 * 60 + 50)));
    expect(push.messages.length).toBe(before);
  });

  it('does not alert a caregiver who lost ReadPrescription, and tells one without Edit they cannot mark', async () => {
    const carerPhone = await subscribe(carer);
    await link(ctx, patient, carer, ['ReadPrescription']);
    await prescribe({ alert_caregivers: [carer.caregiverId], reminders: false, times: ['08:00'] });
    await ctx.app.reminders.runOnce(at(minutes(61)));
    expect(received(carerPhone.endpoint)).toMatchObject([{ kind: 'dose-missed', can_mark: false }]);

    push.messages.length = 0;
    const revoked = await makePerson(ctx, 'Caregiver', 'Revoked');
    const revokedPhone = await subscribe(revoked);
    await link(ctx, patient, revoked, ['ReadAppointment']);
    await prescribe({
      medicine_name: 'Lisinopril',
      times: ['09:00'],
      alert_caregivers: [revoked.caregiverId],
      reminders: false,
    });
    await ctx.app.reminders.runOnce(at(minutes(60 + 61)));
    expect(received(revokedPhone.endpoint)).toEqual([]);
  });

  it('sends no reminder for a dose already marked, on hold, ended, or long past, and no late flood after a restart', async () => {
    const phone = await subscribe(patient);
    const marked = await prescribe({ medicine_name: 'Marked', times: ['08:00'] });
    await as(ctx, patient, {
      method: 'POST',
      url: '/api/prescriptions/schedule/taken',
      payload: { schedule_id: marked, date: DAY, time: '08:00', is_taken: false },
    });
    await prescribe({ medicine_name: 'Held', times: ['08:00'], status: 'on_hold' });
    await prescribe({ medicine_name: 'Ended', times: ['08:00'], end_date: '2026-11-22' });
    await prescribe({ medicine_name: 'Quiet', times: ['08:00'], reminders: false });
    await ctx.app.reminders.runOnce(at(minutes(1)));
    expect(received(phone.endpoint)).toEqual([]);

    // A server down from 07:00 to 11:00 sends the 08:00 dose when it comes back (within the catch-up
    // window of 120 minutes, it is still worth it), but not one from three hours before.
    await prescribe({ medicine_name: 'Recent', times: ['09:30'] });
    await prescribe({ medicine_name: 'Old', times: ['07:45'] });
    await ctx.app.reminders.runOnce(at(minutes(3 * 60)));
    expect(received(phone.endpoint).map((message) => message.title)).toEqual(['Recent 500 mg - 09:30']);
  });

  it('sends a snoozed reminder again after the snooze, once', async () => {
    const phone = await subscribe(patient);
    // The snooze is due ten minutes after the real clock's now, and the sweeps below run then: a
    // prescription still going on the real day would have its own 08:00 New York dose due in that
    // sweep's catch-up window for two hours of every day. Ending it on DAY leaves only the snooze.
    const id = await prescribe({ times: ['08:00'], end_date: DAY });
    await ctx.app.reminders.runOnce(at(1000));
    const snoozed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/push/snooze',
      payload: { schedule_id: id, date: DAY, time: '08:00', minutes: 10 },
    });
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(snoozed.json().message).toBe(REMINDER_MESSAGES.snoozed(10));
    const dueAt = new Date(snoozed.json().due_at as string);

    expect(await ctx.app.reminders.runOnce(new Date(dueAt.getTime() - 1000))).toBe(0);
    expect(await ctx.app.reminders.runOnce(new Date(dueAt.getTime() + 1000))).toBe(1);
    expect(await ctx.app.reminders.runOnce(new Date(dueAt.getTime() + 2000))).toBe(0);
    expect(received(phone.endpoint).map((message) => message.title)).toEqual([
      'Metformin 500 mg - 08:00',
      'Metformin 500 mg - 08:00',
    ]);
    // Snoozing a prescription one may not see: 404; a bad snooze: 400.
    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    const hidden = await as(ctx, stranger, {
      method: 'POST',
      url: '/api/push/snooze',
      payload: { schedule_id: id, date: DAY, time: '08:00' },
    });
    expect(hidden.statusCode).toBe(404);
    const tooLong = await as(ctx, patient, {
      method: 'POST',
      url: '/api/push/snooze',
      payload: { schedule_id: id, date: DAY, time: '08:00', minutes: 600 },
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('sends a snoozed reminder to a caregiver only while they may still read prescriptions', async () => {
    const carerPhone = await subscribe(carer);
    const linkId = await link(ctx, patient, carer, ['ReadPrescription', 'EditPrescription']);
    // Ending on DAY: the snoozes are due by the real clock, and no real-day dose may come due with them.
    const id = await prescribe({ times: ['08:00'], end_date: DAY });
    /** The caregiver snoozes the 08:00 reminder; then `meanwhile`; then the sweep when the snooze is due. */
    async function snoozeThen(meanwhile: () => Promise<void>) {
      const snoozed = await as(ctx, carer, {
        method: 'POST',
        url: '/api/push/snooze',
        payload: { schedule_id: id, date: DAY, time: '08:00', minutes: 10 },
      });
      expect(snoozed.statusCode, snoozed.body).toBe(200);
      await meanwhile();
      push.messages.length = 0;
      const dueAt = new Date(snoozed.json().due_at as string);
      const sent = await ctx.app.reminders.runOnce(new Date(dueAt.getTime() + 1000));
      return { sent, received: received(carerPhone.endpoint) };
    }
    const setPermissions = async (permissions: string[]) => {
      const updated = await as(ctx, patient, {
        method: 'PUT',
        url: '/api/request/update-permission',
        payload: { permission_id: linkId, permissions },
      });
      expect(updated.statusCode, updated.body).toBe(200);
    };

    expect(await snoozeThen(async () => undefined)).toMatchObject({
      sent: 1,
      received: [
        {
          kind: 'dose-due',
          user_id: carer.userId,
          schedule_id: id,
          can_mark: true,
          url: '/caregiver/prescriptions',
        },
      ],
    });
    // What the caregiver may do is read when it is sent: EditPrescription taken away meanwhile.
    expect(await snoozeThen(() => setPermissions(['ReadPrescription']))).toMatchObject({
      sent: 1,
      received: [{ can_mark: false }],
    });
    // ReadPrescription taken away after the snooze: nothing, not even the medicine's name.
    expect(await snoozeThen(() => setPermissions(['ReadAppointment']))).toEqual({ sent: 0, received: [] });
    // Removed as the patient's caregiver after the snooze: nothing.
    await setPermissions(['ReadPrescription']);
    const removed = await snoozeThen(async () => {
      const deleted = await as(ctx, patient, {
        method: 'POST',
        url: '/api/request/delete',
        payload: { request_id: linkId, status: 'approved', request_type: 'approved' },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
    });
    expect(removed).toEqual({ sent: 0, received: [] });
    expect(push.messages).toEqual([]);
  });

  it('runs on its own timer on a started server, and forgets a subscription the push service dropped', async () => {
    const timed = await startTestApp({ ...env, REMINDER_INTERVAL_SECONDS: '1' }, { sharesDatabaseWith: ctx });
    try {
      const phone = await subscribe(patient);
      const gone = await subscribe(patient);
      push.expire(gone.endpoint);
      // A dose due one minute ago, in the patient's zone, today: the next tick sends it.
      const now = new Date(Date.now() - 60_000);
      const zone = 'UTC';
      const time = now.toISOString().slice(11, 16);
      await prescribe({ times: [time], time_zone: zone, start_date: now.toISOString().slice(0, 10) });
      timed.app.reminders.start(200);
      const message = await push.waitForMessage((candidate) => candidate.endpoint === phone.endpoint, 5000);
      expect(reminderPushSchema.parse(message.payload).time).toBe(time);
      await timed.app.reminders.stop();
      const left = await as(ctx, patient, {
        method: 'DELETE',
        url: '/api/push/subscriptions',
        payload: { endpoint: gone.endpoint },
      });
      expect(left.statusCode).toBe(404); // already forgotten after the 410
    } finally {
      await timed.close();
    }
  });

  it('checks subscriptions: https endpoints and real keys only, and each person removes only their own', async () => {
    const noHttp = await startTestApp(
      { ...env, PUSH_ALLOW_HTTP_ENDPOINTS: 'false' },
      { sharesDatabaseWith: ctx },
    );
    try {
      const subscription = push.newSubscription();
      const refused = await as(noHttp, patient, {
        method: 'POST',
        url: '/api/push/subscriptions',
        payload: subscription,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(REMINDER_MESSAGES.endpointInvalid);
    } finally {
      await noHttp.close();
    }
    const good = push.newSubscription();
    const bad = [
      { ...good, endpoint: 'not a url' },
      { ...good, keys: { ...good.keys, p256dh: 'AAAA' } },
      { ...good, keys: { ...good.keys, auth: 'x'.repeat(40) } },
      { ...good, time_zone: 'Nowhere/Land' },
      { endpoint: good.endpoint },
    ];
    for (const payload of bad) {
      const response = await as(ctx, patient, { method: 'POST', url: '/api/push/subscriptions', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    await subscribe(patient);
    const mine = await subscribe(carer);
    const notMine = await as(ctx, patient, {
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: mine.endpoint },
    });
    expect(notMine.statusCode).toBe(404);
    const removed = await as(ctx, carer, {
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: mine.endpoint },
    });
    expect(removed.statusCode).toBe(200);
    // An endpoint that is not an address (a control character in it, as the fuzz gate sent) is a 400.
    for (const endpoint of ['5e5a1ee9-0009-1000-816b-6873168e626a\u0000', 'not an address']) {
      const refused = await as(ctx, carer, {
        method: 'DELETE',
        url: '/api/push/subscriptions',
        payload: { endpoint },
      });
      expect(refused.statusCode, endpoint).toBe(400);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/push/public-key' })).statusCode).toBe(401);
    const key = await as(ctx, patient, { method: 'GET', url: '/api/push/public-key' });
    expect(key.json().publicKey).toBe(ctx.app.pushSender().publicKey);
    expect(randomUUID()).not.toBe(key.json().publicKey);
  });
});
