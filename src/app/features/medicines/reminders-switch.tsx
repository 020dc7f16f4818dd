import { useEffect, useId, useState } from 'react';
import { REMINDER_MESSAGES } from '../../../domain/reminders';
import { errorMessages } from '../../../local/http-errors';
import {
  disableReminders,
  enableReminders,
  reminderSupport,
  remindersEnabled,
  type ReminderSupport,
} from '../../../local/push-subscription';
import { FormAlert } from '../../ui/form-alert';

// 'Reminders on this device': each device opts in on its own. It says plainly when
// this browser cannot show reminders or the person blocked them, and shows whatever went wrong when
// turning them on or off (no connection, or a server without the reminder routes) instead of pretending.

/** What a failure says: the server's words for an HTTP answer, our own for a thrown Error. */
export function reminderFailure(error: unknown): string {
  const isHttp =
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true;
  if (!isHttp && error instanceof Error && error.message) return error.message;
  return errorMessages(error).join(' ');
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
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    remindersEnabled().then(
      (value) => {
        if (current) setEnabled(value);
      },
      () => {
        if (current) setEnabled(false);
      },
    );
    return () => {
      current = false;
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

  const unavailable = support !== 'supported';
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
      {unavailable ? (
        <p className="mt-2 text-muted" data-testid="reminders-support">
          {supportMessage(support)}
        </p>
      ) : null}
      <p role="status" className="mt-2 text-small text-muted">
        {message}
      </p>
      <FormAlert message={failure} className="mt-2" />
    </section>
  );
}
