import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useLiveQuery } from 'dexie-react-hooks';
import { BILLING_MESSAGES, type Plan, type Subscription } from '../../../domain/billing';
import { hasUserDb, userDb } from '../../../local/db';
import { billingFailureText, isReportable, refreshPlans, refreshSubscription } from '../../../local/billing';
import { useOnline } from '../../ui/use-online';
import { useSession } from '../../shell/use-session';

// What the Subscription screen shows comes from the device (the `billing` table): the server's last answer,
// so the saved plan shows offline too. Opening the screen online, or coming back online, asks again.

export type BillingView = {
  /** Undefined until the device's table has been read, or while nothing was ever fetched. */
  plans: Plan[] | undefined;
  /** Undefined: not known yet; null: the person has no subscription. */
  subscription: Subscription | null | undefined;
  /** When the subscription was last fetched (ISO), or null when never. */
  savedAt: string | null;
};

const NOTHING: BillingView = { plans: undefined, subscription: undefined, savedAt: null };

export function useBillingView(): BillingView {
  const userId = useSession()?.userId;
  return (
    useLiveQuery(async () => {
      if (!userId || !hasUserDb()) return NOTHING;
      const view: BillingView = { ...NOTHING };
      for (const row of await userDb().billing.toArray()) {
        if (row.key === 'plans') view.plans = row.plans;
        else {
          view.subscription = row.subscription;
          view.savedAt = row.saved_at;
        }
      }
      return view;
    }, [userId]) ?? NOTHING
  );
}

/** A failed fetch says so with the store's default words, only when online (offline the saved copy shows). */
export function reportFetchFailure(fallback: string) {
  return (error: unknown) => {
    if (navigator.onLine && isReportable(error))
      toast.error(billingFailureText(error, fallback), { id: fallback });
  };
}

/** Asks the server for plans and subscription when the screen opens and when the connection comes back. */
export function useRefreshBilling(): void {
  const online = useOnline();
  useEffect(() => {
    if (!online || !hasUserDb()) return;
    const db = userDb();
    refreshPlans(db).catch(reportFetchFailure(BILLING_MESSAGES.fetchPlansFailed));
    refreshSubscription(db).catch(reportFetchFailure(BILLING_MESSAGES.fetchSubscriptionFailed));
  }, [online]);
}
