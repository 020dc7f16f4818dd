import { z } from 'zod';

// Share links (README.md beside this file, "Taking records to the doctor"): the patient hands a read-only
// snapshot of their summary to someone by a QR code or a link in the SMART Health Links form. The device
// encrypts the snapshot (a compact JWE, `dir` + A256GCM) with a key that travels only in the link; the
// server keeps the ciphertext, the expiry, the passcode's hash and who opened it, and can read none of it.
// This file holds the link's words, limits and wire shapes, and reads and writes the `shlink:/` text.

export const SHARE_LINK_LIMITS = {
  /** How long a link may live: from an hour to thirty days. */
  minSeconds: 60 * 60,
  maxSeconds: 30 * 24 * 60 * 60,
  labelMax: 80,
  passcodeMin: 4,
  passcodeMax: 40,
  /** Wrong passcodes a link takes before it stops opening for good. */
  attempts: 10,
  /** Links of a patient that open at once: each holds a copy of the summary on the server. */
  activePerPatient: 20,
  /** The largest snapshot, in characters of its JWE (two years of records are well under 1 MB). */
  snapshotMaxChars: 4_000_000,
  recipientMax: 100,
  /** Times a link was opened that the patient is shown (the newest). */
  opensShown: 50,
} as const;

/** The expiries offered when a link is made. */
export const SHARE_LINK_EXPIRIES = [
  { seconds: 60 * 60, label: '1 hour' },
  { seconds: 24 * 60 * 60, label: '1 day' },
  { seconds: 7 * 24 * 60 * 60, label: '7 days' },
  { seconds: 30 * 24 * 60 * 60, label: '30 days' },
] as const;

export const SHARE_LINK_MESSAGES = {
  labelRequired: 'Give the link a name, such as who it is for.',
  labelTooLong: `Keep the name under ${SHARE_LINK_LIMITS.labelMax} characters.`,
  expiryInvalid: 'Choose how long the link works: from 1 hour to 30 days.',
  passcodeTooShort: `A passcode needs at least ${SHARE_LINK_LIMITS.passcodeMin} characters.`,
  passcodeTooLong: `Keep the passcode under ${SHARE_LINK_LIMITS.passcodeMax} characters.`,
  snapshotInvalid: 'The summary must be sent encrypted, as made by the app.',
  snapshotTooLarge: 'This summary is too large to share by link. Download it instead.',
  tooManyLinks: `You have ${SHARE_LINK_LIMITS.activePerPatient} links open. Turn one off before you make another.`,
  patientsOnly: 'Only the patient can share their records by link.',
  linkNotFound: 'This link does not exist. Check that it was copied whole.',
  recipientRequired: 'Say who is opening the summary: the patient sees it.',
  recipientTooLong: `Keep your name under ${SHARE_LINK_LIMITS.recipientMax} characters.`,
  // What the link's address answers, in the words the viewer shows.
  notFound: 'This link does not work: it was never made, or it was copied only in part.',
  expired: 'This link has expired. Ask the person who shared it for a new one.',
  revoked: 'The person who shared this link has turned it off.',
  locked:
    'This link stopped working after too many wrong passcodes. Ask the person who shared it for a new one.',
  passcodeNeeded: 'Enter the passcode the person who shared this link gave you.',
  passcodeWrong: (left: number) =>
    `That passcode is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before the link stops working.`,
  // On the device.
  offline: 'Making or changing a share link needs a connection. Try again when you are online.',
  openOffline: 'Opening a shared summary needs a connection. Try again when you are online.',
  otherServer: 'This link was made by another service. Open it with that service or its viewer.',
  notALink: 'This is not a share link. Check that it was copied whole.',
  unreadable: 'This link opened, but its summary could not be read: the key in the link does not fit.',
} as const;

/** A share link refused or unreadable, in words for the screen; after a wrong passcode, the tries left. */
export class ShareLinkError extends Error {
  override name = 'ShareLinkError';
  constructor(
    message: string,
    /** After a wrong passcode: the tries the link still takes. */
    readonly remainingAttempts?: number,
  ) {
    super(message);
  }
}

