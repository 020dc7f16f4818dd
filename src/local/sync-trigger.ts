import type { SyncResult } from './sync-engine';

// What the screens call to sync now or stop, without loading the sync client: the client (sync-client.ts,
// with the transport, axios and the engine) loads after the first screen and registers itself here. Before
// it has, there is nothing running to stop, and 'Sync now' waits for it to start.

type Running = {
  runNow: (force: boolean) => Promise<SyncResult | undefined>;
  stop: () => void;
};

let current: Running | null = null;

/** Called by sync-client.ts: the sync of the signed-in person is now running. */
export function registerRunningSync(running: Running): void {
  current = running;
}

/** Called by sync-client.ts when that sync stops. */
export function unregisterRunningSync(running: Running): void {
  if (current === running) current = null;
}

export function stopSync(): void {
  current?.stop();
}

/** The header's 'Sync now'. */
export async function syncNow(): Promise<SyncResult | undefined> {
  return current?.runNow(true);
}

/** The syncState key of the last finished sync (the header and Home show it). */
export const LAST_SYNC_KEY = 'lastSyncAt';
