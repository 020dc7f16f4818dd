import { useEffect, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { BILLING_MESSAGES, type Subscription } from '../../../domain/billing';
import { hasUserDb, userDb } from '../../../local/db';
import { refreshSubscription } from '../../../local/billing';
import { useSession } from '../../shell/use-session';
import { statusSummary } from './billing-format';
import { Card } from '../../ui/card';

// /billing/success and /billing/cancel (public): where the checkout sends the person back.
// They may be signed in (a change from the Subscription screen) or not yet (a plan chosen when the login
// asked for one): each page says what happened and offers the next step for either.

const primaryLinkClass =
  'mt-6 inline-flex min-h-11 items-center justify-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface';

function ResultFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <Card as="div" padding="frame" className="w-full max-w-lg min-w-0">
        <h1 className="mb-4 text-title">{title}</h1>
        {children}
      </Card>
    </main>
  );
}

/** Whether a patient is signed in on this device (their replica open), to send them to their screen. */
function useSignedInPatient(): boolean {
  const session = useSession();
  return session?.role === 'Patient' && hasUserDb();
}

export function BillingSuccessPage() {
  const signedIn = useSignedInPatient();
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    // The server wrote the subscription before sending the person here: save it on the device now, so
    // the Subscription screen shows it even if the next step is taken offline.
    refreshSubscription(userDb())
      .then((saved) => live && setSubscription(saved))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [signedIn]);
  return (
    <ResultFrame title="Subscription confirmed">
      <p role="status">
        {BILLING_MESSAGES.subscribed}
        {subscription ? ` ${subscription.plan_name}: ${statusSummary(subscription)}.` : ''}
      </p>
      {signedIn ? (
        <Link to="/subscription" className={primaryLinkClass}>
          Go to Subscription
        </Link>
      ) : (
        <>
          <p className="mt-2 text-muted">Sign in to start using Kincare.</p>
          <Link to="/login" className={primaryLinkClass}>
            Go to sign in
          </Link>
        </>
      )}
    </ResultFrame>
  );
}

export function BillingCancelPage() {
  const signedIn = useSignedInPatient();
  return (
    <ResultFrame title="Checkout canceled">
      <p role="status">Nothing was charged, and your plan has not changed.</p>
      {signedIn ? (
        <Link to="/subscription" className={primaryLinkClass}>
          Back to Subscription
        </Link>
      ) : (
        <>
          <p className="mt-2 text-muted">Sign in again to choose a plan.</p>
          <Link to="/login" className={primaryLinkClass}>
            Go to sign in
          </Link>
        </>
      )}
    </ResultFrame>
  );
}
