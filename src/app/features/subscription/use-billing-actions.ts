import { useState } from 'react';
import toast from 'react-hot-toast';
import {
  BILLING_MESSAGES,
  type CheckoutResponse,
  type Plan,
  type Subscription,
} from '../../../domain/billing';
import { DEFAULT_FAILURE_TEXT } from '../../../domain/error-texts';
import { userDb } from '../../../local/db';
import {
  billingFailureText,
  cancelSubscription,
  goToCheckout,
  isReportable,
  refreshSubscription,
  renewSubscription,
  subscribeToPlan,
  upgradeSubscription,
} from '../../../local/billing';

// The Subscription screen's actions. Each needs the server: offline it says so
// at once. A change that needs payment first goes to the checkout page the server answers; one that took
// effect at once is saved on the device (the screen follows) and toasted. A refusal is toasted with the
// server's words or 'Something went wrong', and the subscription is fetched again, since a refusal
// usually means the device's copy is out of date (e.g. it was canceled on another device).

export type BillingAction = 'subscribe' | 'upgrade' | 'renew' | 'cancel';

/** The action running now and on which plan (only that button shows it is busy). */
export type Pending = { action: BillingAction; planId: string | null } | null;

const FAILURE_TEXT: Record<BillingAction, string> = {
  subscribe: DEFAULT_FAILURE_TEXT,
  upgrade: BILLING_MESSAGES.upgradeFailed,
  renew: DEFAULT_FAILURE_TEXT,
  cancel: BILLING_MESSAGES.cancelFailed,
};

const SUCCESS_TEXT: Record<Exclude<BillingAction, 'cancel'>, string> = {
  subscribe: BILLING_MESSAGES.subscribed,
  upgrade: BILLING_MESSAGES.upgraded,
  renew: BILLING_MESSAGES.renewed,
};

export function useBillingActions(subscription: Subscription | null | undefined, userId: string | null) {
  const [pending, setPending] = useState<Pending>(null);

  const attempt = async (action: BillingAction, planId: string | null, call: () => Promise<void>) => {
    if (!navigator.onLine) {
      toast.error(BILLING_MESSAGES.needsConnection, { id: BILLING_MESSAGES.needsConnection });
      return false;
    }
    setPending({ action, planId });
    try {
      await call();
      return true;
    } catch (error) {
      if (isReportable(error)) toast.error(billingFailureText(error, FAILURE_TEXT[action]));
      refreshSubscription(userDb()).catch(() => undefined);
      return false;
    } finally {
      setPending(null);
    }
  };

  /** Payment first: off to the checkout (the button stays busy while the page leaves). */
  const follow = (action: Exclude<BillingAction, 'cancel'>, answer: CheckoutResponse) => {
    if (answer.checkout_url) {
      goToCheckout(answer.checkout_url);
      return new Promise<void>(() => undefined);
    }
    if (answer.subscription) toast.success(SUCCESS_TEXT[action]);
    // A missing checkout address is only logged, never shown.
    else console.error('The server answered no checkout address and no subscription.');
    return Promise.resolve();
  };

  const customerId = subscription?.customer_id ?? '';
  return {
    pending,
    subscribe: (plan: Plan) =>
      attempt('subscribe', plan.id, async () => {
        if (!userId) throw new Error(DEFAULT_FAILURE_TEXT);
        await follow('subscribe', await subscribeToPlan(userDb(), { planId: plan.id, userId }));
      }),
    upgrade: (plan: Plan) =>
      attempt('upgrade', plan.id, async () => {
        await follow('upgrade', await upgradeSubscription(userDb(), customerId, plan.id));
      }),
    renew: (plan: Plan) =>
      attempt('renew', plan.id, async () => {
        await follow('renew', await renewSubscription(userDb(), customerId, plan.id));
      }),
    cancel: () =>
      attempt('cancel', null, async () => {
        await cancelSubscription(userDb(), customerId);
        toast.success(BILLING_MESSAGES.canceled);
      }),
    /** Resume Plan's action is not implemented yet: it is only logged. */
    resume: (plan: Plan) => console.info(`Resume Plan asked for ${plan.id}: not available yet.`),
  };
}
