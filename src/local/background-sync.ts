import { BACKGROUND_SYNC_TAG, PERIODIC_SYNC_TAG } from './sync-tags';

// What the browser is asked to do for the queue while no page may be open: fire `sync` in the service
// worker once the device is online (Background Sync, Chromium), and sync nightly (Periodic Background Sync,
// an installed app where the browser allows it). Elsewhere (Safari, Firefox) the queue waits in IndexedDB
// and goes out on the next open. Asked by the queue itself (outbox.ts) right after each change, so a change
// queued before the page's sync client has started (it starts once the screen is drawn) is covered too.

type BackgroundRegistration = ServiceWorkerRegistration & {
  sync?: { register: (tag: string) => Promise<void> };
  periodicSync?: { register: (tag: string, options: { minInterval: number }) => Promise<void> };
};

async function serviceWorkerRegistration(): Promise<BackgroundRegistration | null> {
  // No navigator in Node (the sync tests), no controller in the service worker itself or before it took over.
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  if (!navigator.serviceWorker.controller) return null;
  return navigator.serviceWorker.ready;
}

/** Asks the browser to fire `sync` in the service worker when the device is online, even if the page is closed. */
export async function registerBackgroundSync(): Promise<void> {
  try {
    await (await serviceWorkerRegistration())?.sync?.register(BACKGROUND_SYNC_TAG);
  } catch {
    // No Background Sync here: the page's own triggers replay the queue on the next open.
  }
}

/** The nightly sync of an installed app, where the browser offers it. */
export async function registerPeriodicSync(): Promise<void> {
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
