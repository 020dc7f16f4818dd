import { z } from 'zod';

// Plans and subscriptions (src/server/services/billing/README.md). A patient has at most one
// subscription, to one plan; the payment provider (Stripe, or the built-in test-mode checkout) owns the
// card and the billing periods, and tells the server what happened by signed webhooks. What a plan
// allows (its limits) is data on the plan, decided in one place and enforced by the server.

export const BILLING_MESSAGES = {
  // The product's texts, word for word.
  upgraded: 'Subscription upgraded successfully',
  canceled: 'Subscription canceled successfully',
  cancelFailed: 'Failed to cancel subscription',
  fetchPlansFailed: 'Failed to fetch plans',
  fetchSubscriptionFailed: 'Failed to fetch subscription',
  upgradeFailed: 'Failed to upgrade subscription',
  confirmCancel: 'Are you sure you want to cancel your subscription? This action cannot be undone.',
  noSubscription: 'You do not have an active subscription. Please subscribe to a plan.',
  free: 'Free',
  currentPlan: 'Current Plan',
  trialDays: (days: number) => `${days}-day free trial`,
  trialingUntil: (date: string) => `Trialing until ${date}`,
  // Ours, beyond the texts above.
  subscriptionRequired: 'Choose a plan to start using Kincare.',
  subscribeLinkExpired: 'This plan choice has expired. Sign in again to choose a plan.',
  alreadySubscribed: 'You already have a subscription. Upgrade or renew it on the Subscription page.',
  notCanceled: 'Your subscription is active; there is nothing to renew.',
  noSubscriptionToChange: 'You do not have a subscription to change.',
  upgradeNotAllowed: 'Only a monthly subscription that is active can move to a yearly plan.',
  planUnknown: 'Choose one of the plans offered.',
  customerUnknown: 'No subscription was found for this customer.',
  renewed: 'Subscription renewed successfully',
  subscribed: 'Your plan is active.',
  webhookSignature: 'The webhook signature could not be verified.',
  webhookBody: 'The webhook body could not be read.',
  checkoutUnknown: 'This checkout link is not valid. Start again from the Subscription page.',
  checkoutExpired: 'This checkout has expired. Start again from the Subscription page.',
  checkoutDone: 'This checkout is already complete.',
  cardDeclined: 'Your card was declined. Use the test card 4242 4242 4242 4242.',
  cardInvalid: 'Enter a card number of 16 digits.',
  expiryInvalid: 'Enter the expiry as MM/YY, in the future.',
  cvcInvalid: 'Enter the 3-digit security code.',
  providerUnavailable: 'The payment service is not answering. Try again in a minute.',
  needsConnection: 'Changing your plan needs a connection. What you see was saved on this device.',
} as const;

/** Codes of billing refusals the app reacts to (beside the message it shows). */
export const BILLING_CODES = {
  subscriptionRequired: 'SUBSCRIPTION_REQUIRED',
  planLimit: 'PLAN_LIMIT',
} as const;

