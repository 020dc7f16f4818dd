import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  BILLING_MESSAGES,
  isCanceled,
  isLive,
  planChange,
  subscriptionAllowsUse,
  type CheckoutResponse,
  type Subscription,
} from '../../../domain/billing';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { HttpError } from '../../plugins/errors';
import { findPlan, providerPlan, type PlanRow } from './plans';
import { ProviderUnavailableError, type PaymentProvider } from './provider';
import {
  cancelFreeSubscription,
  setCustomerId,
  setNextPlan,
  storeFreeSubscription,
  storeProviderSubscription,
  subscriptionOf,
  subscriptionRowOf,
} from './subscription-store';
import { handleWebhook, type WebhookOutcome } from './webhooks';

// What a patient can do with their plan (README.md beside this file): choose one, move to any other plan
// (planChange in src/domain/billing.ts decides how and when), cancel (a paid plan or a trial at its
// period's end, undone by resume; Free at once), renew, and change the card on the provider's own page.
// Paid changes go through the payment provider; what it answers is stored at once (and again when its
// webhook arrives, which changes nothing twice). A free plan needs no provider.

export type Billing = {
  readonly provider: PaymentProvider;
  subscriptionOf(userId: string): Promise<Subscription | null>;
  /** Whether the patient's subscription lets them sign in (see subscriptionAllowsUse). */
  allowsSignIn(userId: string, now?: Date): Promise<boolean>;
  subscribe(userId: string, planId: string): Promise<CheckoutResponse>;
  upgrade(userId: string, customerId: string, planId: string): Promise<CheckoutResponse>;
  change(userId: string, customerId: string, planId: string): Promise<CheckoutResponse>;
  cancel(userId: string, customerId: string): Promise<Subscription>;
  resume(userId: string, customerId: string): Promise<Subscription>;
  /** The provider's page where the patient changes their card (Stripe's customer portal, or the test one). */
  billingPage(userId: string, customerId: string): Promise<{ url: string }>;
  renew(userId: string, customerId: string, planId: string): Promise<CheckoutResponse>;
  handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<WebhookOutcome>;
};

/** A provider failure is the provider's, not the person's: 503 with a message that says to wait. */
async function withProvider<T>(call: () => Promise<T>, log: FastifyBaseLogger): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderUnavailableError) {
      log.warn({ err: error }, 'the payment provider did not answer');
      throw new HttpError(503, BILLING_MESSAGES.providerUnavailable);
    }
    throw error;
  }
}

