import { useEffect, useId, useState } from 'react';
import { REMINDER_MESSAGES } from '../../../domain/reminders';
import { errorMessages } from '../../../local/http-errors';
import {
  disableReminders,
  enableReminders,
  reminderSupport,
  remindersEnabled,
  sendTestReminder,
  type ReminderSupport,
} from '../../../local/push-subscription';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';

// 'Reminders on this device': each device opts in on its own. It says plainly when
// this browser cannot show reminders or the person blocked them, and shows whatever went wrong when
// turning them on or off (no connection, or a server without the reminder routes) instead of pretending.

const OUR_WORDS: readonly unknown[] = Object.values(REMINDER_MESSAGES);

/**
 * What a failure says: the server's words for an HTTP answer, ours for what we threw; whatever the browser
 * threw in its own words ("Registration failed - permission denied") becomes a plain sentence.
 */
export function reminderFailure(error: unknown): string {
  const isHttp =
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true;
  if (isHttp) return errorMessages(error).join(' ');
  if (error instanceof Error && OUR_WORDS.includes(error.message)) return error.message;
  return REMINDER_MESSAGES.browserFailed;
}

type Platform = { userAgent: string; standalone: boolean };

/**
 * How to get reminders on this device, step by step, when the browser cannot show them yet or they are
 * blocked: an iPhone or iPad shows web notifications only from the app on the Home Screen; elsewhere the
 * site's notification setting is found beside the address.
 */
export function reminderSetupSteps(support: ReminderSupport, platform: Platform): string[] {
  const apple = /iPhone|iPad|iPod/.test(platform.userAgent);
  if (apple && !platform.standalone)
    return [
      'On an iPhone or iPad, reminders work only in Kincare opened from the Home Screen.',
      'In Safari, tap Share, then Add to Home Screen.',
      'Open Kincare from its icon on the Home Screen and turn reminders on there.',
    ];
  if (support !== 'denied') return [];
  if (apple)
    return ['Open the Settings app, tap Notifications, then Kincare, and turn on Allow Notifications.'];
  if (/Android/.test(platform.userAgent))
    return [
      'Tap the icon at the left of the address bar (or the ⋮ menu, then Settings, Site settings).',
      'Tap Permissions, then Notifications, and choose Allow.',
      'Come back here and turn reminders on.',
    ];
  return [
    'Click the icon at the left of the address bar.',
    'Set Notifications to Allow (in Site settings if it is not listed there).',
    'Reload this page and turn reminders on.',
  ];
}

function currentPlatform(): Platform {
  const standalone =
    typeof window !== 'undefined' &&
    (window.matchMedia?.('(display-mode: standalone)').matches === true ||
      (navigator as { standalone?: boolean }).standalone === true);
  return { userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent, standalone };
}

/** The line under the switch when this browser cannot, or may not, show reminders. */
function supportMessage(support: ReminderSupport): string | null {
  if (support === 'unsupported') return REMINDER_MESSAGES.unsupported;
  if (support === 'denied') return REMINDER_MESSAGES.denied;
  return null;
}

export function RemindersSwitch() {
  const headingId = useId();
  const [support, setSupport] = useState<ReminderSupport>(() => reminderSupport());
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    const read = () =>
      remindersEnabled().then(
        (value) => {
          if (current) setEnabled(value);
        },
        () => {
          if (current) setEnabled(false);
        },
      );
    void read();
    // On a first visit the service worker takes the page over after this screen is drawn: only then can
    // this device's subscription be read.
    const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    worker?.addEventListener('controllerchange', read);
    return () => {
      current = false;
      worker?.removeEventListener('controllerchange', read);
    };
  }, []);

  const toggle = async () => {
    setBusy(true);
    setFailure(null);
    setMessage(null);
    try {
      if (enabled) {
        await disableReminders();
        setEnabled(false);
        setMessage(REMINDER_MESSAGES.disabled);
      } else {
        await enableReminders();
        setEnabled(true);
        setMessage(REMINDER_MESSAGES.enabled);
      }
    } catch (error) {
      // The browser's prompt may have just been answered "Block": the support line then says so.
      const now = reminderSupport();
      setSupport(now);
      const text = reminderFailure(error);
      setFailure(text === supportMessage(now) ? null : text);
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async () => {
    setTesting(true);
    setFailure(null);
    setMessage(null);
    try {
      setMessage(await sendTestReminder());
    } catch (error) {
      setFailure(reminderFailure(error));
    } finally {
      setTesting(false);
    }
  };

  const unavailable = support !== 'supported';
  const steps = reminderSetupSteps(support, currentPlatform());
  return (
    <section aria-labelledby={headingId} data-testid="reminders" className="mt-8">
      <h2 id={headingId} className="mb-2 text-heading text-text">
        Reminders on this device
      </h2>
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-surface p-4 ring-1 ring-border">
        <p className="min-w-0 flex-1 text-text">
          A notification at each dose time, with Taken and Snooze, on this device only.
        </p>
        <button
          type="button"
          role="switch"
          aria-checked={enabled === true}
          aria-label="Reminders on this device"
          disabled={unavailable || busy || enabled === null}
          onClick={() => void toggle()}
          className="inline-flex min-h-14 min-w-28 items-center justify-center gap-2 rounded-full border border-border-strong bg-surface px-4 text-base font-semibold text-text focus:outline-none focus-visible:ring-2 focus-visible:ring-focus disabled:cursor-not-allowed disabled:opacity-60 aria-checked:border-primary aria-checked:bg-primary aria-checked:text-primary-on"
        >
          {busy ? 'Please wait...' : enabled ? 'On' : 'Off'}
        </button>
      </div>
      {enabled === true && !unavailable ? (
        <Button
          variant="secondary"
          className="mt-3"
          disabled={testing || busy}
          onClick={() => void sendTest()}
        >
          {testing ? 'Sending...' : 'Send a test reminder'}
        </Button>
      ) : null}
      {unavailable ? (
        <p className="mt-2 text-muted" data-testid="reminders-support">
          {supportMessage(support)}
        </p>
      ) : null}
      {steps.length > 0 ? (
        <ol className="mt-2 list-decimal space-y-1 pl-6 text-text" aria-label="How to turn reminders on">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      ) : null}
      <p role="status" className="mt-2 text-small text-muted">
        {message}
      </p>
      <FormAlert message={failure} className="mt-2" />
    </section>
  );
}
