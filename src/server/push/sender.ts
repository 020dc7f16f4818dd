import { promises as dns } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import webPush, { type RequestDetails } from 'web-push';
import { z } from 'zod';
import { ADDRESS_KIND_WORDS, addressKind } from './address-ranges';

// Sends one Web Push message (RFC 8030) to one browser subscription: the payload encrypted for that
// browser (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292). web-push builds the
// request; we send it ourselves, because web-push's own sender speaks https only (tests use a local
// http push service), times out only an idle socket rather than the whole request, and reports a
// refused message as an exception where the scheduler needs to know "delete this subscription".
// Where it may send, and how long it waits, is in README.md beside this file.

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
  /** Whether the server may send to this endpoint now: the rules of pushEndpointProblem, then its host's addresses. */
  checkEndpoint(endpoint: string): Promise<PushEndpointCheck>;
  send(subscription: PushSubscriptionKeys, payload: unknown, options: PushSendOptions): Promise<PushOutcome>;
};

/** The addresses a host name has (IPv4 and IPv6, as text); none when it has none or cannot be looked up. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export type ResolvedAddress = { address: string; family: 4 | 6 };

export type PushEndpointCheck =
  | { ok: true; addresses: ResolvedAddress[] }
  | {
      ok: false;
      /** invalid: not an https URL we take; not-public: an address off the internet; unresolvable: no address. */
      reason: 'invalid' | 'not-public' | 'unresolvable';
      problem: string;
    };

export type PushSenderOptions = {
  publicKey: string;
  privateKey: string;
  /** Who runs this server, for the push service's operators: a mailto: or https: URL. */
  subject: string;
  /** Let http: endpoints and loopback addresses through: for the local test push service only. */
  allowInsecureEndpoints?: boolean;
  /** The longest one send may take, looking the host up and connecting included (default 5 s). */
  timeoutMs?: number;
  /** How host names are looked up (default: DNS, see systemHostResolver); tests give their own. */
  resolveHost?: HostResolver;
};

/**
 * The longest JSON payload we send, in bytes. The protocol allows 4,096 bytes of ciphertext per message
 * (about 3,990 of payload); some push services have taken less, so we stay well under.
 */
export const MAX_PUSH_PAYLOAD_BYTES = 3000;
export const MAX_PUSH_ENDPOINT_LENGTH = 1000;
/**
 * A push service answers in well under a second; one that takes longer than this is treated as down, so
 * that an endpoint that never answers holds one sending slot for no longer (README.md beside this file).
 */
export const DEFAULT_PUSH_TIMEOUT_MS = 5000;
/** How long one DNS query may take, and how often it is asked. */
const DNS_QUERY_TIMEOUT_MS = 1000;
const DNS_TRIES = 2;
/** The longest a host's lookup may take in all, at subscribing as at sending: a name that slow is not found. */
const LOOKUP_LIMIT_MS = 2000;
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

/** Names that are this machine by definition, whatever a resolver says of them. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The host's addresses by DNS (A and AAAA). Asked of the DNS servers directly (c-ares) rather than through
 * getaddrinfo, whose lookups hold one of libuv's four pool threads each for as long as a slow name
 * server takes: a few endpoints on a slow domain would stall file reads and password hashing for all.
 */
let dnsResolver: dns.Resolver | undefined;
export const systemHostResolver: HostResolver = async (hostname) => {
  const resolver = (dnsResolver ??= new dns.Resolver({ timeout: DNS_QUERY_TIMEOUT_MS, tries: DNS_TRIES }));
  const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
};

/**
 * Whether the server may send to `endpoint`: an https URL (pushEndpointProblem) whose host is, or resolves
 * only to, public addresses. The addresses checked are given back, for the request to connect to them
 * and to nothing a second lookup might answer (DNS rebinding). With `allowInsecure` (tests), loopback
 * addresses and localhost are allowed as well.
 */
