import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import webPush, { type RequestDetails } from 'web-push';
import { z } from 'zod';

// Sends one Web Push message (RFC 8030) to one browser subscription: the payload encrypted for that
// browser (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292). web-push builds the
// request; we send it ourselves, because web-push's own sender speaks https only (tests use a local
// http push service), times out only an idle socket rather than the whole request, and reports a
// refused message as an exception where the scheduler needs to know "delete this subscription".

/** What a browser's PushSubscription.toJSON() gives, minus expirationTime. */
export type PushSubscriptionKeys = { endpoint: string; keys: { p256dh: string; auth: string } };

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export type PushSendOptions = {
  /** How long the push service keeps the message for an offline device; 0 = now or never. */
  ttlSeconds: number;
  urgency?: PushUrgency;
  /** A newer message with the same topic replaces an undelivered older one: up to 32 base64url characters. */
  topic?: string;
};

export type PushOutcome =
  | { status: 'sent' }
  /** 404 or 410 from the push service: the subscription is over and should be deleted. */
  | { status: 'gone' }
  | { status: 'failed'; statusCode: number | null; message: string };

export type PushSender = {
  /** The VAPID public key, for the browser's pushManager.subscribe({ applicationServerKey }). */
  publicKey: string;
  send(subscription: PushSubscriptionKeys, payload: unknown, options: PushSendOptions): Promise<PushOutcome>;
};

export type PushSenderOptions = {
  publicKey: string;
  privateKey: string;
  /** Who runs this server, for the push service's operators: a mailto: or https: URL. */
  subject: string;
  /** Let http: endpoints through: for the local test push service only. */
  allowInsecureEndpoints?: boolean;
  /** The longest one send may take, connecting included (default 10 s). */
  timeoutMs?: number;
};

/**
 * The longest JSON payload we send, in bytes. The protocol allows 4,096 bytes of ciphertext per message
 * (about 3,990 of payload); some push services have taken less, so we stay well under.
 */
export const MAX_PUSH_PAYLOAD_BYTES = 3000;
export const MAX_PUSH_ENDPOINT_LENGTH = 1000;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Enough of a push service's error answer to say what was wrong, not enough to fill the logs. */
const MAX_ERROR_BODY_CHARS = 300;

/**
 * Why `endpoint` may not be used as a push endpoint, in words for a person, or null. The endpoint comes
 * from a browser, that is from whoever holds a session: without these rules a client could have the
 * server POST to any address, internal hosts over plain http included.
 */
export function pushEndpointProblem(endpoint: string, allowInsecure: boolean): string | null {
  if (endpoint.length > MAX_PUSH_ENDPOINT_LENGTH) {
    return `The push endpoint is longer than ${MAX_PUSH_ENDPOINT_LENGTH} characters.`;
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The push endpoint is not a URL.';
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    return 'The push endpoint must be an https: address.';
  }
  if (url.username !== '' || url.password !== '') {
    return 'The push endpoint may not contain a user name or password.';
  }
  if (url.hostname === '') return 'The push endpoint has no host.';
  return null;
}

// ---- The subscription as a browser sends it ----

/**
 * The bytes of a base64url text (padding allowed), or null when it is not base64url. Written with atob
 * rather than Buffer so this schema can move to src/domain and run in the browser too.
 */
function base64UrlBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  const standard = bare.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The subscription a browser's PushSubscription.toJSON() gives (expirationTime and others stripped). */
export const pushSubscriptionKeysSchema = z.object({
  endpoint: z
    .string({ error: 'endpoint must be the subscription’s endpoint URL' })
    .max(MAX_PUSH_ENDPOINT_LENGTH, `endpoint must be at most ${MAX_PUSH_ENDPOINT_LENGTH} characters`)
    .pipe(z.url({ error: 'endpoint must be a URL' })),
  keys: z.object(
    {
      p256dh: z.string({ error: 'keys.p256dh must be a string' }).refine((text) => {
        const bytes = base64UrlBytes(text);
        return bytes !== null && bytes.length === 65 && bytes[0] === 0x04;
      }, 'keys.p256dh must be base64url of an uncompressed P-256 public key (65 bytes starting with 0x04)'),
      auth: z
        .string({ error: 'keys.auth must be a string' })
        .refine(
          (text) => base64UrlBytes(text)?.length === 16,
          'keys.auth must be base64url of the 16-byte authentication secret',
        ),
    },
    { error: 'keys must hold p256dh and auth' },
  ),
});

// ---- Sending ----

