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
/**
 * A sync that failed while the device says it is online (the online event often comes before the
 * connection works, a weak signal fails without one, the server had a moment) is tried again after this,
 * then after twice as long each time, up to EVERY_FEW_MINUTES_MS: no later online event may come to
 * retry it. The changes' own backoff (sync-push.ts) still decides which of them go.
 */
const FIRST_OFFLINE_RETRY_MS = 2000;

/** A cycle that ended well, or failed in a way that trying again may mend (no connection, the server). */
const canRetry = (result: SyncResult) =>
  result.problem !== 'signed-out' && result.problem !== 'policy-not-accepted';

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
  /** Asked for while a sync was under way: one more cycle follows it, forced if any asker forced it. */
  let again: { force: boolean } | null = null;
  let stopped = false;
  let offlineRetry: ReturnType<typeof setTimeout> | undefined;
  let offlineRetryMs = FIRST_OFFLINE_RETRY_MS;

  const takeAgain = () => {
    const asked = again;
    again = null;
    return asked;
  };

  const run = async (force: boolean): Promise<SyncResult | undefined> => {
    if (stopped) return undefined;
    if (running) {
      again = { force: force || (again?.force ?? false) };
      return running;
    }
    clearTimeout(offlineRetry);
    running = (async () => {
      let result: SyncResult | undefined;
      let cycleForce = force;
      again = null;
      for (;;) {
        result = await syncOnce(userDb(), transport, { lockName: syncLockName(userId), force: cycleForce });
        if (result.problem === 'signed-out' && sentToken && (await endSession(sentToken)))
          hooks.onSessionEnded?.({ unsentChanges: await unsentChangesKeptFor(userId) });
        hooks.onResult(result);
        if (result.problem === undefined) void afterSync();
        // A cycle asked for during one that failed gets its own try: it may be the online event, and the
        // connection may be back now. A person signed out, or a policy not accepted, ends it.
        const next = takeAgain();
        if (!next || stopped || !canRetry(result)) break;
        cycleForce = next.force;
      }
      if (canRetry(result) && result.problem !== undefined && navigator.onLine && !stopped) {
        offlineRetry = setTimeout(() => void run(false), offlineRetryMs);
        offlineRetryMs = Math.min(offlineRetryMs * 2, EVERY_FEW_MINUTES_MS);
      } else if (result.problem === undefined) offlineRetryMs = FIRST_OFFLINE_RETRY_MS;
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
    clearTimeout(offlineRetry);
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