export async function checkPushEndpoint(
  endpoint: string,
  options: { allowInsecure: boolean; resolveHost: HostResolver },
): Promise<PushEndpointCheck> {
  const invalid = pushEndpointProblem(endpoint, options.allowInsecure);
  if (invalid) return { ok: false, reason: 'invalid', problem: invalid };
  const host = new URL(endpoint).hostname;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  let addresses: string[];
  if (addressKind(literal) !== 'not-an-address') addresses = [literal];
  else if (isLocalhostName(host)) {
    if (!options.allowInsecure) {
      return {
        ok: false,
        reason: 'not-public',
        problem: `The push endpoint's host ${host} is this server itself; push services are on the public internet.`,
      };
    }
    addresses = ['127.0.0.1'];
  } else {
    try {
      addresses = await within(options.resolveHost(host), LOOKUP_LIMIT_MS, 'the lookup took too long');
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      return {
        ok: false,
        reason: 'unresolvable',
        problem: `The push endpoint's host ${host} could not be found.`,
      };
    }
  }
  for (const address of addresses) {
    const kind = addressKind(address);
    if (kind === 'public' || (options.allowInsecure && kind === 'loopback')) continue;
    const where = address === literal ? `${host} is` : `${host} resolves to ${address},`;
    return {
      ok: false,
      reason: 'not-public',
      problem: `The push endpoint's host ${where} ${ADDRESS_KIND_WORDS[kind]}; push services are on the public internet.`,
    };
  }
  return {
    ok: true,
    addresses: addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 })),
  };
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

/** A lookup that answers the addresses already checked, whatever DNS would say now. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((address) => wanted === undefined || address.family === wanted);
    const [first] = usable;
    if (!first) {
      callback(
        Object.assign(new Error('no checked address of the family asked for'), { code: 'ENOTFOUND' }),
        '',
      );
    } else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** `work`, or a rejection with `message` once `ms` have passed (the work itself is left to finish). */
function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), Math.max(ms, 0));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function postOnce(
  endpoint: string,
  addresses: ResolvedAddress[],
  headers: Record<string, string | number>,
  body: Buffer,
  timing: { leftMs: number; totalMs: number },
): Promise<PushAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // One clock for the whole exchange: a push service that accepts the connection and then says
    // nothing must not hold a reminder run for ever. (Redirects are not followed: a 3xx is a failure.)
    // The promise is settled before the request is torn down, so this message is the one reported.
    const abandon = new AbortController();
    const timer = setTimeout(
      () => {
        reject(new Error(`the push service did not answer within ${timing.totalMs} ms`));
        abandon.abort();
      },
      Math.max(timing.leftMs, 0),
    );
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    const outgoing = send(
      url,
      // The host name stays in the URL for TLS (SNI and the certificate) and for the Host header.
      { method: 'POST', headers, signal: abandon.signal, lookup: pinnedLookup(addresses) },
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
  const resolveHost = options.resolveHost ?? systemHostResolver;
  const checkEndpoint = (endpoint: string) => checkPushEndpoint(endpoint, { allowInsecure, resolveHost });
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
    // Checked again now, not only when the browser subscribed: the name may point elsewhere since.
    const startedAt = Date.now();
    let checked: PushEndpointCheck;
    try {
      checked = await within(
        checkEndpoint(subscription.endpoint),
        timeoutMs,
        `The push endpoint's host could not be looked up within ${timeoutMs} ms.`,
      );
    } catch (error) {
      return failed(null, (error as Error).message);
    }
    if (!checked.ok) return failed(null, checked.problem);
    let answer: PushAnswer;
    try {
      answer = await postOnce(details.endpoint, checked.addresses, details.headers, details.body, {
        leftMs: timeoutMs - (Date.now() - startedAt),
        totalMs: timeoutMs,
      });
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

  return { publicKey: options.publicKey, checkEndpoint, send };
}
