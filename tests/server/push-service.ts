import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushSubscriptionKeys } from '../../src/server/push/sender';

// A push service on 127.0.0.1 that does what a browser's does (Mozilla autopush, FCM) with what a Web
// Push sender hands it: checks the headers, the VAPID JWT (RFC 8292) and then, in the browser's place,
// decrypts the message (RFC 8291 over RFC 8188 aes128gcm). The decryption is written here from the RFCs
// with node:crypto alone, on purpose: checking web-push's encryption with web-push's own code would pass
// whatever it did.

export type ReceivedPush = {
  endpoint: string;
  /** JSON.parse of the decrypted text. */
  payload: unknown;
  receivedAt: number;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
};

/** A request the service refused, with the status it answered and why. */
export type RejectedPush = {
  endpoint: string;
  status: number;
  reason: string;
  receivedAt: number;
};

export type TestPushService = {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The port it listens on (127.0.0.1), for endpoints that name it by another host name. */
  port: number;
  /**
   * A subscription as a browser's pushManager.subscribe() makes it: a fresh P-256 key pair and 16-byte
   * auth secret, and an endpoint on this service. With applicationServerKey, the endpoint (like a real
   * one) accepts only requests signed by that VAPID key. With host, the endpoint names this service by
   * that host name (http://HOST:PORT/...), which the sender must be told resolves to 127.0.0.1.
   */
  newSubscription(options?: { applicationServerKey?: string; host?: string }): PushSubscriptionKeys;
  /** From now on the endpoint answers 410 Gone, as when the person unsubscribed or cleared site data. */
  expire(endpoint: string): void;
  /** From now on the endpoint reads the request and never answers. */
  stall(endpoint: string): void;
  /** Messages accepted (201), oldest first. */
  messages: ReceivedPush[];
  /** Requests refused (400, 403, 404, 405, 410, 413), oldest first. */
  rejected: RejectedPush[];
  /** Every request that reached the service, accepted or not. */
  requestCount(): number;
  /** The first accepted message that matches, waiting up to timeoutMs for it. */
  waitForMessage(predicate: (message: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
};

type Subscriber = {
  endpoint: string;
  /** The browser's side of the ECDH: ua_private and ua_public of RFC 8291. */
  browserKeys: ECDH;
  authSecret: Buffer;
  applicationServerKey: string | undefined;
  state: 'active' | 'expired' | 'stalled';
};

/** The most a push service takes (RFC 8030 section 7.2 asks for at least 4,096 bytes of payload). */
const MAX_BODY_BYTES = 4096;
const MAX_JWT_LIFETIME_SECONDS = 24 * 60 * 60;
const URGENCIES = ['very-low', 'low', 'normal', 'high'];

class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

// ---- RFC 5869 HKDF with SHA-256, the two steps written out as RFC 8291 uses them ----

function hkdfExtract(salt: Buffer, inputKeyMaterial: Buffer): Buffer {
  return createHmac('sha256', salt).update(inputKeyMaterial).digest();
}

/** One HMAC block is enough: every output here is at most 32 bytes. */
function hkdfExpand(pseudoRandomKey: Buffer, info: Buffer, length: number): Buffer {
  return createHmac('sha256', pseudoRandomKey)
    .update(Buffer.concat([info, Buffer.from([0x01])]))
    .digest()
    .subarray(0, length);
}

/** A raw uncompressed P-256 point (0x04 || x || y) as a key node:crypto can verify with. */
function p256PublicKey(point: Buffer): KeyObject {
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

function jsonPart(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Reported below.
  }
  throw new Refusal(403, `the VAPID JWT's ${what} is not a JSON object`);
}

/** Parses `vapid t=<JWT>, k=<public key>` (RFC 8292 section 3). */
function vapidCredentials(authorization: string | undefined): { token: string; key: string } {
  const match = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw new Refusal(403, 'Authorization is not "vapid t=..., k=..."');
  const parameters = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const [name, ...value] = part.trim().split('=');
    if (name) parameters.set(name.toLowerCase(), value.join('='));
  }
  const token = parameters.get('t');
  const key = parameters.get('k');
  if (!token || !key) throw new Refusal(403, 'Authorization lacks t= or k=');
  return { token, key };
}

/** Checks the VAPID JWT as RFC 8292 section 2 asks; throws a Refusal saying what is wrong. */
function checkVapid(authorization: string | undefined, endpoint: string, subscriber: Subscriber): void {
  const { token, key } = vapidCredentials(authorization);
  if (subscriber.applicationServerKey !== undefined && key !== subscriber.applicationServerKey) {
    throw new Refusal(403, 'k is not the applicationServerKey this subscription was made with');
  }
  let publicKey: KeyObject;
  try {
    publicKey = p256PublicKey(Buffer.from(key, 'base64url'));
  } catch {
    throw new Refusal(403, 'k is not a P-256 public key');
  }
  const parts = token.split('.');
  if (parts.length !== 3) throw new Refusal(403, 'the VAPID JWT does not have three parts');
  const [headerPart = '', claimsPart = '', signaturePart = ''] = parts;
  const header = jsonPart(headerPart, 'header');
  if (header.alg !== 'ES256')
    throw new Refusal(403, `the VAPID JWT's alg is ${String(header.alg)}, not ES256`);
  const signature = Buffer.from(signaturePart, 'base64url');
  // JWS (RFC 7515 appendix A.3) carries ES256 signatures as r || s, 64 bytes, not DER.
  const signedBytes = Buffer.from(`${headerPart}.${claimsPart}`);
  const signatureHolds =
    signature.length === 64 &&
    verify('sha256', signedBytes, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  if (!signatureHolds) throw new Refusal(403, 'the VAPID JWT is not signed by the key in k');
  const claims = jsonPart(claimsPart, 'claims');
  const origin = new URL(endpoint).origin;
  if (claims.aud !== origin) {
    throw new Refusal(403, `the VAPID JWT's aud is ${JSON.stringify(claims.aud)}, not ${origin}`);
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now) {
    throw new Refusal(403, 'the VAPID JWT has expired or has no exp');
  }
  if (claims.exp > now + MAX_JWT_LIFETIME_SECONDS) {
    throw new Refusal(403, 'the VAPID JWT expires more than 24 hours from now');
  }
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Refusal(403, 'the VAPID JWT has no sub (a mailto: or https: contact)');
  }
}

/**
 * The plaintext of an aes128gcm body (RFC 8188 section 2) for the browser of `subscriber`, keys derived
 * as RFC 8291 section 3.4 says. Web Push uses one record, so the body holds exactly one.
 */
export function decryptWebPush(
  body: Buffer,
  subscriber: Pick<Subscriber, 'browserKeys' | 'authSecret'>,
): Buffer {
  // The header: salt (16) || rs (4, big-endian) || idlen (1) || keyid (idlen) = the sender's public key.
  if (body.length < 21) throw new Refusal(400, 'the body is shorter than an aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20] ?? 0;
  if (keyIdLength !== 65) throw new Refusal(400, `keyid is ${keyIdLength} bytes, not a 65-byte P-256 key`);
  const senderPublic = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (recordSize < 18) throw new Refusal(400, `rs is ${recordSize}, below the 18 RFC 8188 allows`);
  if (record.length > recordSize) throw new Refusal(400, 'the body holds more than one record');
  if (record.length < 17) throw new Refusal(400, 'the record is shorter than its tag and delimiter');

  let sharedSecret: Buffer;
  try {
    sharedSecret = subscriber.browserKeys.computeSecret(senderPublic);
  } catch {
    throw new Refusal(400, 'keyid is not a point on P-256');
  }
  const browserPublic = subscriber.browserKeys.getPublicKey();
  // IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, senderPublic]);
  const inputKeyMaterial = hkdfExpand(hkdfExtract(subscriber.authSecret, sharedSecret), keyInfo, 32);
  const pseudoRandomKey = hkdfExtract(salt, inputKeyMaterial);
  const contentKey = hkdfExpand(pseudoRandomKey, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  // The first (and only) record's nonce is the derived nonce XOR 0, that is the nonce itself.
  const nonce = hkdfExpand(pseudoRandomKey, Buffer.from('Content-Encoding: nonce\0'), 12);

  let padded: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new Refusal(400, 'the body does not decrypt with this subscription’s keys');
  }
  // data || delimiter || zero padding; the last record's delimiter is 0x02.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (end < 0 || padded[end] !== 0x02) {
    throw new Refusal(400, 'the record has no last-record delimiter (0x02) before its padding');
  }
  return padded.subarray(0, end);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES)
        reject(new Refusal(413, `the body is ${size} bytes, above ${MAX_BODY_BYTES}`));
      else resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

export async function startPushService(): Promise<TestPushService> {
  const subscribers = new Map<string, Subscriber>();
  const messages: ReceivedPush[] = [];
  const rejected: RejectedPush[] = [];
  const waiting = new Set<() => void>();
  let requests = 0;

  /** The message to record for this request, or a Refusal. */
  async function accept(request: IncomingMessage, endpoint: string): Promise<ReceivedPush | 'stalled'> {
    if (request.method !== 'POST') throw new Refusal(405, `${request.method ?? '?'} is not POST`);
    const subscriber = subscribers.get(endpoint);
    if (!subscriber) throw new Refusal(404, 'no such subscription');
    const body = await readBody(request);
    if (subscriber.state === 'stalled') return 'stalled';
    if (subscriber.state === 'expired') throw new Refusal(410, 'the subscription has expired');

    const ttlText = header(request, 'ttl');
    if (ttlText === undefined || !/^\d+$/.test(ttlText)) {
      throw new Refusal(400, `TTL is ${JSON.stringify(ttlText)}, not a whole number of seconds`);
    }
    const urgency = header(request, 'urgency');
    if (urgency !== undefined && !URGENCIES.includes(urgency)) {
      throw new Refusal(400, `Urgency ${JSON.stringify(urgency)} is not one of ${URGENCIES.join(', ')}`);
    }
    const topic = header(request, 'topic');
    if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) {
      throw new Refusal(400, 'Topic must be 1 to 32 base64url characters');
    }
    checkVapid(header(request, 'authorization'), endpoint, subscriber);
    if (header(request, 'content-encoding') !== 'aes128gcm') {
      throw new Refusal(
        400,
        `Content-Encoding is ${JSON.stringify(header(request, 'content-encoding'))}, not aes128gcm`,
      );
    }
    const plaintext = decryptWebPush(body, subscriber);
    let payload: unknown;
    try {
      payload = JSON.parse(plaintext.toString('utf8'));
    } catch {
      throw new Refusal(400, 'the decrypted message is not JSON');
    }
    return { endpoint, payload, receivedAt: Date.now(), ttl: Number(ttlText), urgency, topic };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    requests += 1;
    // Named by the Host header, as a real push service's virtual hosts are: an endpoint may name this
    // service by a host name that only the sender's resolver knows.
    const endpoint = `http://${request.headers.host ?? new URL(origin).host}${request.url ?? '/'}`;
    try {
      const message = await accept(request, endpoint);
      if (message === 'stalled') return; // Never answered; close() ends the connection.
      messages.push(message);
      for (const wake of waiting) wake();
      response.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
    } catch (error) {
      const status = error instanceof Refusal ? error.status : 500;
      const reason = error instanceof Error ? error.message : String(error);
      rejected.push({ endpoint, status, reason, receivedAt: Date.now() });
      if (!response.headersSent) response.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    }
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  function subscriberOf(endpoint: string): Subscriber {
    const subscriber = subscribers.get(endpoint);
    if (!subscriber) throw new Error(`no subscription with endpoint ${endpoint}`);
    return subscriber;
  }

  return {
    origin,
    port,
    newSubscription(options = {}) {
      const browserKeys = createECDH('prime256v1');
      browserKeys.generateKeys();
      const authSecret = randomBytes(16);
      const host = options.host === undefined ? origin : `http://${options.host}:${port}`;
      const endpoint = `${host}/push/${randomBytes(16).toString('base64url')}`;
      subscribers.set(endpoint, {
        endpoint,
        browserKeys,
        authSecret,
        applicationServerKey: options.applicationServerKey,
        state: 'active',
      });
      return {
        endpoint,
        keys: {
          p256dh: browserKeys.getPublicKey().toString('base64url'),
          auth: authSecret.toString('base64url'),
        },
      };
    },
    expire(endpoint) {
      subscriberOf(endpoint).state = 'expired';
    },
    stall(endpoint) {
      subscriberOf(endpoint).state = 'stalled';
    },
    messages,
    rejected,
    requestCount: () => requests,
    waitForMessage(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          waiting.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiting.delete(wake);
          const refusals = rejected.map((refusal) => `${refusal.status} ${refusal.reason}`).join('; ');
          reject(
            new Error(`no matching push message within ${timeoutMs} ms (refused: ${refusals || 'none'})`),
          );
        }, timeoutMs);
        waiting.add(wake);
        check();
      });
    },
    async close() {
      for (const wake of waiting) waiting.delete(wake);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