const label = z
  .string()
  .trim()
  .min(1, { error: SHARE_LINK_MESSAGES.labelRequired })
  .max(SHARE_LINK_LIMITS.labelMax, { error: SHARE_LINK_MESSAGES.labelTooLong });

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * A compact JWE as the device makes it: five base64url parts, a protected header of `dir` and `A256GCM`,
 * no encrypted key (the key is the link's), and every other part present. The server checks the shape, as it
 * cannot read the content.
 */
export function isDeviceSnapshot(jwe: string): boolean {
  const parts = jwe.split('.');
  if (parts.length !== 5 || !parts.every((part) => BASE64URL.test(part))) return false;
  const [header, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  if (encryptedKey !== '' || iv.length !== 16 || tag.length !== 22 || ciphertext.length === 0) return false;
  try {
    const fields: unknown = JSON.parse(textOfBase64url(header));
    return z.object({ alg: z.literal('dir'), enc: z.literal('A256GCM') }).safeParse(fields).success;
  } catch {
    return false;
  }
}

/** POST /api/share-links: the link's name, how long it works, its passcode if any, and the snapshot. */
export const shareLinkCreateSchema = z.object({
  label,
  expires_in_seconds: z
    .number({ error: SHARE_LINK_MESSAGES.expiryInvalid })
    .int({ error: SHARE_LINK_MESSAGES.expiryInvalid })
    .min(SHARE_LINK_LIMITS.minSeconds, { error: SHARE_LINK_MESSAGES.expiryInvalid })
    .max(SHARE_LINK_LIMITS.maxSeconds, { error: SHARE_LINK_MESSAGES.expiryInvalid }),
  passcode: z
    .string()
    .min(SHARE_LINK_LIMITS.passcodeMin, { error: SHARE_LINK_MESSAGES.passcodeTooShort })
    .max(SHARE_LINK_LIMITS.passcodeMax, { error: SHARE_LINK_MESSAGES.passcodeTooLong })
    .optional(),
  snapshot: z
    .string({ error: SHARE_LINK_MESSAGES.snapshotInvalid })
    .max(SHARE_LINK_LIMITS.snapshotMaxChars, { error: SHARE_LINK_MESSAGES.snapshotTooLarge })
    .refine(isDeviceSnapshot, { error: SHARE_LINK_MESSAGES.snapshotInvalid }),
});
export type ShareLinkCreate = z.infer<typeof shareLinkCreateSchema>;

/** A link as its patient sees it in the list: never its address's secret part nor its key. */
export const shareLinkSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  has_passcode: z.boolean(),
  attempts_left: z.number().int(),
  /** The times it was opened, newest first, with the name the opener gave. */
  opens: z.array(z.object({ at: z.string(), recipient: z.string() })),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
/** A link as a device keeps it: the server's view, and the whole link when that device made it. */
export type SavedShareLink = ShareLink & { url: string | null };

/** Its answer: the link, and the secret part of its address (given once, to the device that made it). */
export const shareLinkCreatedSchema = z.object({ link: shareLinkSchema, token: z.string() });
export const shareLinkListSchema = z.object({ data: z.array(shareLinkSchema) });
export const shareLinkIdParamsSchema = z.object({
  id: z.uuid({ error: SHARE_LINK_MESSAGES.linkNotFound }),
});

export type ShareLinkStatus = 'active' | 'expired' | 'revoked' | 'locked';

export function shareLinkStatus(
  link: Pick<ShareLink, 'expires_at' | 'revoked_at' | 'attempts_left' | 'has_passcode'>,
  now: Date,
): ShareLinkStatus {
  if (link.revoked_at) return 'revoked';
  if (Date.parse(link.expires_at) <= now.getTime()) return 'expired';
  if (link.has_passcode && link.attempts_left <= 0) return 'locked';
  return 'active';
}

/** The secret part of a manifest's address: 32 random bytes, base64url (the form SMART Health Links asks). */
export const manifestTokenSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: SHARE_LINK_MESSAGES.notFound }),
});

/** POST /api/shl/:token, as the SMART Health Links manifest request: who is opening, and the passcode. */
export const manifestRequestSchema = z.object({
  recipient: z
    .string({ error: SHARE_LINK_MESSAGES.recipientRequired })
    .trim()
    .min(1, { error: SHARE_LINK_MESSAGES.recipientRequired })
    .max(SHARE_LINK_LIMITS.recipientMax, { error: SHARE_LINK_MESSAGES.recipientTooLong }),
  passcode: z.string().max(200).optional(),
  embeddedLengthMax: z.number().int().positive().optional(),
});
export type ManifestRequest = z.infer<typeof manifestRequestSchema>;

export const SNAPSHOT_CONTENT_TYPE = 'application/fhir+json';

export const manifestSchema = z.object({
  files: z.array(z.object({ contentType: z.literal(SNAPSHOT_CONTENT_TYPE), embedded: z.string() })),
});

/** A refused manifest request: the sentence, and for a wrong passcode how many tries are left. */
export const manifestRefusalSchema = z.object({
  message: z.string(),
  remainingAttempts: z.number().int().optional(),
});

// ---- The link's text ----------------------------------------------------------------------------------

/** What a `shlink:/` carries (SMART Health Links): the manifest's address, the key, expiry, flags, name. */
export const shlinkPayloadSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  exp: z.number().int().positive().optional(),
  /** 'P': a passcode is needed. 'L' (a long-term link that changes) and 'U' (a direct file) are not made here. */
  flag: z
    .string()
    .regex(/^[LPU]{0,3}$/)
    .optional(),
  label: z.string().max(SHARE_LINK_LIMITS.labelMax).optional(),
  v: z.literal(1).optional(),
});
export type ShlinkPayload = z.infer<typeof shlinkPayloadSchema>;

export function base64urlOfBytes(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function bytesOfBase64url(text: string): Uint8Array {
  if (!BASE64URL.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const textOfBase64url = (text: string) => new TextDecoder().decode(bytesOfBase64url(text));

/**
 * The link to hand over: the viewer's address with the `shlink:/` after a '#', so any phone camera opens
 * the viewer and the browser never sends the part after '#' (the key) to any server.
 */
export function shareLinkUrl(viewerAddress: string, payload: ShlinkPayload): string {
  const json = JSON.stringify(payload);
  return `${viewerAddress}#shlink:/${base64urlOfBytes(new TextEncoder().encode(json))}`;
}

/**
 * The payload of a link as people paste or scan it: a viewer address with `#shlink:/...`, or the bare
 * `shlink:/...`. Null when it is not one (a cut-off copy, another kind of link).
 */
export function readShareLink(text: string): ShlinkPayload | null {
  const at = text.trim().indexOf('shlink:/');
  if (at < 0) return null;
  const encoded = text.trim().slice(at + 'shlink:/'.length);
  try {
    const parsed = shlinkPayloadSchema.safeParse(JSON.parse(textOfBase64url(encoded)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
