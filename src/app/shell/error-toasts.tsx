import toast from 'react-hot-toast';

// The app's standard error toasts, with one addition: a plan's limit reached (403 PLAN_LIMIT, whose message
// ends by pointing to the Subscription page) offers the way there. Meant to be loaded by the app's onError
// (main.tsx) with a dynamic import, as react-hot-toast itself is, so the first screens carry none of it.

/** The words every PLAN_LIMIT message uses (domain/billing.ts, planLimitMessage). */
const POINTS_TO_SUBSCRIPTION = /the Subscription page/i;

export function isPlanLimitMessage(message: string): boolean {
  return POINTS_TO_SUBSCRIPTION.test(message);
}

export function showErrorToasts(messages: readonly string[]): void {
  for (const message of messages) {
    if (!isPlanLimitMessage(message)) {
      toast.error(message, { id: message });
      continue;
    }
    // Longer than the usual 2 s: the person has a sentence to read and a link to take.
    toast.error(
      <span>
        {message}{' '}
        <a href="/subscription" className="inline-flex min-h-11 items-center font-semibold underline">
          Open Subscription
        </a>
      </span>,
      { id: message, duration: 8000 },
    );
  }
}
