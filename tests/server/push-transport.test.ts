import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import type * as fs from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import webPush from 'web-push';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/server/config';
import {
  createPushSender,
  MAX_PUSH_PAYLOAD_BYTES,
  pushEndpointProblem,
  pushSubscriptionKeysSchema,
  type PushSender,
} from '../../src/server/push/sender';
import { loadVapidKeys, VAPID_KEYS_FILE, vapidPairProblem } from '../../src/server/push/vapid';
import { startPushService, type TestPushService } from './push-service';

// The Web Push transport on its own: the VAPID keys (made once and kept, or given and checked), and the
// sender talking to a local push service that checks and decrypts like a browser's (./push-service.ts,
// written from the RFCs without web-push, so the two can disagree).

// To play "another server linked the key file first", linkSync can be told to put a file in place just
// before it runs; every other fs call is the real one.
const linkRace = vi.hoisted(() => ({ before: undefined as ((target: string) => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return {
    ...actual,
    linkSync: (existing: fs.PathLike, target: fs.PathLike) => {
      linkRace.before?.(String(target));
      actual.linkSync(existing, target);
    },
  };
});

const SUBJECT = 'mailto:reminders@kincare.example';

describe('loadVapidKeys', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kincare-vapid-'));
  });
  afterEach(() => {
    linkRace.before = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The ConfigError message loading these keys gives; fails the test when they are accepted. */
  function refusal(publicKey: string | undefined, privateKey: string | undefined): string {
    try {
      loadVapidKeys({ dataDir, publicKey, privateKey });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('loadVapidKeys accepted the keys');
  }

  it('makes a valid pair once, keeps it readable only by the server, and gives it back on the next start', () => {
    const first = loadVapidKeys({ dataDir });
    expect(vapidPairProblem(first.publicKey, first.privateKey)).toBeNull();
    const file = join(dataDir, VAPID_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys({ dataDir })).toEqual(first);
    // Nothing left behind from the temporary file.
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('uses the pair of the server that linked the file first, not the one it made itself', () => {
    const winner = webPush.generateVAPIDKeys();
    linkRace.before = (target) => {
      linkRace.before = undefined;
      writeFileSync(target, JSON.stringify(winner), { mode: 0o600 });
    };
    expect(loadVapidKeys({ dataDir })).toEqual(winner);
  });

  it('gives every server the same pair when several start at once on one DATA_DIR', async () => {
    // Each process waits for the same moment, then loads the keys: their first looks at the file collide.
    const script = join(dataDir, 'load-keys.mts');
    const vapidModule = resolve('src/server/push/vapid.ts');
    writeFileSync(
      script,
      `import { loadVapidKeys } from ${JSON.stringify(vapidModule)};
const startAt = Number(process.argv[2]);
while (Date.now() < startAt) {}
console.log(JSON.stringify(loadVapidKeys({ dataDir: process.argv[3] })));`,
    );
    const keysDir = join(dataDir, 'shared');
    const startAt = String(Date.now() + 2500);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', script, startAt, keysDir]),
      ),
    );
    const pairs = runs.map((run) => JSON.parse(run.stdout) as unknown);
    const kept = JSON.parse(readFileSync(join(keysDir, VAPID_KEYS_FILE), 'utf8')) as unknown;
    for (const pair of pairs) expect(pair).toEqual(kept);
  });

  it('accepts a given pair and writes nothing', () => {
    const given = webPush.generateVAPIDKeys();
    expect(loadVapidKeys({ dataDir, ...given })).toEqual(given);
    expect(existsSync(join(dataDir, VAPID_KEYS_FILE))).toBe(false);
  });

  it('refuses two halves of different pairs, naming the setting', () => {
    const one = webPush.generateVAPIDKeys();
    const other = webPush.generateVAPIDKeys();
    expect(refusal(one.publicKey, other.privateKey)).toMatch(
      /VAPID_PUBLIC_KEY: does not belong to VAPID_PRIVATE_KEY/,
    );
  });

  it('refuses half a pair, naming the missing setting', () => {
    const pair = webPush.generateVAPIDKeys();
    expect(refusal(pair.publicKey, undefined)).toMatch(
      /VAPID_PRIVATE_KEY: must be set together with VAPID_PUBLIC_KEY/,
    );
    expect(refusal(undefined, pair.privateKey)).toMatch(
      /VAPID_PUBLIC_KEY: must be set together with VAPID_PRIVATE_KEY/,
    );
    expect(existsSync(join(dataDir, VAPID_KEYS_FILE))).toBe(false);
  });

  it('refuses keys that are not P-256 keys in base64url', () => {
    const pair = webPush.generateVAPIDKeys();
    expect(refusal(pair.publicKey, 'not base64url!')).toMatch(/VAPID_PRIVATE_KEY: must be base64url/);
    expect(refusal(pair.publicKey, pair.privateKey.slice(0, 20))).toMatch(
      /VAPID_PRIVATE_KEY: must decode to 32 bytes/,
    );
    expect(refusal(pair.publicKey.slice(0, 40), pair.privateKey)).toMatch(
      /VAPID_PUBLIC_KEY: must decode to 65 bytes/,
    );
    // Zero is not a private key.
    expect(refusal(pair.publicKey, Buffer.alloc(32).toString('base64url'))).toMatch(
      /VAPID_PRIVATE_KEY: is not a valid P-256 private key/,
    );
  });

  it('refuses a damaged key file, naming it', () => {
    const file = join(dataDir, VAPID_KEYS_FILE);
    writeFileSync(file, '{"publicKey":');
    expect(refusal(undefined, undefined)).toContain(`${file} is damaged`);
    const one = webPush.generateVAPIDKeys();
    const other = webPush.generateVAPIDKeys();
    writeFileSync(file, JSON.stringify({ publicKey: one.publicKey, privateKey: other.privateKey }));
    expect(refusal(undefined, undefined)).toMatch(/is damaged \(publicKey: does not belong to privateKey/);
    // Left as it was: deleting it is the operator's call (every subscription is tied to the pair).
    expect(readFileSync(file, 'utf8')).toContain(one.publicKey);
  });
});

describe('pushEndpointProblem', () => {
  it('takes https endpoints, and http ones only when allowed', () => {
    expect(pushEndpointProblem('https://fcm.googleapis.com/fcm/send/abc', false)).toBeNull();
    expect(pushEndpointProblem('http://127.0.0.1:9/push/abc', true)).toBeNull();
    expect(pushEndpointProblem('http://169.254.169.254/latest/meta-data', false)).toMatch(
      /must be an https: address/,
    );
    expect(pushEndpointProblem('ftp://push.example/abc', true)).toMatch(/must be an https: address/);
    expect(pushEndpointProblem('file:///etc/passwd', true)).toMatch(/must be an https: address/);
    expect(pushEndpointProblem('not a url', false)).toMatch(/not a URL/);
  });

  it('refuses credentials in the URL', () => {
    expect(pushEndpointProblem('https://user:secret@push.example/abc', false)).toMatch(
      /user name or password/,
    );
    expect(pushEndpointProblem('https://user@push.example/abc', false)).toMatch(/user name or password/);
  });

  it('refuses endpoints over 1,000 characters', () => {
    const base = 'https://push.example/';
    expect(pushEndpointProblem(base + 'a'.repeat(1000 - base.length), false)).toBeNull();
    expect(pushEndpointProblem(base + 'a'.repeat(1001 - base.length), false)).toMatch(/longer than 1000/);
  });
});

describe('pushSubscriptionKeysSchema', () => {
  const browserSubscription = {
    endpoint: 'https://push.example/abc',
    // A P-256 point and auth secret as a browser makes them (see push-service.ts).
    keys: {
      p256dh: Buffer.concat([Buffer.from([0x04]), Buffer.alloc(64, 7)]).toString('base64url'),
      auth: Buffer.alloc(16, 9).toString('base64url'),
    },
  };

  function messagesFor(value: unknown): string[] {
    const parsed = pushSubscriptionKeysSchema.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
  }

  it('accepts what a browser sends, dropping expirationTime', () => {
    const parsed = pushSubscriptionKeysSchema.parse({ ...browserSubscription, expirationTime: null });
    expect(parsed).toEqual(browserSubscription);
  });

  it('refuses keys of the wrong shape with a message saying which', () => {
    const compressed = Buffer.concat([Buffer.from([0x02]), Buffer.alloc(64, 7)]).toString('base64url');
    const short = Buffer.concat([Buffer.from([0x04]), Buffer.alloc(32, 7)]).toString('base64url');
    for (const p256dh of [compressed, short, 'not base64!', '']) {
      expect(messagesFor({ ...browserSubscription, keys: { ...browserSubscription.keys, p256dh } })).toEqual([
        expect.stringMatching(/keys.p256dh must be base64url of an uncompressed P-256 public key/),
      ]);
    }
    for (const auth of [
      Buffer.alloc(15).toString('base64url'),
      Buffer.alloc(17).toString('base64url'),
      '#',
    ]) {
      expect(messagesFor({ ...browserSubscription, keys: { ...browserSubscription.keys, auth } })).toEqual([
        expect.stringMatching(/keys.auth must be base64url of the 16-byte/),
      ]);
    }
    expect(messagesFor({ endpoint: browserSubscription.endpoint })).toEqual([
      'keys must hold p256dh and auth',
    ]);
  });

  it('refuses an endpoint that is not a URL or is too long', () => {
    expect(messagesFor({ ...browserSubscription, endpoint: 'push.example/abc' })).toEqual([
      'endpoint must be a URL',
    ]);
    expect(
      messagesFor({ ...browserSubscription, endpoint: `https://push.example/${'a'.repeat(1000)}` }),
    ).toEqual(['endpoint must be at most 1000 characters']);
  });
});

describe('createPushSender with a push service', () => {
  let service: TestPushService;
  let keys: { publicKey: string; privateKey: string };
  let sender: PushSender;

  beforeAll(async () => {
    service = await startPushService();
    keys = webPush.generateVAPIDKeys();
    sender = createPushSender({ ...keys, subject: SUBJECT, allowInsecureEndpoints: true, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(() => {
    service.messages.length = 0;
    service.rejected.length = 0;
  });

  const reminder = {
    type: 'medicine-reminder',
    title: 'Time for Metformin 500 mg',
    body: 'Take 1 tablet with food — ça va? 💊',
    at: '2026-11-23T08:00:00.000Z',
    doses: [{ id: 'd1', amount: 1.5 }, null, true],
  };

  it('delivers the exact payload, TTL, urgency and topic, encrypted for the browser and signed with the server key', async () => {
    const subscription = service.newSubscription({ applicationServerKey: keys.publicKey });
    const outcome = await sender.send(subscription, reminder, {
      ttlSeconds: 3600,
      urgency: 'high',
      topic: 'dose-d1',
    });
    expect(outcome).toEqual({ status: 'sent' });
    const message = await service.waitForMessage(
      (received) => received.endpoint === subscription.endpoint,
      2000,
    );
    expect(message).toEqual({
      endpoint: subscription.endpoint,
      payload: reminder,
      receivedAt: expect.any(Number),
      ttl: 3600,
      urgency: 'high',
      topic: 'dose-d1',
    });
    expect(service.rejected).toEqual([]);
    expect(sender.publicKey).toBe(keys.publicKey);
  });

  it('sends urgency normal and no topic when none is asked for, and TTL 0 as 0', async () => {
    const subscription = service.newSubscription();
    expect(await sender.send(subscription, 'plain', { ttlSeconds: 0 })).toEqual({ status: 'sent' });
    const message = await service.waitForMessage(
      (received) => received.endpoint === subscription.endpoint,
      2000,
    );
    expect(message).toMatchObject({ payload: 'plain', ttl: 0, urgency: 'normal', topic: undefined });
  });

  it('is refused by the push service when the private key does not belong to the public key it sends', async () => {
    const other = webPush.generateVAPIDKeys();
    const tampered = createPushSender({
      publicKey: keys.publicKey,
      privateKey: other.privateKey,
      subject: SUBJECT,
      allowInsecureEndpoints: true,
    });
    const subscription = service.newSubscription();
    const outcome = await tampered.send(subscription, reminder, { ttlSeconds: 60 });
    expect(outcome).toMatchObject({ status: 'failed', statusCode: 403 });
    expect(service.rejected).toEqual([
      expect.objectContaining({ status: 403, reason: 'the VAPID JWT is not signed by the key in k' }),
    ]);
    expect(service.messages).toEqual([]);
  });

  it('is refused by an endpoint subscribed with another server key', async () => {
    const subscription = service.newSubscription({
      applicationServerKey: webPush.generateVAPIDKeys().publicKey,
    });
    expect(await sender.send(subscription, reminder, { ttlSeconds: 60 })).toMatchObject({
      status: 'failed',
      statusCode: 403,
    });
    expect(service.rejected[0]?.reason).toMatch(/applicationServerKey/);
  });

  it('reports a subscription the push service calls gone (410) or does not know (404)', async () => {
    const subscription = service.newSubscription();
    service.expire(subscription.endpoint);
    expect(await sender.send(subscription, reminder, { ttlSeconds: 60 })).toEqual({ status: 'gone' });
    const unknown = { ...service.newSubscription(), endpoint: `${service.origin}/push/never-made` };
    expect(await sender.send(unknown, reminder, { ttlSeconds: 60 })).toEqual({ status: 'gone' });
    expect(service.rejected.map((refusal) => refusal.status)).toEqual([410, 404]);
  });

  it('sends nothing to an http endpoint unless allowed, nor to one with credentials', async () => {
    const strict = createPushSender({ ...keys, subject: SUBJECT });
    const subscription = service.newSubscription();
    const before = service.requestCount();
    expect(await strict.send(subscription, reminder, { ttlSeconds: 60 })).toEqual({
      status: 'failed',
      statusCode: null,
      message: 'The push endpoint must be an https: address.',
    });
    const withCredentials = {
      ...subscription,
      endpoint: subscription.endpoint.replace('http://', 'http://admin:pw@'),
    };
    expect(await sender.send(withCredentials, reminder, { ttlSeconds: 60 })).toMatchObject({
      status: 'failed',
      statusCode: null,
    });
    expect(service.requestCount()).toBe(before);
  });

  it('sends a payload of 3,000 bytes but not one byte more, counting bytes rather than characters', async () => {
    const subscription = service.newSubscription();
    const largest = 'x'.repeat(MAX_PUSH_PAYLOAD_BYTES - 2); // JSON adds the two quotes.
    expect(await sender.send(subscription, largest, { ttlSeconds: 60 })).toEqual({ status: 'sent' });
    const before = service.requestCount();
    const tooLarge = await sender.send(subscription, `${largest}x`, { ttlSeconds: 60 });
    expect(tooLarge).toEqual({
      status: 'failed',
      statusCode: null,
      message: 'The payload is 3001 bytes; at most 3000 may be sent.',
    });
    // 1,501 characters, 3,004 bytes.
    expect(await sender.send(subscription, 'é'.repeat(1500), { ttlSeconds: 60 })).toMatchObject({
      status: 'failed',
      statusCode: null,
    });
    expect(service.requestCount()).toBe(before);
  });

  it('gives up on a push service that never answers after timeoutMs', async () => {
    const impatient = createPushSender({
      ...keys,
      subject: SUBJECT,
      allowInsecureEndpoints: true,
      timeoutMs: 300,
    });
    const subscription = service.newSubscription();
    service.stall(subscription.endpoint);
    const started = Date.now();
    const outcome = await impatient.send(subscription, reminder, { ttlSeconds: 60 });
    const took = Date.now() - started;
    expect(outcome).toEqual({
      status: 'failed',
      statusCode: null,
      message: 'The push service could not be reached: the push service did not answer within 300 ms',
    });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3000);
  });

  it('fails without throwing when the payload is not JSON or a setting is wrong', async () => {
    const subscription = service.newSubscription();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await sender.send(subscription, circular, { ttlSeconds: 60 })).toMatchObject({ status: 'failed' });
    expect(await sender.send(subscription, undefined, { ttlSeconds: 60 })).toMatchObject({
      status: 'failed',
    });
    expect(await sender.send(subscription, 1, { ttlSeconds: -1 })).toMatchObject({ status: 'failed' });
    expect(await sender.send(subscription, 1, { ttlSeconds: 60, topic: 'not a topic!' })).toMatchObject({
      status: 'failed',
    });
    expect(() => createPushSender({ ...keys, subject: 'http://kincare.example' })).toThrow(
      /mailto: or https:/,
    );
  });
});

describe('the test push service itself', () => {
  // It must refuse what a real one refuses, or the sender's tests above would pass against anything.
  let service: TestPushService;
  const keys = webPush.generateVAPIDKeys();

  beforeAll(async () => {
    service = await startPushService();
  });
  afterAll(async () => {
    await service.close();
  });

  /** Posts a message web-push built for `builtFor` to `postTo`, optionally with another Authorization. */
  async function post(
    builtFor: { endpoint: string; keys: { p256dh: string; auth: string } },
    postTo: string,
    authorization?: string,
  ): Promise<number> {
    const details = webPush.generateRequestDetails(builtFor, JSON.stringify({ hello: 1 }), {
      vapidDetails: { subject: SUBJECT, ...keys },
      TTL: 60,
      contentEncoding: 'aes128gcm',
    });
    const headers = Object.fromEntries(
      Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
    );
    if (authorization) headers.Authorization = authorization;
    const answer = await fetch(postTo, { method: 'POST', headers, body: new Uint8Array(details.body) });
    return answer.status;
  }

  /**
   * An aes128gcm body for `subscription` (RFC 8291 with node's own HKDF), with the record's delimiter and
   * zero padding chosen by the test, which web-push never varies.
   */
  function sealByHand(
    subscription: { keys: { p256dh: string; auth: string } },
    text: string,
    delimiter: number,
    paddingBytes: number,
  ): Uint8Array<ArrayBuffer> {
    const senderKeys = createECDH('prime256v1');
    const senderPublic = senderKeys.generateKeys();
    const browserPublic = Buffer.from(subscription.keys.p256dh, 'base64url');
    const salt = randomBytes(16);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, senderPublic]);
    const ikm = Buffer.from(
      hkdfSync(
        'sha256',
        senderKeys.computeSecret(browserPublic),
        Buffer.from(subscription.keys.auth, 'base64url'),
        keyInfo,
        32,
      ),
    );
    const key = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
    const cipher = createCipheriv('aes-128-gcm', key, nonce);
    const plain = Buffer.concat([Buffer.from(text), Buffer.from([delimiter]), Buffer.alloc(paddingBytes)]);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const header = Buffer.alloc(21);
    salt.copy(header);
    header.writeUInt32BE(4096, 16);
    header[20] = senderPublic.length;
    return new Uint8Array(Buffer.concat([header, senderPublic, sealed]));
  }

  async function postSealed(endpoint: string, body: Uint8Array<ArrayBuffer>): Promise<number> {
    const vapid = webPush.getVapidHeaders(
      service.origin,
      SUBJECT,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    );
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { TTL: '30', 'Content-Encoding': 'aes128gcm', Authorization: vapid.Authorization },
      body,
    });
    return answer.status;
  }

  it('strips the padding after the last-record delimiter, and refuses a record without one', async () => {
    const subscription = service.newSubscription();
    expect(
      await postSealed(subscription.endpoint, sealByHand(subscription, '{"padded":true}', 0x02, 7)),
    ).toBe(201);
    expect(service.messages.at(-1)).toMatchObject({ payload: { padded: true }, ttl: 30, urgency: undefined });
    expect(
      await postSealed(subscription.endpoint, sealByHand(subscription, '{"padded":true}', 0x01, 0)),
    ).toBe(400);
    expect(service.rejected.at(-1)?.reason).toBe(
      'the record has no last-record delimiter (0x02) before its padding',
    );
  });

  it('refuses a message encrypted for another subscription', async () => {
    const target = service.newSubscription();
    const other = service.newSubscription();
    expect(await post({ ...other, endpoint: target.endpoint }, target.endpoint)).toBe(400);
    expect(service.rejected.at(-1)?.reason).toBe('the body does not decrypt with this subscription’s keys');
  });

  it('refuses a JWT for another audience, or one that has expired', async () => {
    const subscription = service.newSubscription();
    const wrongAudience = webPush.getVapidHeaders(
      'https://push.other.example',
      SUBJECT,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    );
    expect(await post(subscription, subscription.endpoint, wrongAudience.Authorization)).toBe(403);
    expect(service.rejected.at(-1)?.reason).toMatch(
      /aud is "https:\/\/push.other.example", not http:\/\/127.0.0.1/,
    );
    const expired = webPush.getVapidHeaders(
      service.origin,
      SUBJECT,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
      Math.floor(Date.now() / 1000) - 60,
    );
    expect(await post(subscription, subscription.endpoint, expired.Authorization)).toBe(403);
    expect(service.rejected.at(-1)?.reason).toMatch(/expired/);
    const toThisEndpoint = () =>
      service.messages.filter((message) => message.endpoint === subscription.endpoint);
    expect(toThisEndpoint()).toEqual([]);
    // And the same request with a good JWT goes through.
    expect(await post(subscription, subscription.endpoint)).toBe(201);
    expect(toThisEndpoint()).toEqual([expect.objectContaining({ payload: { hello: 1 } })]);
  });
});

describe('createPushSender: where it connects', () => {
  // push.test is known to no DNS here: only the resolver each sender is given says where it is.
  let service: TestPushService;
  const keys = webPush.generateVAPIDKeys();
  const message = { title: 'Metformin 500 mg - 08:00' };

  beforeAll(async () => {
    service = await startPushService();
  });
  afterAll(async () => {
    await service.close();
  });

  /** A sender for the test push service whose resolver gives these answers in turn (the last one again). */
  function senderAnswering(...answers: string[][]) {
    const asked: string[] = [];
    const sender = createPushSender({
      ...keys,
      subject: SUBJECT,
      allowInsecureEndpoints: true,
      timeoutMs: 2000,
      resolveHost: async (hostname) => {
        asked.push(hostname);
        return answers[Math.min(asked.length, answers.length) - 1] ?? [];
      },
    });
    return { sender, asked };
  }

  it('connects to the address it checked, asking the resolver once per send', async () => {
    // Asked again, the resolver would say 127.0.0.2, where nothing listens: the request must go where
    // the first answer, the checked one, said.
    const { sender, asked } = senderAnswering(['127.0.0.1'], ['127.0.0.2']);
    const subscription = service.newSubscription({ host: 'push.test' });
    expect(await sender.send(subscription, message, { ttlSeconds: 60 })).toEqual({ status: 'sent' });
    expect(asked).toEqual(['push.test']);
    const received = await service.waitForMessage(
      (candidate) => candidate.endpoint === subscription.endpoint,
    );
    expect(received.payload).toEqual(message);
  });

  it('checks the endpoint again at each send: a name now pointing inside gets nothing', async () => {
    const { sender, asked } = senderAnswering(['127.0.0.1'], ['169.254.169.254'], []);
    const subscription = service.newSubscription({ host: 'push.test' });
    expect(await sender.send(subscription, message, { ttlSeconds: 60 })).toEqual({ status: 'sent' });
    const before = service.requestCount();
    expect(await sender.send(subscription, message, { ttlSeconds: 60 })).toEqual({
      status: 'failed',
      statusCode: null,
      message: expect.stringMatching(/push\.test resolves to 169\.254\.169\.254, a link-local address/),
    });
    expect(await sender.send(subscription, message, { ttlSeconds: 60 })).toEqual({
      status: 'failed',
      statusCode: null,
      message: "The push endpoint's host push.test could not be found.",
    });
    expect(service.requestCount()).toBe(before);
    expect(asked).toHaveLength(3);
  });

  it('sends nothing to an internal address literal, and nothing but loopback even when http is allowed', async () => {
    const strict = createPushSender({ ...keys, subject: SUBJECT, resolveHost: async () => ['127.0.0.1'] });
    const subscription = service.newSubscription();
    for (const endpoint of ['https://127.0.0.1/push/x', 'https://[::ffff:7f00:1]/x', 'https://push.test/x']) {
      expect(await strict.send({ ...subscription, endpoint }, message, { ttlSeconds: 60 }), endpoint).toEqual(
        {
          status: 'failed',
          statusCode: null,
          message: expect.stringMatching(/loopback address/),
        },
      );
    }
    const { sender } = senderAnswering(['10.0.0.1']);
    expect(
      await sender.send({ ...subscription, endpoint: 'http://push.test:9/x' }, message, { ttlSeconds: 60 }),
    ).toMatchObject({ status: 'failed', message: expect.stringMatching(/private network/) });
  });

  it('gives up within timeoutMs on a host whose lookup never answers', async () => {
    const sender = createPushSender({
      ...keys,
      subject: SUBJECT,
      allowInsecureEndpoints: true,
      timeoutMs: 300,
      resolveHost: () => new Promise<string[]>(() => undefined),
    });
    const subscription = service.newSubscription({ host: 'push.test' });
    expect(await sender.send(subscription, message, { ttlSeconds: 60 })).toEqual({
      status: 'failed',
      statusCode: null,
      message: "The push endpoint's host could not be looked up within 300 ms.",
    });
  });
});
