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
  samePlan: 'You are on this plan already.',
  alreadyMovingTo: 'Your plan already moves to this one at the end of the period.',
  alreadyEnding: 'Your subscription is already set to end. Use Resume Plan to keep it.',
  nothingToResume: 'Your subscription is not set to end; there is nothing to resume.',
  changed: 'Subscription changed successfully',
  changeFailed: 'Failed to change subscription',
  resumed: 'Subscription resumed successfully',
  resumeFailed: 'Failed to resume subscription',
  noCardToUpdate: 'A free plan has no card to update.',
  cardUpdated: 'Your card was updated.',
  cardFailed: 'Failed to open the card page',
  cardPageUnknown: 'This card page is not valid. Start again from the Subscription page.',
  cardPageExpired: 'This card page has expired. Start again from the Subscription page.',
  nameOnCardMissing: 'Enter the name on the card.',
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

/** The card the provider charges, as people recognise it (never the number itself). */
export const paymentCardSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2200),
});
export type PaymentCard = z.infer<typeof paymentCardSchema>;

/** 'Visa •••• 4242, expires 12/34'. */
export function cardText(card: PaymentCard): string {
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
  const month = String(card.exp_month).padStart(2, '0');
  return `${brand} •••• ${card.last4}, expires ${month}/${String(card.exp_year % 100).padStart(2, '0')}`;
}

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
  /** The plan that takes over when this one ends at its period's end (a paid plan moving to Free). */
  next_plan_id: z.string().nullable().default(null),
  /** The card on file at the provider (null: none, a free plan, or the provider did not say). */
  card: paymentCardSchema.nullable().default(null),
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
/** POST /api/stripe/subscription/:customerId/change: any plan, chosen by the person. */
export const changeBodySchema = z.object({ planId: planIdSchema });
/** Where to send the person to update their card (the provider's billing page). */
export const billingPageResponseSchema = z.object({ url: z.string() });
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

/** A subscription that runs (trialing, active, or behind on a payment): only such a one changes plan or cancels. */
export const isLive = (subscription: Pick<Subscription, 'subscription_status'>): boolean =>
  ['trialing', 'active', 'past_due'].includes(subscription.subscription_status);

/**
 * What choosing `plan` does to the subscription (src/server/services/billing/README.md): the server acts on
 * it and the screen says it before the person confirms.
 * - 'same': the plan they are on; 'scheduled': the plan they already move to at the period's end.
 * - 'subscribe' (no subscription), 'renew' (canceled), 'unavailable' (incomplete, unpaid or paused).
 * - 'checkout': from Free to a paid plan, through the provider's checkout (a card is needed first).
 * - 'now': from a paid plan to another, at once; a trial keeps its end, a paid period is prorated.
 * - 'period-end': from a paid plan to Free when the period (or the trial) ends; nothing more is charged.
 */
export type PlanChangeKind =
  'same' | 'scheduled' | 'subscribe' | 'renew' | 'unavailable' | 'checkout' | 'now' | 'period-end';

export function planChange(
  subscription: Pick<
    Subscription,
    'plan_id' | 'price' | 'subscription_status' | 'next_plan_id' | 'cancel_at_period_end'
  > | null,
  plan: Pick<Plan, 'id' | 'price'>,
): PlanChangeKind {
  if (!subscription) return 'subscribe';
  if (isCanceled(subscription.subscription_status)) return 'renew';
  if (!isLive(subscription)) return 'unavailable';
  if (subscription.plan_id === plan.id) return 'same';
  if (subscription.next_plan_id === plan.id && subscription.cancel_at_period_end) return 'scheduled';
  if (subscription.price === 0) return plan.price === 0 ? 'now' : 'checkout';
  return plan.price === 0 ? 'period-end' : 'now';
}

type Wording = {
  /** The chosen plan's price as the screen shows it ('$69.90 / year', 'Free'). */
  priceText: string;
  /** A date as the screen shows it. */
  date: (iso: string | null) => string;
};

