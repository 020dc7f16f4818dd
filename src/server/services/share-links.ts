import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import {
  SHARE_LINK_LIMITS,
  SHARE_LINK_MESSAGES,
  SNAPSHOT_CONTENT_TYPE,
  type ManifestRequest,
  type ShareLink,
  type ShareLinkCreate,
} from '../../domain/share-links';
import type { Database } from '../db/client';
import { shareLinkOpens, shareLinks } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { hashPassword, verifyPassword } from './passwords';

// Share links (README.md beside this file): a patient's read-only snapshot handed to someone by a link in
// the SMART Health Links form. The server stores what the device sent, ciphertext whose key is only in the
// link, and answers the link's manifest request: the snapshot, once the link is live and the passcode (if
// any) is right. A link ends when it expires, when the patient turns it off, or after too many wrong
// passcodes; its snapshot is dropped then, and the record of who opened it stays for the patient to read.

type Row = typeof shareLinks.$inferSelect;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function toWire(row: Row, opens: { at: string; recipient: string }[]): ShareLink {
  return {
    id: row.id,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    has_passcode: row.passcodeHash !== null,
    attempts_left: row.attemptsLeft,
    opens,
  };
}

/** A link still opening: not turned off, not expired, not locked by wrong passcodes. */
const isLive = (now: Date) =>
  and(
    isNull(shareLinks.revokedAt),
    gt(shareLinks.expiresAt, now),
    or(isNull(shareLinks.passcodeHash), gt(shareLinks.attemptsLeft, 0)),
  );

