import { retryConditionOf } from '../domain/refusals';
import type { SyncedResource } from '../domain/sync';
import { RESOURCE_ID_KIND, RESOURCE_TITLE_FIELD } from './sync-resources';
import { registerBackgroundSync } from './background-sync';
import type { KincareDb, OutboxEntry, OutboxOp, ServerRow, StoredBlob, SyncedRow } from './db';

// The one write path of every synced resource: the row (optimistic) and its outbox entry are written in
// ONE transaction, so a crash can never leave a change on screen that will not be sent, or the reverse.
// A record with queued edits keeps the server's copy in serverRows; its view row is always that copy
// with the pending entries replayed on top (recompute), which is how answers, pulls and rollbacks rebase.

const listeners = new Set<() => void>();

/** Called after every queued change (the sync triggers push soon after). */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const shadowKey = (resource: SyncedResource, id: string) => `${resource}:${id}`;

export type QueuedChange = {
  resource: SyncedResource;
  id: string;
  op: OutboxOp;
  payload?: Record<string, unknown>;
  blobs?: StoredBlob[];
};

/** A file the person chose, kept in the blob store (in the change's transaction) until the server has it. */
export function keepFile(
  file: { blob: Blob; name: string },
  uploadType: StoredBlob['uploadType'],
  patientId: string,
): StoredBlob {
  return {
    id: crypto.randomUUID(),
    blob: file.blob,
    name: file.name,
    type: file.blob.type,
    uploadType,
    patientId,
  };
}

/**
 * The fields of an edit that differ from the record as the device shows it: an edit sends only those, so
 * edits made elsewhere to other fields survive the merge. Values compare as JSON (lists of times too).
 */
export function changedFieldsOf(
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && JSON.stringify(current[field]) !== JSON.stringify(value)) patch[field] = value;
  }
  return patch;
}

