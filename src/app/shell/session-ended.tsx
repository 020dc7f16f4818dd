import { UNAUTHORIZED_TOAST } from '../../domain/error-texts';
import type { SessionEnded } from '../../local/http-events';
import { toastLater } from '../ui/toast-later';

// What the person is told when their session ends without them signing out here (a 401): the word the
// app has always shown, then why and what the device kept for them. The device cannot tell which of the
// reasons it was (the server says only that the session is over), so it names each.

/**
 * The toast's id. It outlives the page it came from (shell/toasts.tsx): the session ends on one page and
 * the person reads why on the sign-in page the app goes to.
 */
export const SESSION_ENDED_TOAST_ID = 'unauthorized';

/** Long enough to read two sentences (other toasts close after 2 s). */
const READING_TIME_MS = 10_000;

function sessionEndedText({ unsentChanges }: SessionEnded): string {
  const why =
    'Your session on this device has ended: your password was changed, this device was signed out from another one, or your sign-in expired. Please sign in again.';
  if (unsentChanges <= 0) return why;
  const kept =
    unsentChanges === 1
      ? 'Your 1 unsent change is kept on this device'
      : `Your ${unsentChanges} unsent changes are kept on this device`;
  return `${why} ${kept} and will be sent when you sign in again.`;
}

export function saySessionEnded(ended: SessionEnded): void {
  toastLater((toast) =>
    toast.error(
      <span>
        <strong className="block">{UNAUTHORIZED_TOAST.trim()}</strong>{' '}
        <span className="block">{sessionEndedText(ended)}</span>
      </span>,
      { id: SESSION_ENDED_TOAST_ID, duration: READING_TIME_MS },
    ),
  );
}
