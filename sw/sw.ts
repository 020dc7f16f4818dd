/// <reference lib="webworker" />
import '../src/local/zod-without-eval';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { DB_PREFIX, deleteDataCaches, forgetUserData, KincareDb } from '../src/local/db';
import { deleteSessionCopy, readSessionCopy, SESSION_CHANNEL } from '../src/local/session-store';
import { createTransport } from '../src/local/sync-transport';
import { syncOnce } from '../src/local/sync-engine';
import { syncLockName, withSyncLock } from '../src/local/sync-lock';
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
  let sentToken: string | null = null;
  let ok = false;
  let problem: string | undefined;
  try {
    await db.open();
    const transport = createTransport({
      baseURL: '/api',
      adapter: 'fetch',
      getToken: async () => (sentToken = (await readSessionCopy())?.token ?? null),
    });
    const result = await syncOnce(db, transport, { lockName: syncLockName(session.userId), force: true });
    ok = result.ok;
    problem = result.problem;
  } finally {
    db.close();
  }
  if (problem === 'signed-out') {
    if (sentToken) await forgetEndedSession(session.userId, sentToken);
    return;
  }
  // Failing the event makes the browser fire `sync` again later, with its own backoff.
  if (!ok) throw new Error(`sync incomplete: ${problem ?? 'unknown'}`);
}

/**
 * The session ended (401) while no page was open: the device forgets the person now, as the page would
 * (only their unsent changes stay), unless a page signed in again meanwhile with a newer token. Open pages
 * are told, and follow.
 */
async function forgetEndedSession(userId: string, token: string): Promise<void> {
  if (!(await deleteSessionCopy(token))) return;
  await withSyncLock(syncLockName(userId), () => forgetUserData(userId));
  await deleteDataCaches();
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

self.addEventListener('sync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === BACKGROUND_SYNC_TAG) tagged.waitUntil(syncFromWorker());
});
self.addEventListener('periodicsync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === PERIODIC_SYNC_TAG) tagged.waitUntil(syncFromWorker());
});