export async function enqueue(db: KincareDb, change: QueuedChange, now = Date.now()): Promise<void> {
  const view = db.viewOf(change.resource);
  await db.transaction('rw', [view, db.serverRows, db.outbox, db.blobs], async () => {
    const key = shadowKey(change.resource, change.id);
    const blobs = change.blobs ?? [];
    if (blobs.length > 0) await db.blobs.bulkPut(blobs);
    const current = await view.get(change.id);
    // An earlier change of this record still waits to be sent: this one builds on it, not on the server's copy.
    const buildsOnQueued = await db.outbox
      .where('[resource+entityId]')
      .equals([change.resource, change.id])
      .filter((queued) => queued.status === 'pending')
      .count();
    let shadow = await db.serverRows.get(key);
    if (!shadow) {
      // Nothing was pending for this record, so the view row IS the server's copy: keep it as the base.
      shadow = {
        key,
        resource: change.resource,
        id: change.id,
        version: current?.version ?? 0,
        data: current ?? null,
      };
      await db.serverRows.put(shadow);
    }
    const titleField = RESOURCE_TITLE_FIELD[change.resource];
    const title = change.payload?.[titleField] ?? current?.[titleField];
    const entry: OutboxEntry = {
      ...(typeof title === 'string' ? { label: title } : {}),
      resource: change.resource,
      entityId: change.id,
      op: change.op,
      payload: change.payload ?? {},
      changedAt: now,
      idempotencyKey: crypto.randomUUID(),
      // The server version the person saw when editing (the merge on the server compares against it), or,
      // when it builds on a queued change, the version that change gets (set when it is acknowledged).
      ...(buildsOnQueued > 0 ? {} : { baseVersion: shadow.version }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      ...(blobs.length > 0 ? { blobIds: blobs.map((blob) => blob.id) } : {}),
    };
    await db.outbox.add(entry);
    const next = applyEntry(current ?? null, entry);
    if (next) await view.put(next);
    else await view.delete(change.id);
  });
  void registerBackgroundSync();
  for (const listener of listeners) listener();
}

export function applyEntry(row: SyncedRow | null, entry: OutboxEntry): SyncedRow | null {
  if (entry.op === 'delete') return null;
  if (entry.op === 'create')
    return { ...entry.payload, id: entry.entityId, version: row?.version ?? 0 } as SyncedRow;
  return row ? { ...row, ...entry.payload } : null;
}

export async function pendingEntriesOf(
  db: KincareDb,
  resource: SyncedResource,
  id: string,
): Promise<OutboxEntry[]> {
  return db.outbox.where('[resource+entityId]').equals([resource, id]).sortBy('seq');
}

/**
 * Rebuilds a record's view row from the server's copy and its still-pending entries, and drops the copy
 * when nothing is queued any more. Must run inside a transaction over the view, serverRows and outbox.
 */
export async function recompute(db: KincareDb, resource: SyncedResource, id: string): Promise<void> {
  const view = db.viewOf(resource);
  const key = shadowKey(resource, id);
  const shadow = await db.serverRows.get(key);
  const entries = await pendingEntriesOf(db, resource, id);
  const base = shadow ? shadow.data : ((await view.get(id)) ?? null);
  let row = base;
  // The server holds the record as deleted (a tombstone: a version and no data). A random id names one
  // record, created once, so that deletion came after this device's create reached the server (sent
  // before, its answer lost): a delete wins, and nothing still queued for the record shows, or a record
  // someone deleted would stand on this device until its create went out again. A name-based id may be
  // created again after a delete (the same dose marked again), so its queued create still shows.
  const deletedOnServer = shadow !== undefined && shadow.data === null && shadow.version > 0;
  if (deletedOnServer && RESOURCE_ID_KIND[resource] === 'random') {
    await view.delete(id);
    if (entries.length === 0) await db.serverRows.delete(key);
    return;
  }
  for (const entry of entries) if (entry.status === 'pending') row = applyEntry(row, entry);
  if (row) await view.put(row);
  else await view.delete(id);
  if (entries.length === 0) await db.serverRows.delete(key);
}

/**
 * Records what the server now holds for a record, then rebases any queued edits on it. A caller that has
 * just seen that nothing of the record is queued any more (no outbox entry at all) says so: the view then
 * shows the server's copy, or the newer one this device already holds, and the copy kept for rebasing
 * goes; the same outcome in half the reads and writes, for the usual answer to a push (tests/bench/replay.ts).
 */
export async function applyServerState(
  db: KincareDb,
  resource: SyncedResource,
  id: string,
  state: { version: number; data: SyncedRow | null },
  nothingQueued = false,
): Promise<void> {
  const key = shadowKey(resource, id);
  const shadow = await db.serverRows.get(key);
  if (nothingQueued) {
    const row = shadow && shadow.version > state.version ? shadow.data : state.data;
    if (row) await db.viewOf(resource).put(row);
    else await db.viewOf(resource).delete(id);
    if (shadow) await db.serverRows.delete(key);
    return;
  }
  if (shadow) {
    if (state.version >= shadow.version)
      await db.serverRows.put({ ...shadow, version: state.version, data: state.data } satisfies ServerRow);
  } else {
    await db.serverRows.put({ key, resource, id, version: state.version, data: state.data });
  }
  await recompute(db, resource, id);
}

/** Throws away a failed change (the person chose to discard it) and shows the record as the server has it. */
export async function discardFailed(db: KincareDb, seq: number): Promise<void> {
  const entry = await db.outbox.get(seq);
  if (!entry || entry.status !== 'failed') return;
  const view = db.viewOf(entry.resource);
  await db.transaction('rw', [view, db.serverRows, db.outbox, db.blobs], async () => {
    await db.outbox.delete(seq);
    await db.blobs.bulkDelete(entry.blobIds ?? []);
    await recompute(db, entry.resource, entry.entityId);
  });
}

/**
 * Sends a refused change again, when the person asks and its refusal can be lifted (a permission given since,
 * the beta policy accepted, a sign-in: domain/refusals.ts); a change refused for good is only discarded. It
 * becomes pending again in its place in the queue, is shown again, and carries a new idempotency key: the
 * server kept its refusal as the old key's final answer (so a late copy of the refused request is never
 * applied), and the new key, fixed before its first send, makes every resend of it the same request, applied
 * once. Answers whether the change was queued again (false: gone, not refused, or refused for good).
 */
export async function retryRefused(db: KincareDb, seq: number): Promise<boolean> {
  const found = await db.outbox.get(seq);
  if (!found) return false;
  const view = db.viewOf(found.resource);
  const queued = await db.transaction('rw', [view, db.serverRows, db.outbox], async () => {
    // Read again inside the transaction: another tab may have discarded or retried it meanwhile.
    const entry = await db.outbox.get(seq);
    if (!entry || entry.status !== 'failed' || retryConditionOf(entry.refusal) === null) return false;
    await db.outbox.update(seq, {
      status: 'pending',
      idempotencyKey: crypto.randomUUID(),
      attempts: 0,
      nextAttemptAt: 0,
      // Dexie removes a property set to undefined: the change no longer carries the old refusal.
      error: undefined,
      refusal: undefined,
    });
    await recompute(db, entry.resource, entry.entityId);
    return true;
  });
  if (!queued) return false;
  void registerBackgroundSync();
  for (const listener of listeners) listener();
  return true;
}
