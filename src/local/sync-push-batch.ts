import type { KincareDb, OutboxEntry } from './db';
import { shadowKey } from './outbox';

// Which queued changes the next push sends (sync-push.ts): the order rules of the outbox, apart from the
// sending, so that each reads on its own.

/**
 * The oldest pending changes, in the order they were made. IndexedDB orders entries with equal index keys
 * by primary key, so the `status` index yields the lowest `seq` first, without a scan. The batch ends
 * before a change that builds on an unsent change in the same batch: its base version is the one the
 * server gives that earlier change, known only once it is answered.
 *
 * Changes held for their file (heldForUpload) are passed over while they wait (or, whatever the time, when
 * held in this push: `skip`), with every later change that builds on one; `holding` says whether any was.
 */
export async function nextBatch(
  db: KincareDb,
  size: number,
  { now, retryHeld, skip }: { now: number; retryHeld: boolean; skip: Set<number> },
): Promise<{ batch: OutboxEntry[]; holding: boolean }> {
  const waitingRecords = new Set<string>();
  const waitingIds: string[] = [];
  const isHeld = (entry: OutboxEntry) =>
    entry.heldForUpload === true && (skip.has(entry.seq ?? -1) || (!retryHeld && entry.nextAttemptAt > now));
  const buildsOnWaiting = (entry: OutboxEntry) =>
    waitingRecords.has(shadowKey(entry.resource, entry.entityId)) ||
    (waitingIds.length > 0 && namesAny(entry.payload, waitingIds));
  // Called in queue order (the index's), before the limit counts: a passed-over change does not count.
  const pending = await db.outbox
    .where('status')
    .equals('pending')
    .filter((entry) => {
      if (!isHeld(entry) && !buildsOnWaiting(entry)) return true;
      waitingRecords.add(shadowKey(entry.resource, entry.entityId));
      waitingIds.push(entry.entityId);
      return false;
    })
    .limit(size)
    .toArray();
  const batch: OutboxEntry[] = [];
  const inBatch = new Set<string>();
  for (const entry of pending) {
    const record = shadowKey(entry.resource, entry.entityId);
    if (entry.op === 'update' && entry.baseVersion === undefined) {
      if (inBatch.has(record)) break;
      // What it built on is no longer queued (discarded): it builds on the server's copy this device has.
      const shadow = await db.serverRows.get(record);
      entry.baseVersion = shadow?.version ?? 0;
      await db.outbox.update(entry.seq as number, { baseVersion: entry.baseVersion });
    }
    batch.push(entry);
    inBatch.add(record);
  }
  return { batch, holding: waitingRecords.size > 0 };
}

/** Whether a change's fields name any of these record ids (a reference to a record still on the device). */
function namesAny(payload: Record<string, unknown>, ids: string[]): boolean {
  const text = JSON.stringify(payload);
  return ids.some((id) => text.includes(id));
}
