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
  billingPageAddress,
  cancelSubscription,
  changePlan,
  goToCheckout,
  isReportable,
  refreshSubscription,
  renewSubscription,
  resumeSubscription,
  subscribeToPlan,
} from '../../../local/billing';

// The Subscription screen's actions: subscribe, change to a chosen plan (confirmed first, on the screen),
// renew, cancel, resume, and update the card on the provider's page. Each needs the server: offline it says so
// at once. A change that needs payment first goes to the checkout page the server answers; one that took
// effect at once is saved on the device (the screen follows) and toasted. A refusal is toasted with the
// server's words or 'Something went wrong', and the subscription is fetched again, since a refusal
// usually means the device's copy is out of date (e.g. it was canceled on another device).

export type BillingAction = 'subscribe' | 'upgrade' | 'change' | 'renew' | 'cancel' | 'resume' | 'card';

/** The action running now and on which plan (only that button shows it is busy). */
export type Pending = { action: BillingAction; planId: string | null } | null;

const FAILURE_TEXT: Record<BillingAction, string> = {
  subscribe: DEFAULT_FAILURE_TEXT,
  upgrade: BILLING_MESSAGES.upgradeFailed,
  change: BILLING_MESSAGES.changeFailed,
  renew: DEFAULT_FAILURE_TEXT,
  cancel: BILLING_MESSAGES.cancelFailed,
  resume: BILLING_MESSAGES.resumeFailed,
  card: BILLING_MESSAGES.cardFailed,
};

type PlanAction = 'subscribe' | 'upgrade' | 'change' | 'renew';
const SUCCESS_TEXT: Record<PlanAction, string> = {
  subscribe: BILLING_MESSAGES.subscribed,
  upgrade: BILLING_MESSAGES.upgraded,
  change: BILLING_MESSAGES.changed,
  renew: BILLING_MESSAGES.renewed,
};

export function useBillingActions(subscription: Subscription | null | undefined, userId: string | null) {
  const [pending, setPending] = useState<Pending>(null);

  /** Whether a change can be asked now; offline it says at once that it needs a connection. */
  const canAsk = () => {
    if (navigator.onLine) return true;
    toast.error(BILLING_MESSAGES.needsConnection, { id: BILLING_MESSAGES.needsConnection });
    return false;
  };

  const attempt = async (action: BillingAction, planId: string | null, call: () => Promise<void>) => {
    if (!canAsk()) return false;
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
  const follow = (action: PlanAction, answer: CheckoutResponse) => {
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
    canAsk,
    subscribe: (plan: Plan) =>
      attempt('subscribe', plan.id, async () => {
        if (!userId) throw new Error(DEFAULT_FAILURE_TEXT);
        await follow('subscribe', await subscribeToPlan(userDb(), { planId: plan.id, userId }));
      }),
    /** The plan the person chose and confirmed (an upgrade is toasted as one). */
    change: (plan: Plan, upgrade: boolean) =>
      attempt(upgrade ? 'upgrade' : 'change', plan.id, async () => {
        await follow(upgrade ? 'upgrade' : 'change', await changePlan(userDb(), customerId, plan.id));
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
    /** Resume Plan: undoes a cancel set for the period's end. */
    resume: () =>
      attempt('resume', subscription?.plan_id ?? null, async () => {
        await resumeSubscription(userDb(), customerId);
        toast.success(BILLING_MESSAGES.resumed);
      }),
    /** Off to the provider's page to change the card (the button stays busy while the page leaves). */
    updateCard: () =>
      attempt('card', null, async () => {
        goToCheckout(await billingPageAddress(customerId));
        await new Promise<void>(() => undefined);
      }),
  };
}
