import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../domain/billing';
import type { ProviderSubscription } from './provider';

// Stripe's objects, read the same way whichever provider made them: the SDK's answers (Stripe) and the
// test-mode provider's books (test_billing_objects) have the same shape. Only the fields Kincare reads
// are typed here; the SDK's own types are wider and fit these.

export type StripeSubscriptionLike = {
  id: string;
  customer: string | { id: string };
  status: string;
  cancel_at_period_end: boolean;
  start_date: number;
  ended_at: number | null;
  trial_end: number | null;
  metadata: Record<string, string> | null;
  items: {
    data: {
      id: string;
      /** Since API version 2025-03-31 the period is on the item; older versions put it on the subscription. */
      current_period_end?: number;
      price: { id: string; lookup_key: string | null; recurring?: { interval: string } | null };
    }[];
  };
  current_period_end?: number;
};

/** A Stripe event, as verified by the SDK's constructEvent (only what the handler reads). */
export type StripeEventLike = {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
};

/** A subscription that names no plan: not one of Kincare's (another product on the same account). */
export class SubscriptionPlanUnknownError extends Error {}

const fromSeconds = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string')
    return (value as { id: string }).id;
  return null;
};

function statusOf(raw: string): SubscriptionStatus {
  if (raw === 'cancelled') return 'canceled';
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(raw)
    ? (raw as SubscriptionStatus)
    : 'incomplete';
}

/** The provider's subscription in Kincare's terms. Throws when it names no plan Kincare can know. */
export function fromStripeSubscription(object: StripeSubscriptionLike): ProviderSubscription {
  const item = object.items.data[0];
  const planId = object.metadata?.planId ?? item?.price.lookup_key ?? null;
  if (!planId)
    throw new SubscriptionPlanUnknownError(
      `subscription ${object.id} names no plan (no metadata.planId or price lookup key)`,
    );
  return {
    id: object.id,
    customerId: idOf(object.customer) ?? '',
    planId,
    userId: object.metadata?.userId ?? null,
    status: statusOf(object.status),
    cancelAtPeriodEnd: object.cancel_at_period_end,
    startDate: fromSeconds(object.start_date) ?? new Date(0),
    endedAt: fromSeconds(object.ended_at),
    currentPeriodEnd: fromSeconds(item?.current_period_end ?? object.current_period_end),
    trialEnd: fromSeconds(object.trial_end),
  };
}

/** The event types the handler acts on (README.md beside this file); any other is acknowledged and left. */
export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/** What an event says about whose subscription changed. */
export type EventSubject = {
  subscriptionId: string | null;
  customerId: string | null;
  userId: string | null;
};

/**
 * The subscription an event is about. Checkout sessions name it in `subscription` (and the person in
 * `client_reference_id`); subscription events are the subscription; invoices name it in `subscription`
 * (older API versions) or `parent.subscription_details.subscription` (2025-03-31 and later).
 */
export function eventSubject(event: StripeEventLike): EventSubject {
  const object = event.data.object;
  const customerId = idOf(object.customer);
  if (event.type.startsWith('checkout.session.')) {
    const reference = object.client_reference_id;
    return {
      subscriptionId: idOf(object.subscription),
      customerId,
      userId: typeof reference === 'string' ? reference : null,
    };
  }
  if (event.type.startsWith('customer.subscription.')) {
    const metadata = object.metadata as Record<string, string> | null | undefined;
    return { subscriptionId: idOf(object.id), customerId, userId: metadata?.userId ?? null };
  }
  if (event.type.startsWith('invoice.')) {
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return {
      subscriptionId: idOf(object.subscription) ?? idOf(parent?.subscription_details?.subscription),
      customerId,
      userId: null,
    };
  }
  return { subscriptionId: null, customerId, userId: null };
}
