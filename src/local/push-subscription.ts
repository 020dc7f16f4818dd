import { pushPublicKeySchema, pushTestAnswerSchema, REMINDER_MESSAGES } from '../domain/reminders';
import { http } from './http';

// Medicine reminders on this device (src/server/services/README.md): the person opts in per device. The
// browser makes a push subscription for the server's VAPID key, and the server keeps it for the signed-in
// person; at a dose time the server sends the reminder, and the service worker shows it (sw/sw.ts). Turning
// reminders off here unsubscribes the browser and tells the server to forget the subscription.

export type ReminderSupport = 'supported' | 'unsupported' | 'denied';

/** Whether this browser can receive reminders at all (an installed PWA, or a browser with Push). */
export function reminderSupport(): ReminderSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window))
    return 'unsupported';
  if (typeof Notification !== 'undefined' && Notification.permission === 'denied') return 'denied';
  return 'supported';
}

async function registration(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator) || !navigator.serviceWorker.controller)
    throw new Error(REMINDER_MESSAGES.unsupported);
  return navigator.serviceWorker.ready;
}

/** Whether this device receives reminders for the signed-in person now. */
export async function remindersEnabled(): Promise<boolean> {
  if (reminderSupport() !== 'supported' || !navigator.serviceWorker.controller) return false;
  const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
  return subscription !== null;
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Asks for permission (the browser's prompt), subscribes, and hands the subscription to the server. */
export async function enableReminders(): Promise<void> {
  if (reminderSupport() === 'unsupported') throw new Error(REMINDER_MESSAGES.unsupported);
  if (!navigator.onLine) throw new Error(REMINDER_MESSAGES.offline);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(REMINDER_MESSAGES.denied);
  const { publicKey } = pushPublicKeySchema.parse((await http.get('/push/public-key')).data);
  const pushManager = (await registration()).pushManager;
  const existing = await pushManager.getSubscription();
  // The browser's own refusal ("Registration failed - permission denied") is not for a person to read.
  const subscription =
    existing ??
    (await pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) })
      .catch(() => {
        throw new Error(REMINDER_MESSAGES.setupFailed);
      }));
  const json = subscription.toJSON();
  await http.post('/push/subscriptions', {
    endpoint: json.endpoint,
    keys: json.keys,
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  });
}

/** Stops reminders on this device: the browser forgets the subscription, and so does the server. */
export async function disableReminders(): Promise<void> {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  // Best effort: a subscription the browser dropped answers 410 to the server, which then forgets it too.
  await http.delete('/push/subscriptions', { data: { endpoint } }).catch(() => undefined);
}

/**
 * Asks the server to send this device a test reminder, the way it sends a dose's: answers what to tell
 * the person. With no subscription here (reminders off, or the browser dropped it) it says so.
 */
export async function sendTestReminder(): Promise<string> {
  if (!navigator.onLine) throw new Error(REMINDER_MESSAGES.testOffline);
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) throw new Error(REMINDER_MESSAGES.subscriptionUnknown);
  const response = await http.post('/push/test', { endpoint: subscription.endpoint }, { quiet: true });
  return pushTestAnswerSchema.parse(response.data).message;
}
