import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { HttpError } from '../plugins/errors';

// Idempotent mutations: the Idempotency-Key and the answer are stored in the same transaction as the
// change, so a repeated key (a retry after a lost answer, a duplicated delivery) gets the stored answer
// and nothing is applied twice. A concurrent repeat waits on the key's row until the first one commits.

export type StoredAnswer = { statusCode: number; body: unknown };
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url.split('?')[0]} ${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

export async function runIdempotent(
  db: Database,
  request: { userId: string; key: string | undefined; fingerprint: string },
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  const { key } = request;
  return db.transaction(async (tx) => {
    if (!key) return { ...(await work(tx)), replayed: false };
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId: request.userId, key, fingerprint: request.fingerprint, statusCode: 0, body: {} }) // answer filled in below
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
      if (!stored)
        throw new HttpError(503, 'This request is already being processed. Try again in a moment.');
      if (stored.fingerprint !== request.fingerprint) {
        throw new HttpError(409, 'This Idempotency-Key was already used for a different request.');
      }
      return { statusCode: stored.statusCode, body: stored.body, replayed: true };
    }
    const answer = await work(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: answer.statusCode, body: answer.body })
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
    return { ...answer, replayed: false };
  });
}

/** Forgets answers older than `before` (kept as long as tombstones, so a long-offline replay still matches). */
export async function purgeIdempotencyKeys(db: Database, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
}
