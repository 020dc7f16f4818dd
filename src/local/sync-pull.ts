import { pullResponseSchema, SYNCED_RESOURCES, type PullResponse, type SyncedResource } from '../domain/sync';
import type { KincareDb, SyncedRow } from './db';
import { applyServerState, recompute, shadowKey } from './outbox';
import type { Transport } from './sync-transport';

// Brings the server's changes since the cursor into the replica, a page per bulk transaction. Records
// without queued edits are written straight to their view tables (the fast path of a first sync);
// records with queued edits get the server's copy updated and their edits rebased on top, so a pull
// never overwrites a change this device has not sent yet.

export const PULL_PAGE = 2000;
const CURSOR_KEY = 'cursor';
const SCOPE_KEY = 'scope';
/** Set while a reset re-pulls everything; an interrupted reset starts over from 0 next time. */
const RESETTING_KEY = 'resetting';

export class PullError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? 'The server could not be reached.' : `The server answered ${status}.`);
  }
}

type Seen = Map<SyncedResource, Set<string>>;

export async function pull(
  db: KincareDb,
  transport: Transport,
  pageSize = PULL_PAGE,
): Promise<{ applied: number }> {
  const stored = new Map(
    (await db.syncState.bulkGet([CURSOR_KEY, SCOPE_KEY, RESETTING_KEY])).map((entry, index) => [
      index,
      entry?.value,
    ]),
  );
  const scope = typeof stored.get(1) === 'string' ? (stored.get(1) as string) : undefined;
  let seen: Seen | null = stored.get(2) === undefined ? null : new Map();
  const fetchPage = (cursor: number): Promise<PullResponse> => {
    const query = `cursor=${cursor}&limit=${pageSize}${scope ? `&scope=${scope}` : ''}`;
    const page = transport({ method: 'GET', url: `/sync/pull?${query}` }).then((response) => {
      if (response.status !== 200) throw new PullError(response.status);
      return pullResponseSchema.parse(response.data);
    });
    page.catch(() => undefined); // a prefetched page may fail before it is awaited; it is awaited (and throws) in order
    return page;
  };
  let applied = 0;
  let next = fetchPage(seen ? 0 : Number(stored.get(0) ?? 0));
  for (;;) {
    const page = await next;
    if (page.reset) {
      await db.syncState.put({ key: RESETTING_KEY, value: 1 });
      seen = new Map();
      next = fetchPage(0);
      continue;
    }
    // While this page is written, the next one is already on its way (pages apply strictly in order).
    if (page.more) next = fetchPage(page.cursor);
    await applyPage(db, page, seen);
    applied += page.changes.length;
    if (!page.more) {
      if (seen) await finishReset(db, seen, page);
      return { applied };
    }
  }
}

async function applyPage(db: KincareDb, page: PullResponse, seen: Seen | null): Promise<void> {
  const { changes } = page;
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  await db.transaction('rw', [...views, db.serverRows, db.outbox, db.syncState], async () => {
    // Usually nothing is queued (always on a first sync): then no record needs rebasing.
    const anyQueued = (await db.serverRows.count()) > 0;
    const shadows = anyQueued
      ? await db.serverRows.bulkGet(changes.map((change) => shadowKey(change.resource, change.id)))
      : [];
    const direct = new Map<SyncedResource, { put: SyncedRow[]; remove: string[] }>();
    for (const [index, change] of changes.entries()) {
      if (seen && !change.deleted) {
        const ids = seen.get(change.resource) ?? new Set<string>();
        ids.add(change.id);
        seen.set(change.resource, ids);
      }
      if (shadows[index]) {
        await applyServerState(db, change.resource, change.id, {
          version: change.version,
          data: change.deleted ? null : (change.data as SyncedRow),
        });
        continue;
      }
      const batch = direct.get(change.resource) ?? { put: [], remove: [] };
      if (change.deleted || !change.data) batch.remove.push(change.id);
      else batch.put.push(change.data as SyncedRow);
      direct.set(change.resource, batch);
    }
    for (const [resource, batch] of direct) {
      if (batch.remove.length > 0) await db.viewOf(resource).bulkDelete(batch.remove);
      if (batch.put.length > 0) await db.viewOf(resource).bulkPut(batch.put);
    }
    // During a reset the cursor is kept at 0 until everything has arrived (see finishReset).
    if (!seen)
      await db.syncState.bulkPut([
        { key: CURSOR_KEY, value: page.cursor },
        { key: SCOPE_KEY, value: page.scope },
      ]);
  });
}

/**
 * After a reset has pulled everything the caller may see: what the server no longer shows (purged, or a
 * patient whose access was withdrawn) leaves the device, except what this device still has queued.
 */
async function finishReset(db: KincareDb, seen: Seen, last: PullResponse): Promise<void> {
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  await db.transaction('rw', [...views, db.serverRows, db.outbox, db.syncState], async () => {
    for (const resource of SYNCED_RESOURCES) {
      const visible = seen.get(resource) ?? new Set<string>();
      const local = await db.viewOf(resource).toCollection().primaryKeys();
      const queued = new Set(
        (await db.serverRows.where('key').startsWith(`${resource}:`).toArray()).map((shadow) => shadow.id),
      );
      await db.viewOf(resource).bulkDelete(local.filter((id) => !visible.has(id) && !queued.has(id)));
      for (const id of queued) {
        if (visible.has(id)) continue;
        // Gone from the server's view: queued creates still show, queued edits of it no longer do.
        await db.serverRows.update(shadowKey(resource, id), { version: 0, data: null });
        await recompute(db, resource, id);
      }
    }
    await db.syncState.bulkPut([
      { key: CURSOR_KEY, value: last.cursor },
      { key: SCOPE_KEY, value: last.scope },
    ]);
    await db.syncState.delete(RESETTING_KEY);
  });
}
