import {
  base64urlOfBytes,
  SHARE_LINK_MESSAGES,
  ShareLinkError,
  SNAPSHOT_CONTENT_TYPE,
  shareLinkCreatedSchema,
  shareLinkListSchema,
  shareLinkSchema,
  shareLinkUrl,
  type SavedShareLink,
  type ShareLink,
  type ShlinkPayload,
} from '../domain/share-links';
import type { PatientSummary } from '../domain/patient-summary';
import type { KincareDb } from './db';
import { http } from './http';
import { errorMessages, statusOf } from './http-errors';
import { deviceSummary } from './patient-summary';

// Share links on the device (src/domain/README.md, "Taking records to the doctor"). Making one: the summary
// is built from the replica, encrypted here with a new random key (a compact JWE, `dir` + A256GCM, by
// `jose`), and only the ciphertext goes to the server; the key goes into the link, after its '#', which no
// browser sends to a server. The device keeps each link it made (table `shareLinks`) so its code can be
// shown again; the list and its opens are the server's, saved after each fetch so they read offline.
// Opening one is the viewer's (shared-summary.ts).

const online = () => typeof navigator === 'undefined' || navigator.onLine;

/** A new key for one link: 32 random bytes. */
export function newShareKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** The summary encrypted with `key`: what the server stores (the viewer decrypts it: shared-summary.ts). */
export async function sealSnapshot(summary: PatientSummary, key: Uint8Array): Promise<string> {
  const { CompactEncrypt } = await import('jose');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(summary)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: SNAPSHOT_CONTENT_TYPE })
    .encrypt(key);
}

async function saveLinks(db: KincareDb, links: ShareLink[]): Promise<void> {
  await db.transaction('rw', db.shareLinks, async () => {
    const known = new Map((await db.shareLinks.toArray()).map((link) => [link.id, link.url]));
    await db.shareLinks.clear();
    await db.shareLinks.bulkPut(links.map((link) => ({ ...link, url: known.get(link.id) ?? null })));
  });
}

function failure(error: unknown): ShareLinkError {
  if (statusOf(error) === undefined && !online()) return new ShareLinkError(SHARE_LINK_MESSAGES.offline);
  return new ShareLinkError(errorMessages(error)[0] ?? SHARE_LINK_MESSAGES.offline);
}

/** The patient's links, fetched and saved on the device. */
export async function refreshShareLinks(db: KincareDb): Promise<ShareLink[]> {
  if (!online()) throw new ShareLinkError(SHARE_LINK_MESSAGES.offline);
  try {
    const response = await http.get('/share-links', { quiet: true });
    const { data } = shareLinkListSchema.parse(response.data);
    await saveLinks(db, data);
    return data;
  } catch (error) {
    throw failure(error);
  }
}

export type NewShareLink = {
  patientId: string;
  label: string;
  expiresInSeconds: number;
  passcode?: string;
};

/**
 * Makes a link: the summary of the device's records, encrypted here, stored on the server; answers the link
 * to hand over (`origin` is where the app is served: the viewer and the manifest are both there).
 */
export async function createShareLink(
  db: KincareDb,
  input: NewShareLink,
  options: { origin?: string; now?: Date } = {},
): Promise<SavedShareLink> {
  if (!online()) throw new ShareLinkError(SHARE_LINK_MESSAGES.offline);
  const origin = options.origin ?? location.origin;
  const key = newShareKey();
  const snapshot = await sealSnapshot(await deviceSummary(db, input.patientId, { now: options.now }), key);
  let created;
  try {
    const response = await http.post(
      '/share-links',
      {
        label: input.label,
        expires_in_seconds: input.expiresInSeconds,
        ...(input.passcode ? { passcode: input.passcode } : {}),
        snapshot,
      },
      { quiet: true },
    );
    created = shareLinkCreatedSchema.parse(response.data);
  } catch (error) {
    throw failure(error);
  }
  const payload: ShlinkPayload = {
    url: `${origin}/api/shl/${created.token}`,
    key: base64urlOfBytes(key),
    exp: Math.floor(Date.parse(created.link.expires_at) / 1000),
    ...(input.passcode ? { flag: 'P' } : {}),
    label: created.link.label,
    v: 1,
  };
  const saved = { ...created.link, url: shareLinkUrl(`${origin}/shl`, payload) };
  await db.shareLinks.put(saved);
  return saved;
}

/** Turns a link off on the server, and saves what the server answers. */
export async function revokeShareLink(db: KincareDb, id: string): Promise<void> {
  if (!online()) throw new ShareLinkError(SHARE_LINK_MESSAGES.offline);
  try {
    const response = await http.delete(`/share-links/${encodeURIComponent(id)}`, { quiet: true });
    const link = shareLinkSchema.parse(response.data);
    await db.shareLinks.update(id, link);
  } catch (error) {
    throw failure(error);
  }
}
