import { pullResponseSchema, SYNCED_RESOURCES, type Change, type SyncedResource } from '../domain/sync';
import type { KincareDb, SyncedRow } from './db';
import { applyServerState, shadowKey } from './outbox';
import type { Transport } from './sync-transport';

// Brings the server's changes since the cursor into the replica, a page per bulk transaction. Records
// without queued edits are written straight to their view tables (the fast path of a first sync);
// records with queued edits get the server's copy updated and their edits rebased on top, so a pull
// never overwrites a change this device has not sent yet.

export const PULL_PAGE = 1000;
const CURSOR_KEY = 'cursor';

export class PullError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? 'The server could not be reached.' : `The server answered ${status}.`);
  }
}

export async function pull(db: KincareDb, transport: Transport, pageSize = PULL_PAGE): Promise<{ applied: number }> {
  let cursor = (await db.syncState.get(CURSOR_KEY))?.value ?? 0;
  let applied = 0;
  for (;;) {
    const response = await transport({ method: 'GET', url: `/sync/pull?cursor=${cursor}&limit=${pageSize}` });
    if (response.status !== 200) throw new PullError(response.status);
    const page = pullResponseSchema.parse(response.data);
    if (page.reset) {
      await startOver(db);
      cursor = 0;
      continue;
    }
    await applyPage(db, page.changes, page.cursor);
    applied += page.changes.length;
    cursor = page.cursor;
    if (!page.more) return { applied };
  }
}

async function applyPage(db: KincareDb, changes: Change[], cursor: number): Promise<void> {
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  await db.transaction('rw', [...views, db.serverRows, db.outbox, db.syncState], async () => {
    const shadows = await db.serverRows.bulkGet(changes.map((change) => shadowKey(change.resource, change.id)));
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