export function createBilling(deps: {
  db: Database;
  provider: PaymentProvider;
  publicUrl: string;
  log: FastifyBaseLogger;
}): Billing {
  const { db, provider, publicUrl, log } = deps;
  const successUrl = `${publicUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`;
  const cancelUrl = `${publicUrl}/billing/cancel`;
  const subscriptionUrl = `${publicUrl}/subscription`;

  async function offeredPlan(planId: string): Promise<PlanRow> {
    const plan = await findPlan(db, planId);
    if (!plan?.offered) throw new HttpError(400, BILLING_MESSAGES.planUnknown);
    return plan;
  }

  /** The patient's customer at this provider, made the first time it is needed. */
  async function providerCustomer(userId: string): Promise<string> {
    const [user] = await db
      .select({ name: users.name, email: users.email, customerId: users.stripeCustomerId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) throw new HttpError(404, BILLING_MESSAGES.customerUnknown);
    if (user.customerId && ownsCustomer(provider.kind, user.customerId)) return user.customerId;
    const customerId = await withProvider(() => provider.createCustomer({ userId, ...user }), log);
    await setCustomerId(db, userId, customerId);
    return customerId;
  }

  /** A customer id for a free plan: the provider's if there is one already, else one of Kincare's own. */
  async function anyCustomer(userId: string): Promise<string> {
    const [user] = await db
      .select({ customerId: users.stripeCustomerId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (user?.customerId) return user.customerId;
    const customerId = `cus_local_${userId.replaceAll('-', '')}`;
    await setCustomerId(db, userId, customerId);
    return customerId;
  }

  async function checkout(userId: string, plan: PlanRow): Promise<CheckoutResponse> {
    const customerId = await providerCustomer(userId);
    const session = await withProvider(
      () => provider.createCheckout({ customerId, userId, plan: providerPlan(plan), successUrl, cancelUrl }),
      log,
    );
    return { checkout_url: session.url, subscription: null };
  }

  async function store(userId: string, read: () => Promise<Awaited<ReturnType<PaymentProvider['cancel']>>>) {
    const observedAt = new Date();
    const subscription = await withProvider(read, log);
    await db.transaction((tx) =>
      storeProviderSubscription(tx, userId, subscription, provider.kind, observedAt),
    );
  }

  /** The caller's own subscription named by its customer id (anyone else's is not found). */
  async function ownSubscription(userId: string, customerId: string) {
    const row = await subscriptionRowOf(db, userId);
    if (!row || row.customerId !== customerId) throw new HttpError(404, BILLING_MESSAGES.customerUnknown);
    return row;
  }

  /**
   * The subscription with the card the provider charges. The card is only shown: a provider that does not
   * answer leaves it out (logged) rather than failing the whole answer.
   */
  async function withCard(answer: Subscription | null): Promise<Subscription | null> {
    if (!answer || !ownsCustomer(provider.kind, answer.customer_id) || answer.price === 0) return answer;
    try {
      return { ...answer, card: await provider.cardOf(answer.customer_id) };
    } catch (error) {
      log.warn({ err: error }, 'the payment provider did not say which card is on file');
      return answer;
    }
  }

  async function current(userId: string): Promise<Subscription> {
    const answer = await withCard(await subscriptionOf(db, userId));
    if (!answer) throw new HttpError(404, BILLING_MESSAGES.customerUnknown);
    return answer;
  }

  /** The caller's own subscription, running (not canceled, not unpaid): the only kind that changes. */
  async function liveSubscription(userId: string, customerId: string) {
    const row = await ownSubscription(userId, customerId);
    // Kincare's copy decides (no need to ask the provider for the card here).
    const existing = await subscriptionOf(db, userId);
    if (!existing) throw new HttpError(404, BILLING_MESSAGES.customerUnknown);
    if (!isLive(existing)) throw new HttpError(409, BILLING_MESSAGES.noSubscriptionToChange);
    return { row, existing };
  }

  return {
    provider,
    subscriptionOf: async (userId) => withCard(await subscriptionOf(db, userId)),

    async allowsSignIn(userId, now = new Date()) {
      return subscriptionAllowsUse(await subscriptionOf(db, userId), now);
    },

    async subscribe(userId, planId) {
      const plan = await offeredPlan(planId);
      const existing = await subscriptionOf(db, userId);
      // Only a subscription that still lets the patient in stands in the way: one that went unpaid,
      // incomplete or paused refuses the sign-in, and choosing a plan is then the only way back.
      const live =
        existing && !isCanceled(existing.subscription_status) && subscriptionAllowsUse(existing, new Date());
      if (live) throw new HttpError(409, BILLING_MESSAGES.alreadySubscribed);
      if (plan.priceCents === 0) {
        await storeFreeSubscription(db, userId, await anyCustomer(userId), plan.id);
        return { checkout_url: null, subscription: await current(userId) };
      }
      return checkout(userId, plan);
    },

    async upgrade(userId, customerId, planId) {
      const row = await ownSubscription(userId, customerId);
      const plan = await offeredPlan(planId);
      const existing = await current(userId);
      const allowed =
        existing.subscription_status === 'active' &&
        !existing.cancel_at_period_end &&
        existing.interval === 'month' &&
        plan.interval === 'year';
      if (!allowed) throw new HttpError(409, BILLING_MESSAGES.upgradeNotAllowed);
      // From a free plan there is no card yet: the yearly plan starts at checkout, replacing the free one.
      if (row.provider === 'none') return checkout(userId, plan);
      await store(userId, () => provider.changePlan(row.id, providerPlan(plan)));
      return { checkout_url: null, subscription: await current(userId) };
    },

    async change(userId, customerId, planId) {
      const { row, existing } = await liveSubscription(userId, customerId);
      const plan = await offeredPlan(planId);
      const kind = planChange(existing, { id: plan.id, price: plan.priceCents });
      switch (kind) {
        case 'same':
          throw new HttpError(409, BILLING_MESSAGES.samePlan);
        case 'scheduled':
          throw new HttpError(409, BILLING_MESSAGES.alreadyMovingTo);
        case 'checkout':
          // From a free plan there is no card yet: the paid plan starts at checkout, replacing the free one.
          return checkout(userId, plan);
        case 'period-end':
          // To Free: the paid plan (or the trial) runs to its end, then Free follows; nothing more is charged.
          await store(userId, () => provider.setCancelAtPeriodEnd(row.id, true));
          await setNextPlan(db, userId, plan.id);
          return { checkout_url: null, subscription: await current(userId) };
        case 'now':
          if (row.provider === 'none') await storeFreeSubscription(db, userId, row.customerId, plan.id);
          else {
            await store(userId, () => provider.changePlan(row.id, providerPlan(plan)));
            await setNextPlan(db, userId, null);
          }
          return { checkout_url: null, subscription: await current(userId) };
        default:
          throw new HttpError(409, BILLING_MESSAGES.noSubscriptionToChange);
      }
    },

    async cancel(userId, customerId) {
      const row = await ownSubscription(userId, customerId);
      if (isCanceled(row.status)) throw new HttpError(409, BILLING_MESSAGES.noSubscriptionToChange);
      if (row.provider === 'none') await cancelFreeSubscription(db, userId);
      // One that never ran or went unpaid has no paid time to keep: it ends now.
      else if (!isLive({ subscription_status: row.status as Subscription['subscription_status'] }))
        await store(userId, () => provider.cancel(row.id));
      else {
        // A paid plan or a trial ends when its period does: what was paid for is kept, nothing more is
        // charged, and until then Resume Plan undoes it.
        if (row.cancelAtPeriodEnd && !row.nextPlanId)
          throw new HttpError(409, BILLING_MESSAGES.alreadyEnding);
        await store(userId, () => provider.setCancelAtPeriodEnd(row.id, true));
        await setNextPlan(db, userId, null);
      }
      return current(userId);
    },

    async resume(userId, customerId) {
      const { row, existing } = await liveSubscription(userId, customerId);
      if (!existing.cancel_at_period_end || row.provider === 'none')
        throw new HttpError(409, BILLING_MESSAGES.nothingToResume);
      await store(userId, () => provider.setCancelAtPeriodEnd(row.id, false));
      await setNextPlan(db, userId, null);
      return current(userId);
    },

    async billingPage(userId, customerId) {
      const row = await ownSubscription(userId, customerId);
      if (row.provider === 'none' || !ownsCustomer(provider.kind, row.customerId))
        throw new HttpError(409, BILLING_MESSAGES.noCardToUpdate);
      return withProvider(() => provider.createBillingPage(row.customerId, subscriptionUrl), log);
    },

    async renew(userId, customerId, planId) {
      const row = await ownSubscription(userId, customerId);
      if (!isCanceled(row.status)) throw new HttpError(409, BILLING_MESSAGES.notCanceled);
      const plan = await offeredPlan(planId);
      if (plan.priceCents === 0) {
        await storeFreeSubscription(db, userId, row.customerId, plan.id);
        return { checkout_url: null, subscription: await current(userId) };
      }
      if (!ownsCustomer(provider.kind, row.customerId)) return checkout(userId, plan);
      const observedAt = new Date();
      const renewed = await withProvider(
        () => provider.subscribeWithSavedCard(row.customerId, userId, providerPlan(plan), row.id),
        log,
      );
      if (!renewed) return checkout(userId, plan);
      await db.transaction((tx) => storeProviderSubscription(tx, userId, renewed, provider.kind, observedAt));
      return { checkout_url: null, subscription: await current(userId) };
    },

    handleWebhook: (rawBody, signature) =>
      withProvider(() => handleWebhook({ db, provider, log }, rawBody, signature), log),
  };
}

/**
 * Whether a stored customer id is this provider's. Kincare's own (`cus_local_…`, a free plan before any
 * payment) is nobody's; the test provider's (`cus_test_…`) are not Stripe's, should an install move
 * from the built-in checkout to Stripe.
 */
export function ownsCustomer(kind: PaymentProvider['kind'], customerId: string): boolean {
  if (customerId.startsWith('cus_local_')) return false;
  return kind === 'test' ? customerId.startsWith('cus_test_') : !customerId.startsWith('cus_test_');
}
