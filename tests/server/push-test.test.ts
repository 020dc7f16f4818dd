import webPush from 'web-push';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REMINDER_MESSAGES, TEST_REMINDER } from '../../src/domain/reminders';
import { pushSubscriptions } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';
import { startPushService, type TestPushService } from './push-service';

// POST /api/push/test on the real app: a person checks that reminders reach one of their devices. The
// server sends a test reminder through the push service (a local one that decrypts what it receives, as
// a browser would) to that device only; never to another person's endpoint; and says in plain words when
// the browser has ended the subscription or the push service does not take the message.

let ctx: TestContext;
let push: TestPushService;
let patient: Person;
let other: Person;
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  ctx = await startTestApp({
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
  });
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
  await ctx.close();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  push.messages.length = 0;
  push.rejected.length = 0;
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  other = await makePerson(ctx, 'Patient', 'Olive Other');
});

/** A device of `person` with reminders on: a subscription made for the server's key, given to the server. */
async function deviceOf(person: Person, applicationServerKey = vapid.publicKey): Promise<string> {
  const subscription = push.newSubscription({ applicationServerKey });
  const subscribed = await as(ctx, person, {
    method: 'POST',
    url: '/api/push/subscriptions',
    payload: subscription,
  });
  expect(subscribed.statusCode, subscribed.body).toBe(201);
  return subscription.endpoint;
}

const sendTest = (person: Person, endpoint: unknown) =>
  as(ctx, person, { method: 'POST', url: '/api/push/test', payload: { endpoint } });

describe('a test reminder', () => {
  it('reaches the device it was asked for, and only that one, with the words of a test', async () => {
    const phone = await deviceOf(patient);
    const laptop = await deviceOf(patient);
    const answer = await sendTest(patient, phone);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ success: true, message: REMINDER_MESSAGES.testSent });
    const received = await push.waitForMessage((message) => message.endpoint === phone);
    expect(received.payload).toEqual({ kind: 'test', ...TEST_REMINDER, url: '/' });
    expect(received.urgency).toBe('high');
    expect(push.messages.filter((message) => message.endpoint === laptop)).toEqual([]);
  });

  it("is never sent to another person's device: 404, as for an endpoint nobody has", async () => {
    const theirs = await deviceOf(other);
    const before = push.requestCount();
    const refused = await sendTest(patient, theirs);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(REMINDER_MESSAGES.testUnknownDevice);
    const unknown = await sendTest(patient, `${push.origin}/push/nobody-has-this`);
    expect(unknown.statusCode).toBe(404);
    expect(push.requestCount()).toBe(before);
  });

  it('refuses a missing or malformed endpoint with 400, and anyone not signed in with 401', async () => {
    const before = push.requestCount();
    for (const endpoint of [undefined, '', 42, 'not a url', `https://push.example/${'x'.repeat(1200)}`]) {
      const refused = await sendTest(patient, endpoint);
      expect(refused.statusCode, String(endpoint)).toBe(400);
    }
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/push/test',
      payload: { endpoint: 'https://push.example/abc' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(push.requestCount()).toBe(before);
  });

  it('says the subscription has ended when the browser ended it, and forgets it', async () => {
    const phone = await deviceOf(patient);
    push.expire(phone);
    const gone = await sendTest(patient, phone);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(REMINDER_MESSAGES.testGone);
    const left = await ctx.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone));
    expect(left).toEqual([]);
  });

  it('says so in plain words when the push service refuses the message', async () => {
    // A subscription made for another server's key: the push service refuses this server's signature.
    const phone = await deviceOf(patient, webPush.generateVAPIDKeys().publicKey);
    const refused = await sendTest(patient, phone);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toBe(REMINDER_MESSAGES.testFailed);
    expect(push.messages).toEqual([]);
  });
});
