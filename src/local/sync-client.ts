import { onOutboxChange } from './outbox';
import { userDb } from './db';
import { endSession, onSessionChange, readSession } from './session';
import { createTransport } from './sync-transport';
import { syncOnce, type SyncResult } from './sync-engine';
import { syncLockName } from './sync-lock';
import { BACKGROUND_SYNC_TAG, PERIODIC_SYNC_TAG } from './sync-tags';
import { registerRunningSync, stopSync, unregisterRunningSync } from './sync-trigger';

// The page's side of syncing: when to sync. On start, when the device comes online, when the app becomes
// visible, every few minutes while open, and right after a change is queued. The service worker's
// `sync` event covers a closed page where Background Sync exists; where it does not (Safari, Firefox),
// the queue simply waits in IndexedDB and goes out on the next open.

const EVERY_FEW_MINUTES_MS = 3 * 60 * 1000;

type Hooks = {
  onResult: (result: SyncResult) => void;
  /** The server answered 401 and the session is over: the device has already forgotten the person. */
  onSessionEnded?: () => void;
};
type BackgroundRegistration = ServiceWorkerRegistration & {
  sync?: { register: (tag: string) => Promise<void> };
  periodicSync?: { register: (tag: string, options: { minInterval: number }) => Promise<void> };
};

export function startSync(userId: string, hooks: Hooks): () => void {
  stopSync();
  // The token each request was sent with, so that a 401 ends the session only if that token is still the
  // stored one (another tab may have signed in again meanwhile).
  let sentToken: string | null = null;
  const transport = createTransport({
    baseURL: '/api',
    getToken: () => (sentToken = readSession()?.token ?? null),
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
          hooks.onSessionEnded?.();
        hooks.onResult(result);
        if (result.problem === undefined) void readReportsChosenOffline();
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
  const unsubscribe = onOutboxChange(() => {
    void registerBackgroundSync();
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

/** Lab reports chosen offline are read once their files are uploaded (loaded only when one waits). */
async function readReportsChosenOffline(): Promise<void> {
  try {
    const db = userDb();
    if ((await db.labExtractions.where('state').equals('waiting').count()) === 0) return;
    const { readWaitingReports } = await import('./lab-report-extractions');
    await readWaitingReports(db);
  } catch {
    // Signed out meanwhile, or the module could not load offline: the next sync tries again.
  }
}

async function serviceWorkerRegistration(): Promise<BackgroundRegistration | null> {
  if (!('serviceWorker' in navigator) || !navigator.serviceWorker.controller) return null;
  return navigator.serviceWorker.ready;
}

/** Asks the browser to fire `sync` in the service worker when the device is online, even if the page is closed. */
async function registerBackgroundSync(): Promise<void> {
  try {
    await (await serviceWorkerRegistration())?.sync?.register(BACKGROUND_SYNC_TAG);
  } catch {
    // No Background Sync here: the page's own triggers replay the queue on the next open.
  }
}

/** The nightly sync of an installed app, where the browser offers it. */
async function registerPeriodicSync(): Promise<void> {
  try {
    const registration = await serviceWorkerRegistration();
    if (!registration?.periodicSync) return;
    const status = await navigator.permissions.query({ name: 'periodic-background-sync' as PermissionName });
    if (status.state === 'granted')
      await registration.periodicSync.register(PERIODIC_SYNC_TAG, { minInterval: 12 * 60 * 60 * 1000 });
  } catch {
    // Not installed, or not offered by this browser: the page syncs whenever it is open.
  }
}