function checkSenderOptions(options: PushSenderOptions): void {
  let subject: URL | undefined;
  try {
    subject = new URL(options.subject);
  } catch {
    subject = undefined;
  }
  if (!subject || (subject.protocol !== 'mailto:' && subject.protocol !== 'https:')) {
    throw new Error(
      `The VAPID subject must be a mailto: or https: URL, not ${JSON.stringify(options.subject)}`,
    );
  }
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new Error('timeoutMs must be a whole number of milliseconds above 0');
  }
  // web-push checks the keys' encoding again on each send; doing it now turns a bad pair into a start-up
  // error rather than every reminder failing.
  webPush.getVapidHeaders(
    'https://push.example',
    options.subject,
    options.publicKey,
    options.privateKey,
    'aes128gcm',
  );
}

/** The answer of one request: its status and the start of its body. */
type PushAnswer = { statusCode: number; body: string };

function postOnce(
  endpoint: string,
  headers: Record<string, string | number>,
  body: Buffer,
  timeoutMs: number,
): Promise<PushAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // One clock for the whole exchange: a push service that accepts the connection and then says
    // nothing must not hold a reminder run for ever. (Redirects are not followed: a 3xx is a failure.)
    // The promise is settled before the request is torn down, so this message is the one reported.
    const abandon = new AbortController();
    const timer = setTimeout(() => {
      reject(new Error(`the push service did not answer within ${timeoutMs} ms`));
      abandon.abort();
    }, timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    const outgoing = send(
      url,
      { method: 'POST', headers, signal: abandon.signal },
      (answer: IncomingMessage) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          if (text.length < MAX_ERROR_BODY_CHARS) text += chunk;
        });
        answer.on('end', () => {
          const statusCode = answer.statusCode ?? 0;
          settle(() => resolve({ statusCode, body: text.slice(0, MAX_ERROR_BODY_CHARS) }));
        });
        answer.on('error', (error) => settle(() => reject(error)));
        // Cut off mid-answer: neither 'end' nor, on every Node version, 'error' follows.
        answer.on('close', () => {
          if (!answer.complete) settle(() => reject(new Error('the push service broke off its answer')));
        });
      },
    );
    outgoing.on('error', (error) => settle(() => reject(error)));
    outgoing.end(body);
  });
}

function failed(statusCode: number | null, message: string): PushOutcome {
  return { status: 'failed', statusCode, message };
}

export function createPushSender(options: PushSenderOptions): PushSender {
  checkSenderOptions(options);
  const allowInsecure = options.allowInsecureEndpoints === true;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const vapidDetails = {
    subject: options.subject,
    publicKey: options.publicKey,
    privateKey: options.privateKey,
  };

  async function send(
    subscription: PushSubscriptionKeys,
    payload: unknown,
    sendOptions: PushSendOptions,
  ): Promise<PushOutcome> {
    const endpointProblem = pushEndpointProblem(subscription.endpoint, allowInsecure);
    if (endpointProblem) return failed(null, endpointProblem);
    if (!Number.isInteger(sendOptions.ttlSeconds) || sendOptions.ttlSeconds < 0) {
      return failed(null, 'ttlSeconds must be a whole number of seconds, 0 or more');
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(payload);
    } catch (error) {
      return failed(null, `The payload cannot be written as JSON: ${(error as Error).message}`);
    }
    if (json === undefined) return failed(null, 'The payload cannot be written as JSON.');
    const size = Buffer.byteLength(json, 'utf8');
    if (size > MAX_PUSH_PAYLOAD_BYTES) {
      return failed(null, `The payload is ${size} bytes; at most ${MAX_PUSH_PAYLOAD_BYTES} may be sent.`);
    }
    let details: RequestDetails;
    try {
      details = webPush.generateRequestDetails(subscription, json, {
        vapidDetails,
        TTL: sendOptions.ttlSeconds,
        contentEncoding: 'aes128gcm',
        ...(sendOptions.urgency ? { urgency: sendOptions.urgency } : {}),
        ...(sendOptions.topic !== undefined ? { topic: sendOptions.topic } : {}),
      });
    } catch (error) {
      // A subscription whose keys are not a usable P-256 point and secret, or a bad topic.
      return failed(null, `The message could not be prepared: ${(error as Error).message}`);
    }
    if (!details.body) return failed(null, 'The message could not be prepared: no body.');
    let answer: PushAnswer;
    try {
      answer = await postOnce(details.endpoint, details.headers, details.body, timeoutMs);
    } catch (error) {
      return failed(null, `The push service could not be reached: ${(error as Error).message}`);
    }
    if (answer.statusCode >= 200 && answer.statusCode <= 299) return { status: 'sent' };
    if (answer.statusCode === 404 || answer.statusCode === 410) return { status: 'gone' };
    const said = answer.body.trim();
    return failed(
      answer.statusCode,
      `The push service answered ${answer.statusCode}${said ? `: ${said}` : ''}`,
    );
  }

  return { publicKey: options.publicKey, send };
}
