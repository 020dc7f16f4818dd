import { pullResponseSchema, SYNCED_RESOURCES, type Change, type PullResponse, type SyncedResource } from '../domain/sync';
import type { KincareDb, SyncedRow } from './db';
import { applyServerState, shadowKey } from './outbox';
import type { Transport } from './sync-transport';

// Brings the server's changes since the cursor into the replica, a page per bulk transaction. Records
// without queued edits are written straight to their view tables (the fast path of a first sync);
// records with queued edits get the server's copy updated and their edits rebased on top, so a pull
// never overwrites a change this device has not sent yet.

export const PULL_PAGE = 2000;
const CURSOR_KEY = 'cursor';

export class PullError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? 'The server could not be reached.' : `The server answered ${status}.`);
  }
}

export async function pull(db: KincareDb, transport: Transport, pageSize = PULL_PAGE): Promise<{ applied: number }> {
  const fetchPage = (cursor: number): Promise<PullResponse> => {
    const page = transport({ method: 'GET', url: `/sync/pull?cursor=${cursor}&limit=${pageSize}` }).then((response) => {
      if (response.status !== 200) throw new PullError(response.status);
      return pullResponseSchema.parse(response.data);
    });
    page.catch(() => undefined); // a prefetched page may fail before it is awaited; it is awaited (and throws) in order
    return page;
  };
  let cursor = (await db.syncState.get(CURSOR_KEY))?.value ?? 0;
  let applied = 0;
  let next = fetchPage(cursor);
  for (;;) {
    const page = await next;
    if (page.reset) {
      await startOver(db);
      cursor = 0;
      next = fetchPage(cursor);
      continue;
    }
    // While this page is written, the next one is already on its way (pages apply strictly in order).
    if (page.more) next = fetchPage(page.cursor);
    await applyPage(db, page.changes, page.cursor);
    applied += page.changes.length;
    cursor = page.cursor;
    if (!page.more) return { applied };
  }
}

async function applyPage(db: KincareDb, changes: Change[], cursor: number): Promise<void> {
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  await db.transaction('rw', [...views, db.serverRows, db.outbox, db.syncState], async () => {
    // Usually nothing is queued (always on a first sync): then no record needs rebasing.
    const anyQueued = (await db.serverRows.count()) > 0;
    const shadows = anyQueued ? await db.serverRows.bulkGet(changes.map((change) => shadowKey(change.resource, change.id))) : [];
    const direct = new Map<SyncedResource, { put: SyncedRow[]; remove: string[] }>();
    for (const [index, change] of changes.entries()) {
      if (shadows[index]) {
        await applyServerState(db, change.resource, change.id, { version: change.version, data: change.deleted ? null : (change.data as SyncedRow) });
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
    await db.syncState.put({ key: CURSOR_KEY, value: cursor });
  });
}

/** The cursor is older than the server's tombstone horizon: forget the copy and pull everything again. */
async function startOver(db: KincareDb): Promise<void> {
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  await db.transaction('rw', [...views, db.serverRows, db.syncState], async () => {
    for (const view of views) await view.clear();
    // Queued edits stay; their server copies are unknown until the pull brings them back.
    await db.serverRows.toCollection().modify({ version: 0, data: null });
    await db.syncState.put({ key: CURSOR_KEY, value: 0 });
  });
}