export const PLAN_INTERVALS = ['month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** What a plan allows. Every limit is enforced by the server; `null` means no limit. */
export const planLimitsSchema = z.object({
  /** Caregivers linked to the patient, and invitations still waiting, together. */
  caregivers: z.number().int().nonnegative().nullable(),
  /** Lab reports read automatically (POST /api/lab-reports/ocr) per calendar month (UTC). */
  labExtractionsPerMonth: z.number().int().nonnegative().nullable(),
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;
export type PlanLimitName = keyof PlanLimits;

/** How a limit reads to the person who reached it (the 403 PLAN_LIMIT message). */
export function planLimitMessage(limit: PlanLimitName, planName: string, allowed: number): string {
  switch (limit) {
    case 'caregivers':
      return `Your ${planName} plan allows ${allowed} caregiver${allowed === 1 ? '' : 's'}. Upgrade your plan on the Subscription page to invite more.`;
    case 'labExtractionsPerMonth':
      return `Your ${planName} plan reads ${allowed} lab report${allowed === 1 ? '' : 's'} a month automatically, and this month's are used. Enter the results by hand, or upgrade your plan on the Subscription page.`;
  }
}

/** A plan as GET /api/stripe/plans answers it. `price` is in US dollars; 0 means free. */
export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().nonnegative(),
  currency: z.string(),
  interval: z.enum(PLAN_INTERVALS),
  trial_period_days: z.number().int().nonnegative(),
  limits: planLimitsSchema,
});
export type Plan = z.infer<typeof planSchema>;
export const plansResponseSchema = z.object({ data: z.array(planSchema) });

/** Statuses of a subscription: Stripe's, spelled as Stripe does ('canceled'; 'cancelled' is read too). */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'paused',
  'canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A subscription as GET /api/stripe/subscription answers it. Dates are ISO 8601 instants. */
export const subscriptionSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  price: z.number().nonnegative(),
  interval: z.enum(PLAN_INTERVALS),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  cancel_at_period_end: z.boolean(),
  start_date: z.string(),
  end_date: z.string().nullable(),
  current_period_end: z.string().nullable(),
  trial_end: z.string().nullable(),
  limits: planLimitsSchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionResponseSchema = z.object({ data: subscriptionSchema.nullable() });

/** `checkout_url`: where to send the person to pay (absent when the change took effect at once). */
export const checkoutResponseSchema = z.object({
  checkout_url: z.string().nullable(),
  subscription: subscriptionSchema.nullable(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

export const planIdSchema = z
  .string({ error: BILLING_MESSAGES.planUnknown })
  .regex(/^[a-z0-9-]{1,40}$/, BILLING_MESSAGES.planUnknown);
export const customerIdSchema = z
  .string({ error: BILLING_MESSAGES.customerUnknown })
  .regex(/^cus_[A-Za-z0-9_]{1,100}$/, BILLING_MESSAGES.customerUnknown);

export const upgradeBodySchema = z.object({ planId: planIdSchema });
export const renewBodySchema = z.object({ customerId: customerIdSchema, planId: planIdSchema });
/** `subscribeToken`: from the login's 403 SUBSCRIPTION_REQUIRED, for a person not signed in yet. */
export const subscribeBodySchema = z.object({
  planId: planIdSchema,
  userId: z.uuid({ error: 'userId must be an id.' }),
  subscribeToken: z.string().max(2000).optional(),
});

/** The body of the login's 403 when a patient has no subscription that lets them in. */
export const subscriptionRequiredBodySchema = z.object({
  message: z.string(),
  code: z.literal(BILLING_CODES.subscriptionRequired),
  userId: z.string(),
  subscribeToken: z.string(),
  /** The plan chosen at a corporate sign-up (/signup/:plan), to pre-select. */
  planId: z.string().nullable(),
});
export type SubscriptionRequiredBody = z.infer<typeof subscriptionRequiredBodySchema>;

const CANCELED: readonly string[] = ['canceled', 'cancelled'];
export const isCanceled = (status: string): boolean => CANCELED.includes(status);

/**
 * Whether the subscription lets the patient in: trialing, active, or behind on a payment (the provider
 * retries the card for a while); a canceled one until the end of the period already paid for.
 */
export function subscriptionAllowsUse(
  subscription: Pick<Subscription, 'subscription_status' | 'current_period_end'> | null,
  now: Date,
): boolean {
  if (!subscription) return false;
  const status = subscription.subscription_status;
  if (status === 'trialing' || status === 'active' || status === 'past_due') return true;
  if (isCanceled(status) && subscription.current_period_end)
    return new Date(subscription.current_period_end).getTime() > now.getTime();
  return false;
}

/** Which plan card elements a card shows (src/server/services/billing/README.md). */
export type PlanCardState = {
  isCurrent: boolean;
  showUpgrade: boolean;
  showResume: boolean;
  showRenew: boolean;
  showSubscribe: boolean;
  /** The trial's end, when the current plan is trialing ('Trialing until {date}'). */
  trialingUntil: string | null;
};

export function planCardState(
  plan: Pick<Plan, 'id' | 'interval'>,
  subscription: Subscription | null,
): PlanCardState {
  const canceled = subscription ? isCanceled(subscription.subscription_status) : false;
  const isCurrent = Boolean(subscription && subscription.plan_id === plan.id && !canceled);
  const active = subscription?.subscription_status === 'active';
  return {
    isCurrent,
    showUpgrade: Boolean(
      subscription &&
      active &&
      !subscription.cancel_at_period_end &&
      subscription.interval === 'month' &&
      plan.interval === 'year',
    ),
    showResume: Boolean(subscription && active && subscription.cancel_at_period_end && isCurrent),
    showRenew: canceled,
    showSubscribe: !subscription,
    trialingUntil:
      isCurrent && subscription?.subscription_status === 'trialing' ? subscription.trial_end : null,
  };
}
