import { onOutboxChange } from './outbox';
import { unsentChangesKeptFor, userDb } from './db';
import type { SessionEnded } from './http-events';
import { endSession, onSessionChange, readSession } from './session';
import { createTransport, ownersToken } from './sync-transport';
import { syncOnce, type SyncResult } from './sync-engine';
import { syncLockName } from './sync-lock';
import { registerPeriodicSync } from './background-sync';
import { registerRunningSync, stopSync, unregisterRunningSync } from './sync-trigger';
import { runAfterSyncWork } from './after-sync';

// The page's side of syncing: when to sync. On start, when the device comes online, when the app becomes
// visible, every few minutes while open, and right after a change is queued. The service worker's
// `sync` event covers a closed page where Background Sync exists; where it does not (Safari, Firefox),
// the queue simply waits in IndexedDB and goes out on the next open.

const EVERY_FEW_MINUTES_MS = 3 * 60 * 1000;

type Hooks = {
  onResult: (result: SyncResult) => void;
  /** The server answered 401 and the session is over: the device has already forgotten the person. */
  onSessionEnded?: (ended: SessionEnded) => void;
};

export function startSync(userId: string, hooks: Hooks): () => void {
  stopSync();
  // The token each request was sent with, so that a 401 ends the session only if that token is still the
  // stored one (another tab may have signed in again meanwhile). Only this person's token: a sync under
  // way when someone else signs in sends nothing more.
  let sentToken: string | null = null;
  const transport = createTransport({
    baseURL: '/api',
    getToken: () => (sentToken = ownersToken(userId, readSession())),
  });
  let running: Promise<SyncResult | undefined> | null = null;
  let again = false;
  let stopped = false;

  const run = async (force: boolean): Promise<SyncResult | undefined> => {
    if (stopped) return undefined;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let result: SyncResult | undefined;
      do {
        again = false;
        result = await syncOnce(userDb(), transport, { lockName: syncLockName(userId), force });
        if (result.problem === 'signed-out' && sentToken && (await endSession(sentToken)))
          hooks.onSessionEnded?.({ unsentChanges: await unsentChangesKeptFor(userId) });
        hooks.onResult(result);
        if (result.problem === undefined) void afterSync();
      } while (again && !stopped && result.problem === undefined);
      return result;
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const onOnline = () => void run(true);
  // Coming online, starting and 'Sync now' retry at once; the other triggers respect the backoff.
  const onVisible = () => document.visibilityState === 'visible' && void run(false);
  const timer = setInterval(() => void run(false), EVERY_FEW_MINUTES_MS);
  // Signed out or ended (here, in another tab, by the service worker): this person's sync stops at once.
  const unsubscribeSession = onSessionChange(() => {
    if (readSession()?.userId !== userId) stop();
  });
  // The queue asks for the service worker's `sync` itself (outbox.ts), also before this client runs.
  const unsubscribe = onOutboxChange(() => {
    if (navigator.onLine) void run(false);
  });
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  void run(true);
  void registerPeriodicSync();

  const stop = () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    unsubscribeSession();
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    unregisterRunningSync(registration);
  };
  const registration = { runNow: run, stop };
  registerRunningSync(registration);
  return stop;
}

/** The resources' after-sync work (after-sync.ts), on the signed-in person's replica. */
async function afterSync(): Promise<void> {
  try {
    await runAfterSyncWork(userDb());
  } catch {
    // Signed out meanwhile: nothing to do for anyone.
  }
}