export async function createShareLink(
  db: Database,
  caller: { patientId: string; userId: string },
  body: ShareLinkCreate,
  now = new Date(),
): Promise<{ link: ShareLink; token: string }> {
  const [live] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(shareLinks)
    .where(and(eq(shareLinks.patientId, caller.patientId), isLive(now)));
  if ((live?.count ?? 0) >= SHARE_LINK_LIMITS.activePerPatient)
    throw new HttpError(409, SHARE_LINK_MESSAGES.tooManyLinks);
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(shareLinks)
    .values({
      patientId: caller.patientId,
      createdBy: caller.userId,
      tokenHash: hashOf(token),
      label: body.label,
      passcodeHash: body.passcode ? await hashPassword(body.passcode) : null,
      attemptsLeft: SHARE_LINK_LIMITS.attempts,
      expiresAt: new Date(now.getTime() + body.expires_in_seconds * 1000),
      snapshot: body.snapshot,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('the share link was not stored');
  return { link: toWire(row, []), token };
}

/** The newest times each of `ids` was opened, by link. */
async function opensOf(
  db: Database,
  ids: string[],
): Promise<Map<string, { at: string; recipient: string }[]>> {
  const byLink = new Map<string, { at: string; recipient: string }[]>();
  if (ids.length === 0) return byLink;
  const opens = await db
    .select({
      linkId: shareLinkOpens.linkId,
      at: shareLinkOpens.openedAt,
      recipient: shareLinkOpens.recipient,
    })
    .from(shareLinkOpens)
    .where(inArray(shareLinkOpens.linkId, ids))
    .orderBy(desc(shareLinkOpens.openedAt));
  for (const open of opens) {
    const list = byLink.get(open.linkId) ?? [];
    if (list.length < SHARE_LINK_LIMITS.opensShown)
      list.push({ at: open.at.toISOString(), recipient: open.recipient });
    byLink.set(open.linkId, list);
  }
  return byLink;
}

/** The patient's links, newest first, each with the newest times it was opened. */
export async function listShareLinks(db: Database, patientId: string): Promise<ShareLink[]> {
  const rows = await db
    .select()
    .from(shareLinks)
    .where(eq(shareLinks.patientId, patientId))
    .orderBy(desc(shareLinks.createdAt));
  const opens = await opensOf(
    db,
    rows.map(({ id }) => id),
  );
  return rows.map((row) => toWire(row, opens.get(row.id) ?? []));
}

/** Turns a link off for good and drops its snapshot; turning off a link already off changes nothing. */
export async function revokeShareLink(
  db: Database,
  patientId: string,
  id: string,
  now = new Date(),
): Promise<ShareLink> {
  const [row] = await db
    .update(shareLinks)
    .set({
      revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${now.toISOString()}::timestamptz)`,
      snapshot: null,
    })
    .where(and(eq(shareLinks.id, id), eq(shareLinks.patientId, patientId)))
    .returning();
  if (!row) throw new HttpError(404, SHARE_LINK_MESSAGES.linkNotFound);
  return toWire(row, (await opensOf(db, [id])).get(id) ?? []);
}

/** A refusal of the manifest request, with the tries left after a wrong passcode. */
const refusal = (status: 401 | 404, message: string, remainingAttempts?: number) =>
  new HttpError(
    status,
    message,
    undefined,
    remainingAttempts === undefined ? undefined : { remainingAttempts },
  );

/**
 * The manifest request of SMART Health Links: the link's snapshot as an embedded file, after the checks.
 * A wrong passcode uses up one try before it is checked, so that guesses sent at once cannot all be
 * checked against the same count; a right one gives its try back.
 */
export async function openShareLink(
  db: Database,
  token: string,
  request: ManifestRequest,
  now = new Date(),
): Promise<{ files: { contentType: typeof SNAPSHOT_CONTENT_TYPE; embedded: string }[] }> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(eq(shareLinks.tokenHash, hashOf(token)))
    .limit(1);
  if (!row) throw refusal(404, SHARE_LINK_MESSAGES.notFound);
  if (row.revokedAt) throw refusal(404, SHARE_LINK_MESSAGES.revoked);
  if (row.expiresAt <= now || row.snapshot === null) throw refusal(404, SHARE_LINK_MESSAGES.expired);
  if (row.passcodeHash !== null) {
    if (row.attemptsLeft <= 0) throw refusal(404, SHARE_LINK_MESSAGES.locked);
    if (!request.passcode) throw refusal(401, SHARE_LINK_MESSAGES.passcodeNeeded, row.attemptsLeft);
    const [held] = await db
      .update(shareLinks)
      .set({ attemptsLeft: sql`${shareLinks.attemptsLeft} - 1` })
      .where(and(eq(shareLinks.id, row.id), gt(shareLinks.attemptsLeft, 0)))
      .returning({ attemptsLeft: shareLinks.attemptsLeft });
    if (!held) throw refusal(404, SHARE_LINK_MESSAGES.locked);
    if (!(await verifyPassword(row.passcodeHash, request.passcode))) {
      if (held.attemptsLeft === 0) throw refusal(401, SHARE_LINK_MESSAGES.locked, 0);
      throw refusal(401, SHARE_LINK_MESSAGES.passcodeWrong(held.attemptsLeft), held.attemptsLeft);
    }
    await db
      .update(shareLinks)
      .set({ attemptsLeft: sql`${shareLinks.attemptsLeft} + 1` })
      .where(eq(shareLinks.id, row.id));
  }
  await db.insert(shareLinkOpens).values({ linkId: row.id, recipient: request.recipient, openedAt: now });
  return { files: [{ contentType: SNAPSHOT_CONTENT_TYPE, embedded: row.snapshot }] };
}

/** Drops the snapshots of links that expired or were locked: the server keeps no copy it no longer hands out. */
export async function dropEndedSnapshots(db: Database, now = new Date()): Promise<number> {
  const dropped = await db
    .update(shareLinks)
    .set({ snapshot: null })
    .where(
      and(
        isNotNull(shareLinks.snapshot),
        or(
          lte(shareLinks.expiresAt, now),
          and(isNotNull(shareLinks.passcodeHash), lte(shareLinks.attemptsLeft, 0)),
        ),
      ),
    )
    .returning({ id: shareLinks.id });
  return dropped.length;
}
