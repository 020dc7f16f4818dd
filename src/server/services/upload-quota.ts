import { and, eq, sql } from 'drizzle-orm';
import { UPLOAD_MESSAGES } from '../../domain/uploads';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { idempotencyKeys, uploads } from '../db/schema';
import { HttpError, TransientRefusal } from '../plugins/errors';
import type { Queryable } from './transaction';

// How much one person may upload: files and bytes in the last 24 hours, and bytes stored in all. Without
// a bound, one account (or a stolen token) could fill the server's disk, which every other person's
// records depend on. Counted from the uploads table (each row keeps its size).
//
// Two checks. A cheap one before the file is even read (checkUploadCount) and once its size is known
// (checkUploadBytes), so a person over their quota is refused early. And the one that holds: in the
// transaction that stores the file, under a lock of the person's own (lockUploadsOf), the quota is
// counted again and the file's row written, so uploads sent at once are counted one after another (an
// attack stored 285 MiB against a 200 MiB daily limit by sending them together). Its refusals are
// TransientRefusals: kept for no Idempotency-Key, since a device that retries tomorrow must be let in.

export type UploadQuota = Config['uploads'];

const DAY_MS = 24 * 60 * 60 * 1000;

type Usage = { filesToday: number; bytesToday: number; bytesStored: number };

export async function uploadUsage(db: Queryable, userId: string, now = Date.now()): Promise<Usage> {
  const since = new Date(now - DAY_MS).toISOString();
  const [row] = await db
    .select({
      filesToday: sql<string>`count(*) filter (where ${uploads.createdAt} > ${since})`,
      bytesToday: sql<string>`coalesce(sum(${uploads.sizeBytes}) filter (where ${uploads.createdAt} > ${since}), 0)`,
      bytesStored: sql<string>`coalesce(sum(${uploads.sizeBytes}), 0)`,
    })
    .from(uploads)
    .where(eq(uploads.ownerUserId, userId));
  return {
    filesToday: Number(row?.filesToday ?? 0),
    bytesToday: Number(row?.bytesToday ?? 0),
    bytesStored: Number(row?.bytesStored ?? 0),
  };
}

/** Whether this Idempotency-Key already has an answer: its replay stores nothing and is not counted. */
export async function isAnsweredUpload(
  db: Database,
  userId: string,
  key: string | undefined,
): Promise<boolean> {
  if (!key) return false;
  const [row] = await db
    .select({ statusCode: idempotencyKeys.statusCode })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row !== undefined;
}

/** Refuses (429) a person who already uploaded the day's number of files; cheap, before the file is read. */
export async function checkUploadCount(db: Database, userId: string, quota: UploadQuota): Promise<void> {
  const usage = await uploadUsage(db, userId);
  if (usage.filesToday >= quota.dailyFiles)
    throw new HttpError(429, UPLOAD_MESSAGES.dailyFiles(quota.dailyFiles));
  if (usage.bytesStored >= quota.totalBytes)
    throw new HttpError(413, UPLOAD_MESSAGES.storageFull(quota.totalBytes));
}

/** Refuses a file of `size` bytes that would pass the day's files or bytes (429) or the stored total (413). */
export async function checkUploadBytes(
  db: Queryable,
  userId: string,
  size: number,
  quota: UploadQuota,
): Promise<void> {
  const usage = await uploadUsage(db, userId);
  if (usage.filesToday >= quota.dailyFiles)
    throw new TransientRefusal(429, UPLOAD_MESSAGES.dailyFiles(quota.dailyFiles));
  if (usage.bytesToday + size > quota.dailyBytes)
    throw new TransientRefusal(429, UPLOAD_MESSAGES.dailyBytes(quota.dailyBytes));
  if (usage.bytesStored + size > quota.totalBytes)
    throw new TransientRefusal(413, UPLOAD_MESSAGES.storageFull(quota.totalBytes));
}

/** Any constant of the uploads' own: the two-number lock space is apart from the version lock's. */
const UPLOAD_LOCK_SPACE = 7_406_512;

/**
 * Takes the person's upload lock until the transaction ends: one upload of theirs at a time is counted and
 * written, so the count a check reads includes every upload committed before it.
 */
export async function lockUploadsOf(tx: Queryable, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${UPLOAD_LOCK_SPACE}, hashtext(${userId}))`);
}
