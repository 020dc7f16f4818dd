import {
  PULL_PAGE_MAX,
  pullResponseSchema,
  SYNCED_RESOURCES,
  type PullResponse,
  type SyncedResource,
} from '../domain/sync';
import type { KincareDb, SyncedRow } from './db';
import { applyServerState, recompute, shadowKey } from './outbox';
import type { Transport } from './sync-transport';

// Brings the server's changes since the cursor into the replica, a page per bulk transaction. Records
// without queued edits are written straight to their view tables (the fast path of a first sync);
// records with queued edits get the server's copy updated and their edits rebased on top, so a pull
// never overwrites a change this device has not sent yet.

/** Large pages: fewer round trips and transactions on a first pull (fetching the next page overlaps the write). */
export const PULL_PAGE = PULL_PAGE_MAX;
const CURSOR_KEY = 'cursor';
const SCOPE_KEY = 'scope';
/** Set while a reset re-pulls everything; an interrupted reset starts over from 0 next time. */
const RESETTING_KEY = 'resetting';

/** A pull may start over this often (access changed or tombstones purged under it) before it gives up. */
const MAX_RESTARTS = 3;

export class PullError extends Error {
  constructor(
    readonly status: number | null,
    message = status === null ? 'The server could not be reached.' : `The server answered ${status}.`,
  ) {
    super(message);
  }
}

type Seen = Map<SyncedResource, Set<string>>;

/**
 * One pull: pages over the server's changes since the stored cursor, the first page asked with the
 * stored cursor and scope, every later one with the previous page's token. When the server says `reset`,
 * that page is already the first of a full pull: what arrives from then on is everything the caller may
 * see, and what is not among it leaves the device at the end (finishReset). A pull that cannot progress
 * stops with a PullError, so the sync lock is released and queued changes can still go out.
 */
export async function pull(
  db: KincareDb,
  transport: Transport,
  pageSize = PULL_PAGE,
): Promise<{ applied: number; requests: number }> {
  const stored = await db.syncState.bulkGet([CURSOR_KEY, SCOPE_KEY, RESETTING_KEY]);
  const [cursorEntry, scopeEntry, resettingEntry] = stored;
  const scope = typeof scopeEntry?.value === 'string' ? scopeEntry.value : undefined;
  // An interrupted reset starts over from 0 and still ends with the sweep.
  let seen: Seen | null = resettingEntry === undefined ? null : new Map();
  let requests = 0;
  const fetchPage = (query: string): Promise<PullResponse> => {
    requests++;
    const page = transport({ method: 'GET', url: `/sync/pull?limit=${pageSize}&${query}` }).then(
      (response) => {
        if (response.status !== 200) throw new PullError(response.status);
        return pullResponseSchema.parse(response.data);
      },
    );
    page.catch(() => undefined); // a prefetched page may fail before it is awaited; it is awaited (and throws) in order
    return page;
  };
  const startCursor = seen ? 0 : Number(cursorEntry?.value ?? 0);
  let next = fetchPage(`cursor=${startCursor}${scope ? `&scope=${scope}` : ''}`);
  let applied = 0;
  let restarts = 0;
  for (;;) {
    const page = await next;
    if (page.reset) {
      if (++restarts > MAX_RESTARTS)
        throw new PullError(200, 'The pull had to start over too often; it will be tried again later.');
      seen = new Map(); // everything the caller may see arrives again from this page on
      await db.syncState.put({ key: RESETTING_KEY, value: 1 });
    }
    if (page.more) {
      if (!page.token || page.changes.length === 0)
        throw new PullError(200, 'The server answered a page that does not move the pull forward.');
      // While this page is written, the next one is already on its way (pages apply strictly in order).
      next = fetchPage(`token=${page.token}`);
    }
    await applyPage(db, page, seen);
    applied += page.changes.length;
    if (!page.more) {
      if (seen) await finishReset(db, seen, page);
      return { applied, requests };
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