/** What happens, when, and at what price, said before the person confirms a change of plan. */
export function planChangeLines(
  kind: PlanChangeKind,
  plan: Pick<Plan, 'name' | 'trial_period_days'>,
  subscription: Pick<
    Subscription,
    'plan_name' | 'subscription_status' | 'trial_end' | 'current_period_end'
  > | null,
  { priceText, date }: Wording,
): string[] {
  const trialing = subscription?.subscription_status === 'trialing';
  switch (kind) {
    case 'checkout':
      return [
        `You go to the checkout page to give a card. ${plan.name} costs ${priceText}${
          plan.trial_period_days > 0 ? ` after a ${plan.trial_period_days}-day free trial` : ''
        }.`,
        'Your plan changes once the checkout is done; until then nothing changes.',
      ];
    case 'now':
      if (trialing)
        return [
          `Changes now. Your free trial still ends on ${date(subscription?.trial_end ?? null)}.`,
          `Then ${plan.name} costs ${priceText}. Nothing is charged before then.`,
        ];
      if (subscription && priceText === BILLING_MESSAGES.free)
        return [`Changes now. ${plan.name} costs nothing.`];
      return [
        `Changes now. ${plan.name} costs ${priceText}, starting today.`,
        `What is left of your ${subscription?.plan_name ?? 'current'} period is credited against it.`,
      ];
    case 'period-end':
      return trialing
        ? [
            `Changes when your free trial ends, on ${date(subscription.trial_end ?? subscription.current_period_end)}. Until then you keep ${subscription.plan_name}.`,
            `Then you are on ${plan.name}, at no cost. Nothing will be charged.`,
          ]
        : [
            `Changes at the end of the period you paid for, on ${date(subscription?.current_period_end ?? null)}. Until then you keep ${subscription?.plan_name ?? 'your plan'}.`,
            `Then you are on ${plan.name}, at no cost. Nothing more will be charged.`,
          ];
    default:
      return [];
  }
}

/** What cancelling does, said in the confirmation before the person confirms. */
export function cancelLines(
  subscription: Pick<
    Subscription,
    'plan_name' | 'price' | 'subscription_status' | 'trial_end' | 'current_period_end'
  >,
  date: (iso: string | null) => string,
): string[] {
  // A free plan ends at once: there is no period to keep, and the product's own confirmation is true.
  if (subscription.price === 0)
    return [
      BILLING_MESSAGES.confirmCancel,
      'Your Free plan ends now, and your next sign-in asks you to choose a plan.',
    ];
  if (subscription.subscription_status === 'trialing')
    return [
      `Your free trial ends on ${date(subscription.trial_end ?? subscription.current_period_end)}; you keep ${subscription.plan_name} until then.`,
      'Nothing will be charged.',
      'Until then you can undo this with Resume Plan.',
    ];
  return [
    `${subscription.plan_name} ends on ${date(subscription.current_period_end)}, the end of the period you paid for; you keep it until then.`,
    'Nothing more will be charged.',
    'Until then you can undo this with Resume Plan.',
  ];
}

/** The Manage tab's line for a subscription set to end (null when it is not). */
export function endingText(
  subscription: Pick<
    Subscription,
    'plan_name' | 'subscription_status' | 'cancel_at_period_end' | 'trial_end' | 'current_period_end'
  > & { next_plan_name?: string | null },
  date: (iso: string | null) => string,
): string | null {
  if (!subscription.cancel_at_period_end || !isLive(subscription)) return null;
  // Moving to another plan is no cancel: say where the person goes, not that they leave.
  const next = subscription.next_plan_name;
  const trial = subscription.subscription_status === 'trialing';
  const ends = trial
    ? `your free trial ends on ${date(subscription.trial_end ?? subscription.current_period_end)} and nothing will be charged`
    : `${subscription.plan_name} ends on ${date(subscription.current_period_end)} and nothing more will be charged`;
  return next ? `Moving to ${next}: ${ends}.` : `Canceled: ${ends}.`;
}

/** Which plan card elements a card shows (src/server/services/billing/README.md). */
export type PlanCardState = {
  isCurrent: boolean;
  /** Upgrade: from Free to a paid plan, or an active monthly plan to a yearly one. */
  showUpgrade: boolean;
  /** Switch plan: any other move between plans the person is allowed (yearly to monthly, to Free, in a trial). */
  showSwitch: boolean;
  showResume: boolean;
  showRenew: boolean;
  showSubscribe: boolean;
  /** The trial's end, when the current plan is trialing ('Trialing until {date}'). */
  trialingUntil: string | null;
  /** When this plan takes over (the subscription moves to it at its period's end). */
  startsOn: string | null;
};

export function planCardState(
  plan: Pick<Plan, 'id' | 'interval' | 'price'>,
  subscription: Subscription | null,
): PlanCardState {
  const canceled = subscription ? isCanceled(subscription.subscription_status) : false;
  const isCurrent = Boolean(subscription && subscription.plan_id === plan.id && !canceled);
  const change = planChange(subscription, plan);
  const upgrade =
    change === 'checkout' ||
    (change === 'now' &&
      subscription?.subscription_status === 'active' &&
      subscription.interval === 'month' &&
      plan.interval === 'year');
  return {
    isCurrent,
    showUpgrade: upgrade,
    showSwitch: !upgrade && (change === 'now' || change === 'period-end'),
    showResume: Boolean(
      subscription && isCurrent && isLive(subscription) && subscription.cancel_at_period_end,
    ),
    showRenew: canceled,
    showSubscribe: !subscription,
    trialingUntil:
      isCurrent && subscription?.subscription_status === 'trialing' ? subscription.trial_end : null,
    startsOn: change === 'scheduled' ? (subscription?.current_period_end ?? null) : null,
  };
}
