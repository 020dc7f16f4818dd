/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { DB_PREFIX, KincareDb, readSessionCopy } from '../src/local/db';
import { createTransport } from '../src/local/sync-transport';
import { syncLockName, syncOnce } from '../src/local/sync-engine';
import { BACKGROUND_SYNC_TAG, PERIODIC_SYNC_TAG } from '../src/local/sync-tags';

// The service worker: precaches the app shell (the build's files, listed by vite-plugin-pwa) and answers
// every navigation with the cached index.html, so the installed app opens with no signal. API calls are
// never cached here: personal data lives in the per-user IndexedDB replica, which logout deletes.
// On `sync` (Background Sync, also with the page closed) it replays the queued changes; on
// `periodicsync` (the nightly sync of an installed app) it pushes and pulls.

declare const self: ServiceWorkerGlobalScope;
type TaggedEvent = ExtendableEvent & { tag: string };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

async function syncFromWorker(): Promise<void> {
  const session = await readSessionCopy();
  if (!session) return; // signed out: nothing of anyone's to send
  const db = new KincareDb(`${DB_PREFIX}${session.userId}`);
  try {
    await db.open();
    const transport = createTransport({
      baseURL: '/api',
      adapter: 'fetch',
      getToken: async () => (await readSessionCopy())?.token ?? null,
    });
    const result = await syncOnce(db, transport, { lockName: syncLockName(session.userId), force: true });
    // Failing the event makes the browser fire `sync` again later, with its own backoff.
    if (!result.ok && result.problem !== 'signed-out')
      throw new Error(`sync incomplete: ${result.problem ?? 'unknown'}`);
  } finally {
    db.close();
  }
}

self.addEventListener('sync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === BACKGROUND_SYNC_TAG) tagged.waitUntil(syncFromWorker());
});
self.addEventListener('periodicsync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === PERIODIC_SYNC_TAG) tagged.waitUntil(syncFromWorker());
});
