/// <reference lib="webworker" />
import '../src/local/zod-without-eval';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { readSessionCopy } from '../src/local/session-store';
import { syncStoredSession } from '../src/local/sync-worker';
import { BACKGROUND_SYNC_TAG, PERIODIC_SYNC_TAG } from '../src/local/sync-tags';
import {
  readReminder,
  readTestReminder,
  reminderNotification,
  takeFromReminder,
  testReminderNotification,
} from '../src/local/reminder-actions';
import type { ReminderPush } from '../src/domain/reminders';

// The service worker: precaches the app shell (the build's files, listed by vite-plugin-pwa) and answers
// every navigation with the cached index.html, so the installed app opens with no signal. API calls are
// never cached here: personal data lives in the per-user IndexedDB replica, which logout deletes.
// On `sync` (Background Sync, also with the page closed) it replays the queued changes; on
// `periodicsync` (the nightly sync of an installed app) it pushes and pulls (src/local/sync-worker.ts).

declare const self: ServiceWorkerGlobalScope;
type TaggedEvent = ExtendableEvent & { tag: string };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

const syncHere = () => syncStoredSession({ adapter: 'fetch' });

self.addEventListener('sync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === BACKGROUND_SYNC_TAG) tagged.waitUntil(syncHere());
});
self.addEventListener('periodicsync', (event) => {
  const tagged = event as TaggedEvent;
  if (tagged.tag === PERIODIC_SYNC_TAG) tagged.waitUntil(syncHere());
});

// Medicine reminders (README.md beside this file): the server pushes a dose that is due (or, to a
// caregiver, one that was not marked); the notification's Taken writes the mark into this device's outbox
// and syncs (with no signal it waits there, and Background Sync sends it later); Snooze asks the server to
// remind again in 10 minutes.
self.addEventListener('push', (event: PushEvent) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    return; // not ours: nothing to show
  }
  const message = readReminder(data);
  const test = message ? null : readTestReminder(data);
  const shown = message ? reminderNotification(message) : test ? testReminderNotification(test) : null;
  if (!shown) return; // not ours: nothing to show
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

async function openApp(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    await open.navigate(url).catch(() => undefined);
    return;
  }
  await self.clients.openWindow(url);
}

async function takenFromNotification(message: ReminderPush): Promise<void> {
  const outcome = await takeFromReminder(message, await readSessionCopy());
  if (outcome !== 'queued') {
    await openApp(message.url); // someone else is signed in, or nobody: the app says what to do
    return;
  }
  try {
    await syncHere();
  } catch {
    // Background Sync (Chromium) replays the outbox once a connection is back, with no page open.
    const registration = self.registration as ServiceWorkerRegistration & {
      sync?: { register: (tag: string) => Promise<void> };
    };
    await registration.sync?.register(BACKGROUND_SYNC_TAG).catch(() => undefined);
  }
}

async function snoozeFromNotification(message: ReminderPush): Promise<void> {
  const session = await readSessionCopy();
  const response = session
    ? await fetch('/api/push/snooze', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
        body: JSON.stringify({ schedule_id: message.schedule_id, date: message.date, time: message.time }),
      }).catch(() => null)
    : null;
  if (response?.ok) return;
  // No connection (or no session): the reminder stays on screen rather than vanishing unsnoozed.
  const { title, options } = reminderNotification(message);
  await self.registration.showNotification(title, {
    ...options,
    body: 'Snooze needs a connection. Tap Taken when you have taken it.',
  });
}

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  const message = readReminder(event.notification.data);
  event.notification.close();
  const test = message ? null : readTestReminder(event.notification.data);
  if (test) event.waitUntil(openApp(test.url));
  if (!message) return;
  if (event.action === 'taken') event.waitUntil(takenFromNotification(message));
  else if (event.action === 'snooze') event.waitUntil(snoozeFromNotification(message));
  else event.waitUntil(openApp(message.url));
});
