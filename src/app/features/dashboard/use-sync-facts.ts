import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../../local/db';
import { LAST_SYNC_KEY } from '../../../local/sync-trigger';

export type SyncFacts = { waiting: number; failed: number; lastSyncAt: number | null };

/** The device's sync state from the outbox and the engine's record of its last finished cycle. */
export function useSyncFacts(): SyncFacts | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return { waiting: 0, failed: 0, lastSyncAt: null };
    const db = userDb();
    const [waiting, failed, last] = await Promise.all([
      db.outbox.where('status').equals('pending').count(),
      db.outbox.where('status').equals('failed').count(),
      db.syncState.get(LAST_SYNC_KEY),
    ]);
    return { waiting, failed, lastSyncAt: typeof last?.value === 'number' ? last.value : null };
  }, []);
}
