import webPush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { addedAt, as, makePerson, type Person } from './fixtures';
import { startPushService, type TestPushService } from './push-service';

// One person whose devices' push endpoints accept the connection and never answer must not hold back
// another patient's reminder: not in the same sweep, nor the next one (src/server/push/README.md).
// The hanging endpoints are endpoints of the local push service told to stall: it reads the request
// and says nothing, until the test closes it.

let ctx: TestContext;
let push: TestPushService;
let stalling: Person;
let other: Person;
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  ctx = await startTestApp({
    PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
  });
  push = await startPushService();
});
afterAll(async () => {
  // The push service first: closing it ends the requests still hanging, which the app waits for.
  await push.close();
  await ctx.close();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  push.messages.length = 0;
  push.rejected.length = 0;
  stalling = await makePerson(ctx, 'Patient', 'Stella Stall');
  other = await makePerson(ctx, 'Patient', 'Otto Other');
});

/** The fixed day of these doses: every prescription ends on it, so the real day's doses never come due. */
const DAY = '2026-11-23';
/** 08:00 in New York on DAY. */
const EIGHT = new Date('2026-11-23T13:00:00.000Z');
const at = (minutes: number) => new Date(EIGHT.getTime() + minutes * 60_000 + 1000);
/** Generous: a push service answers in well under a second; the old sweep took 10 s per hanging device. */
const BOUND_MS = 10_000;
const HANGING_DEVICES = 4;

async function subscribe(person: Person) {
  const subscription = push.newSubscription({ applicationServerKey: vapid.publicKey });
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/push/subscriptions',
    payload: subscription,
  });
  expect(response.statusCode, response.body).toBe(201);
  return subscription;
}

async function hangingDevices(person: Person) {
  for (let count = 0; count < HANGING_DEVICES; count += 1) push.stall((await subscribe(person)).endpoint);
}

async function prescribe(person: Person, name: string, time: string) {
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/prescriptions',
    payload: {
      patient_id: person.patientId,
      medicine_name: name,
      strength: '10 mg',
      times: [time],
      start_date: '2026-11-01',
      end_date: DAY,
      time_zone: 'America/New_York',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  await addedAt(ctx, response.json<{ data: { id: string } }>().data.id, new Date('2026-10-01T00:00:00Z'));
}

/** Waits until the push service has had a request more than `before`. */
async function untilARequestSince(before: number) {
  for (let waited = 0; push.requestCount() === before; waited += 20) {
    if (waited > 5000) throw new Error('the push service got no request within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('reminders beside push endpoints that never answer', () => {
  it("sends another patient's reminder at once while one person's devices hang in the same sweep", async () => {
    await hangingDevices(stalling);
    const phone = await subscribe(other);
    // The other patient's prescription between two of the stalling person's, whichever order the sweep
    // reads them in.
    await prescribe(stalling, 'Stalled A', '08:00');
    await prescribe(other, 'Metformin', '08:00');
    await prescribe(stalling, 'Stalled B', '08:00');

    const before = push.requestCount();
    const startedAt = Date.now();
    let sweepEndedAt = Number.POSITIVE_INFINITY;
    const sweep = ctx.app.reminders.runOnce(at(0)).finally(() => {
      sweepEndedAt = Date.now();
    });
    const message = await push.waitForMessage((received) => received.endpoint === phone.endpoint, 30_000);
    expect(message.receivedAt - startedAt).toBeLessThan(BOUND_MS);
    expect(message.receivedAt).toBeLessThan(sweepEndedAt); // not after the hanging devices gave up
    expect(await sweep).toBe(1);
    expect(push.requestCount() - before).toBe(2 * HANGING_DEVICES + 1);
  }, 120_000);

  it("sends the next sweep's reminder while the last sweep's pushes still hang", async () => {
    await hangingDevices(stalling);
    const phone = await subscribe(other);
    await prescribe(stalling, 'Stalled', '08:00');
    await prescribe(other, 'Metformin', '08:30');

    const before = push.requestCount();
    let firstEndedAt = Number.POSITIVE_INFINITY;
    const first = ctx.app.reminders.runOnce(at(0)).finally(() => {
      firstEndedAt = Date.now();
    });
    // Once a device is asked, the first sweep has decided what to send and is waiting on the devices.
    await untilARequestSince(before);
    const startedAt = Date.now();
    const second = ctx.app.reminders.runOnce(at(30));
    const message = await push.waitForMessage((received) => received.endpoint === phone.endpoint, 30_000);
    expect(message.receivedAt - startedAt).toBeLessThan(BOUND_MS);
    expect(message.receivedAt).toBeLessThan(firstEndedAt);
    expect(await second).toBe(1);
    expect(await first).toBe(0);
  }, 120_000);
});
