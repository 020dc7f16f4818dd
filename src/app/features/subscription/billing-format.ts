import {
  BILLING_MESSAGES,
  isCanceled,
  type Subscription,
  type SubscriptionStatus,
} from '../../../domain/billing';
import { formatDate } from '../../../domain/clock';
import type { BadgeTone } from '../../ui/badge';

// How the Subscription screen names a subscription's state: the status badge's colour (active
// teal, trialing yellow, anything else red), the status in words, and its dates.

export function statusTone(status: SubscriptionStatus | string): BadgeTone {
  if (status === 'active') return 'info'; // the theme's teal
  if (status === 'trialing') return 'warning'; // yellow
  return 'danger';
}

/** 'past_due' -> 'Past due'; 'cancelled' is read as Stripe's 'canceled'. */
export function statusLabel(status: string): string {
  const words = (status === 'cancelled' ? 'canceled' : status).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** 'Thu, Apr 01, 2027', or a dash when the server gave no date. */
export function billingDate(iso: string | null): string {
  return (iso && formatDate(iso)) || '—';
}

/** The Manage tab's Renewal Date: when the plan renews, or that it does not. */
export function renewalText(
  subscription: Pick<Subscription, 'subscription_status' | 'cancel_at_period_end' | 'current_period_end'>,
): string {
  const status = subscription.subscription_status;
  if (isCanceled(status) || status === 'incomplete_expired') return 'Does not renew';
  if (subscription.cancel_at_period_end)
    return `Does not renew (ends ${billingDate(subscription.current_period_end)})`;
  return billingDate(subscription.current_period_end);
}

/** 'Trialing until Thu, Apr 01, 2027', or the status in words. */
export function statusSummary(subscription: Pick<Subscription, 'subscription_status' | 'trial_end'>): string {
  if (subscription.subscription_status === 'trialing' && subscription.trial_end)
    return BILLING_MESSAGES.trialingUntil(billingDate(subscription.trial_end));
  return statusLabel(subscription.subscription_status);
}
