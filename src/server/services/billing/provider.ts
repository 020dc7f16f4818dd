import type { PaymentCard, PlanInterval, SubscriptionStatus } from '../../../domain/billing';

// The payment provider, as the billing service sees it. Two real implementations: Stripe through its
// SDK (stripe-provider.ts, when STRIPE_SECRET_KEY is set) and the built-in test-mode checkout
// (test-provider.ts, by default). Both speak Stripe's shapes: their subscriptions are Stripe-shaped
// objects read by `fromStripeSubscription`, and their webhooks are Stripe events signed the Stripe way,
// verified and handled by the one handler (webhooks.ts).

/** A plan as a provider needs it. */
export type ProviderPlan = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  currency: string;
  interval: PlanInterval;
  trialPeriodDays: number;
  /** The Stripe price found or made for this plan earlier (plans.stripe_price_id), if any. */
  stripePriceId: string | null;
};

/** A subscription as the provider holds it, in Kincare's terms. */
export type ProviderSubscription = {
  id: string;
  customerId: string;
  /** Kincare's plan id: the price's lookup key, or the subscription's metadata.planId. */
  planId: string;
  /** Kincare's user id (the subscription's metadata.userId), when the provider carries it. */
  userId: string | null;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  startDate: Date;
  endedAt: Date | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
};

export type CheckoutInput = {
  customerId: string;
  userId: string;
  plan: ProviderPlan;
  /** Where the provider sends the person after paying ({CHECKOUT_SESSION_ID} is filled in by Stripe). */
  successUrl: string;
  cancelUrl: string;
};

export interface PaymentProvider {
  readonly kind: 'stripe' | 'test';
  /** Makes the provider's customer for this person (once: the id is kept on the user). */
  createCustomer(person: { userId: string; email: string; name: string }): Promise<string>;
  /** A hosted checkout for a subscription to `plan`: the address to send the person to. */
  createCheckout(input: CheckoutInput): Promise<{ id: string; url: string }>;
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Moves the subscription to another paid plan at once, prorated by the provider (a trial keeps its end),
   * and undoes a cancel set for the period's end: the person chose to stay, on this plan.
   */
  changePlan(subscriptionId: string, plan: ProviderPlan): Promise<ProviderSubscription>;
  /** Cancels at once (a second subscription that replaced a live one). */
  cancel(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Sets (true) or undoes (false) a cancel at the end of the current period, or of the trial: the person
   * keeps what they have until then, and nothing more is charged.
   */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription>;
  /** The card the provider charges for this customer, or null when none is on file. */
  cardOf(customerId: string): Promise<PaymentCard | null>;
  /** The provider's own page where the customer changes their card; it sends them back to `returnUrl`. */
  createBillingPage(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /**
   * A new subscription to `plan` charged to the card the customer already gave (renewing after a
   * cancel), or null when there is no card on file and the person must go through checkout.
   * `replacing`: the canceled subscription this one replaces, so that a renewal retried after an
   * answer was lost makes one subscription, not two.
   */
  subscribeWithSavedCard(
    customerId: string,
    userId: string,
    plan: ProviderPlan,
    replacing?: string,
  ): Promise<ProviderSubscription | null>;
  /** The webhook secret events are signed with (whsec_…). */
  readonly webhookSecret: string;
}

/** The provider has no object of that id (not an outage: asking again will not help). */
export class ProviderObjectMissingError extends Error {}

/** The provider could not be reached or failed (not the person's mistake): answered as 503. */
export class ProviderUnavailableError extends Error {}
