import webPush from 'web-push';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PUSH_DEVICES_PER_PERSON, REMINDER_MESSAGES } from '../../src/domain/reminders';
import { pushSubscriptions } from '../../src/server/db/schema';
import type { HostResolver } from '../../src/server/push/sender';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';
import { startPushService, type TestPushService } from './push-service';

// POST /api/push/subscriptions on the real app: an endpoint is taken only on a host of the public
// internet (checked on the address, and on what a name resolves to), and one person holds at most
// MAX_PUSH_DEVICES_PER_PERSON subscriptions, the newest. The strict server is configured as in
// production; the other lets http and loopback through for the local push service. Host names are
// resolved by a resolver the test puts in place (this machine has no DNS for real names), and no push
// is sent to any of them.

let ctx: TestContext;
let strict: TestContext;
let push: TestPushService;
let patient: Person;
const vapid = webPush.generateVAPIDKeys();
const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };

const names: Record<string, string[]> = {
  'push.example': ['142.250.185.74', '2a00:1450:4001:80b::200a'],
  'metadata.example': ['169.254.169.254'],
  'intranet.example': ['10.20.30.40'],
  'split.example': ['142.250.185.74', '192.168.1.10'],
};
const testResolver: HostResolver = async (hostname) => names[hostname] ?? [];

beforeAll(async () => {
  ctx = await startTestApp({ ...env, PUSH_ALLOW_HTTP_ENDPOINTS: 'true' });
  strict = await startTestApp(env, { sharesDatabaseWith: ctx });
  strict.app.pushHostResolver = testResolver;
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
  await strict.close();
  await ctx.close();
});
beforeEach(async () => {
  await resetDatabase(ctx);
  push.messages.length = 0;
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  // The server that made the token writes its session in the background; a call there waits for it,
  // so that the other server finds the session too.
  expect((await as(ctx, patient, { method: 'GET', url: '/api/push/public-key' })).statusCode).toBe(200);
});

const keys = () => push.newSubscription().keys;

function subscribeTo(app: TestContext, person: Person, endpoint: string) {
  return as(app, person, {
    method: 'POST',
    url: '/api/push/subscriptions',
    payload: { endpoint, keys: keys() },
  });
}

const storedEndpoints = async (person: Person) =>
  (
    await ctx.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, person.userId))
  ).map((row) => row.endpoint);

describe('push endpoints', () => {
  it('refuses an endpoint on an address off the internet, in any spelling, saying why, and keeps nothing', async () => {
    const refused: [string, RegExp][] = [
      ['https://127.0.0.1/push/abc', /loopback/],
      ['https://2130706433/push/abc', /127\.0\.0\.1 is a loopback/],
      ['https://0x7f.1/push/abc', /127\.0\.0\.1 is a loopback/],
      ['https://[::1]/push/abc', /loopback/],
      ['https://[::ffff:127.0.0.1]/push/abc', /loopback/],
      ['https://localhost/push/abc', /this server itself/],
      ['https://push.localhost/abc', /this server itself/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://[fe80::1]/push', /link-local/],
      ['https://10.1.2.3/push', /private network/],
      ['https://172.16.0.1/push', /private network/],
      ['https://192.168.0.1/push', /private network/],
      ['https://100.64.1.1/push', /carrier-grade NAT/],
      ['https://[fd00::1]/push', /unique local/],
      ['https://0.0.0.0/push', /unspecified/],
      ['https://224.0.0.251/push', /multicast/],
      ['https://255.255.255.255/push', /broadcast/],
      ['https://metadata.example/latest', /metadata\.example resolves to 169\.254\.169\.254, a link-local/],
      ['https://intranet.example/push', /resolves to 10\.20\.30\.40, a private network/],
      ['https://split.example/push', /resolves to 192\.168\.1\.10, a private network/],
    ];
    for (const [endpoint, why] of refused) {
      const response = await subscribeTo(strict, patient, endpoint);
      expect(response.statusCode, `${endpoint} ${response.body}`).toBe(400);
      expect(response.json(), endpoint).toMatchObject({
        message: REMINDER_MESSAGES.endpointNotPublic,
        errors: [{ path: 'endpoint', msg: expect.stringMatching(why) }],
      });
    }
    expect(await storedEndpoints(patient)).toEqual([]);
  });

  it('refuses a host that cannot be found, and plain http', async () => {
    const unknown = await subscribeTo(strict, patient, 'https://nowhere.example/push');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      message: REMINDER_MESSAGES.endpointHostUnknown,
      errors: [{ path: 'endpoint', msg: "The push endpoint's host nowhere.example could not be found." }],
    });
    const http = await subscribeTo(strict, patient, 'http://push.example/push');
    expect(http.statusCode).toBe(400);
    expect(http.json().message).toBe(REMINDER_MESSAGES.endpointInvalid);
    expect(await storedEndpoints(patient)).toEqual([]);
  });

  it('takes an https endpoint whose host resolves to public addresses', async () => {
    const response = await subscribeTo(strict, patient, 'https://push.example/send/abc');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ success: true, message: REMINDER_MESSAGES.enabled });
    expect(await storedEndpoints(patient)).toEqual(['https://push.example/send/abc']);
  });
});

describe('devices per person', () => {
  const subscribe = (person: Person, endpoint: string) => subscribeTo(ctx, person, endpoint);

  it(`keeps the newest ${MAX_PUSH_DEVICES_PER_PERSON} devices of a person, saying so when one gives way`, async () => {
    const endpoints = Array.from(
      { length: MAX_PUSH_DEVICES_PER_PERSON + 2 },
      () => push.newSubscription().endpoint,
    );
    for (const endpoint of endpoints.slice(0, MAX_PUSH_DEVICES_PER_PERSON)) {
      const response = await subscribe(patient, endpoint);
      expect(response.json()).toEqual({ success: true, message: REMINDER_MESSAGES.enabled });
    }
    // The same device again is no new device: nothing gives way, and it is now the newest.
    const again = await subscribe(patient, endpoints[0] ?? '');
    expect(again.json().message).toBe(REMINDER_MESSAGES.enabled);
    const eleventh = await subscribe(patient, endpoints[MAX_PUSH_DEVICES_PER_PERSON] ?? '');
    expect(eleventh.statusCode).toBe(201);
    expect(eleventh.json().message).toBe(REMINDER_MESSAGES.enabledOldestReplaced);
    const kept = await storedEndpoints(patient);
    expect(kept).toHaveLength(MAX_PUSH_DEVICES_PER_PERSON);
    expect(kept).not.toContain(endpoints[1]); // the oldest, once the first was subscribed again
    expect(kept).toContain(endpoints[0]);

    // Another person's devices are theirs: the count is per person.
    const other = await makePerson(ctx, 'Patient', 'Other');
    expect((await subscribe(other, endpoints[MAX_PUSH_DEVICES_PER_PERSON + 1] ?? '')).json().message).toBe(
      REMINDER_MESSAGES.enabled,
    );
    expect(await storedEndpoints(patient)).toHaveLength(MAX_PUSH_DEVICES_PER_PERSON);
  });

  it('holds the limit when many devices subscribe at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: MAX_PUSH_DEVICES_PER_PERSON + 5 }, () =>
        subscribe(patient, push.newSubscription().endpoint),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    expect(await storedEndpoints(patient)).toHaveLength(MAX_PUSH_DEVICES_PER_PERSON);
  });
});
