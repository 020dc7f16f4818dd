import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { BILLING_MESSAGES, type PaymentCard } from '../../../domain/billing';
import type { Database } from '../../db/client';
import { testBillingObjects } from '../../db/schema';
import {
  ProviderObjectMissingError,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderPlan,
} from './provider';
import { fromStripeSubscription, type StripeSubscriptionLike } from './stripe-objects';
import { signStripeEvent } from './webhook-signature';

// The built-in test-mode payment provider, used when STRIPE_SECRET_KEY is unset so that the whole flow
// works on a fresh install: it plays Stripe's part with books of its own (test_billing_objects), a
// hosted checkout page of Kincare's (routes/test-checkout.ts) that takes test card numbers, and
// Stripe-shaped webhook events, signed the Stripe way and handed to the same verification and handler
// as Stripe's. Nothing is charged; the page says so.

/** Stripe's test cards: this one pays; 4000 0000 0000 0002 (or any other number) is declined. */
export const TEST_CARD_THAT_PAYS = '4242424242424242';
/** Every test card that pays, with its brand (Stripe's test Visa, Mastercard and Visa debit). */
export const TEST_CARDS_THAT_PAY: Readonly<Record<string, string>> = {
  [TEST_CARD_THAT_PAYS]: 'visa',
  '5555555555554444': 'mastercard',
  '4000056655665556': 'visa',
};

/** A card as the person typed it on a test-mode page (checked by the page first). */
export type EnteredCard = { number: string; expMonth: number; expYear: number };

type TestCheckoutSession = {
  id: string;
  object: 'checkout.session';
  customer: string;
  client_reference_id: string;
  metadata: { userId: string; planId: string };
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  url: string;
  /** What the page shows: the plan as it was when the checkout began. */
  plan: ProviderPlan;
};

type TestCustomer = {
  id: string;
  object: 'customer';
  email: string;
  name: string;
  metadata: { userId: string };
  invoice_settings: { default_payment_method: string | null };
  /** What the card on file looks like (the number itself is never kept). */
  card?: PaymentCard | null;
};

/** The test-mode card page (Stripe's customer portal, for the card): its address is the capability. */
type TestBillingPageSession = {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  expires_at: number;
  url: string;
};

export type TestPaymentOutcome = { paid: true; redirectTo: string } | { paid: false; message: string };
export type TestCardOutcome = { updated: true; redirectTo: string } | { updated: false; message: string };

export type TestProvider = PaymentProvider & {
  readonly kind: 'test';
  /** The session the checkout page shows, or undefined. */
  checkoutSession(id: string): Promise<TestCheckoutSession | undefined>;
  /** The person pressed Pay on the checkout page with this card (a number alone: digits, expiry 12 of 5 years on). */
  pay(sessionId: string, card: string | EnteredCard, now?: Date): Promise<TestPaymentOutcome>;
  /** The card page the person is on, or undefined. */
  billingPageSession(id: string): Promise<TestBillingPageSession | undefined>;
  /** The person saved a new card on the card page: it becomes the card on file, charged from now on. */
  updateCard(sessionId: string, card: EnteredCard, now?: Date): Promise<TestCardOutcome>;
  /**
   * What Stripe does as time passes, up to `now`: a trial or a period that ended is charged to the card on
   * file and a new period starts; one set to cancel at the period's end is canceled. Answers how many
   * subscriptions changed. (Housekeeping runs it daily.)
   */
  advanceClock(now?: Date): Promise<number>;
};

const CHECKOUT_LIFETIME_SECONDS = 24 * 60 * 60;
const BILLING_PAGE_LIFETIME_SECONDS = 60 * 60;
const DAY_SECONDS = 24 * 60 * 60;

const testPrice = (plan: ProviderPlan) => ({
  id: `price_test_${plan.id}`,
  lookup_key: plan.id,
  recurring: { interval: plan.interval },
});

type TestObjectKind = 'checkout_session' | 'subscription' | 'customer' | 'billing_portal_session';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const randomId = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

function periodEnd(start: number, interval: 'month' | 'year'): number {
  const end = new Date(start * 1000);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return seconds(end);
}

export function createTestProvider(options: {
  db: Database;
  publicUrl: string;
  webhookSecret: string;
  /** Hands a signed event to the webhook handler, as Stripe would post it. */
  deliver: (payload: string, signature: string) => Promise<void>;
}): TestProvider {
  const { db, publicUrl, webhookSecret } = options;

  async function read<T>(id: string, kind: TestObjectKind): Promise<T | undefined> {
    const [row] = await db
      .select({ object: testBillingObjects.object })
      .from(testBillingObjects)
      .where(and(eq(testBillingObjects.id, id), eq(testBillingObjects.kind, kind)))
      .limit(1);
    return row?.object as T | undefined;
  }

  async function write(kind: TestObjectKind, object: { id: string }, customerId: string): Promise<void> {
    const values = { kind, customerId, object: { ...object }, updatedAt: new Date() };
    await db
      .insert(testBillingObjects)
      .values({ id: object.id, ...values })
      .onConflictDoUpdate({ target: testBillingObjects.id, set: values });
  }

  async function emit(type: string, object: object): Promise<void> {
    const event = {
      id: randomId('evt_test_'),
      object: 'event',
      type,
      created: seconds(new Date()),
      data: { object },
    };
    const payload = JSON.stringify(event);
    await options.deliver(payload, signStripeEvent(payload, webhookSecret));
  }

  async function subscription(id: string): Promise<StripeSubscriptionLike> {
    const found = await read<StripeSubscriptionLike>(id, 'subscription');
    if (!found) throw new ProviderObjectMissingError(`No such subscription: '${id}'`);
    return found;
  }

  async function startSubscription(
    customerId: string,
    userId: string,
    plan: ProviderPlan,
    withTrial: boolean,
    now: Date,
  ): Promise<StripeSubscriptionLike> {
    const start = seconds(now);
    const trialEnd =
      withTrial && plan.trialPeriodDays > 0 ? start + plan.trialPeriodDays * DAY_SECONDS : null;
    const created: StripeSubscriptionLike = {
      id: randomId('sub_test_'),
      customer: customerId,
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      start_date: start,
      ended_at: null,
      trial_end: trialEnd,
      metadata: { userId, planId: plan.id },
      items: {
        data: [
          {
            id: randomId('si_test_'),
            current_period_end: trialEnd ?? periodEnd(start, plan.interval),
            price: testPrice(plan),
          },
        ],
      },
    };
    await write('subscription', created, customerId);
    await emit('customer.subscription.created', created);
    if (!trialEnd) await emit('invoice.paid', invoiceFor(created));
    return created;
  }

  /** The card becomes the customer's card on file (only what people see of it is kept). */
  async function keepCard(customerId: string, card: EnteredCard): Promise<void> {
    const customer = await read<TestCustomer>(customerId, 'customer');
    if (!customer) return;
    customer.invoice_settings.default_payment_method = randomId('pm_test_');
    customer.card = {
      brand: TEST_CARDS_THAT_PAY[card.number] ?? 'card',
      last4: card.number.slice(-4),
      exp_month: card.expMonth,
      exp_year: card.expYear,
    };
    await write('customer', customer, customer.id);
    await emit('customer.updated', customer);
  }

  async function updateSubscription(changed: StripeSubscriptionLike): Promise<StripeSubscriptionLike> {
    const customerId = typeof changed.customer === 'string' ? changed.customer : changed.customer.id;
    await write('subscription', changed, customerId);
    await emit('customer.subscription.updated', changed);
    return changed;
  }

  const invoiceFor = (subscriptionObject: StripeSubscriptionLike) => ({
    id: randomId('in_test_'),
    object: 'invoice',
    customer: subscriptionObject.customer,
    status: 'paid',
    parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionObject.id } },
  });

  return {
    kind: 'test',
    webhookSecret,

    async createCustomer(person) {
      const customer: TestCustomer = {
        id: randomId('cus_test_'),
        object: 'customer',
        email: person.email,
        name: person.name,
        metadata: { userId: person.userId },
        invoice_settings: { default_payment_method: null },
      };
      await write('customer', customer, customer.id);
      return customer.id;
    },

    async createCheckout(input: CheckoutInput) {
      const id = randomId('cs_test_');
      const session: TestCheckoutSession = {
        id,
        object: 'checkout.session',
        customer: input.customerId,
        client_reference_id: input.userId,
        metadata: { userId: input.userId, planId: input.plan.id },
        status: 'open',
        subscription: null,
        success_url: input.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
        cancel_url: input.cancelUrl,
        expires_at: seconds(new Date()) + CHECKOUT_LIFETIME_SECONDS,
        url: `${publicUrl}/api/stripe/test-checkout/${id}`,
        plan: input.plan,
      };
      await write('checkout_session', session, input.customerId);
      return { id, url: session.url };
    },

    checkoutSession: (id) => read<TestCheckoutSession>(id, 'checkout_session'),

    async pay(sessionId, entered, now = new Date()) {
      const card: EnteredCard =
        typeof entered === 'string'
          ? { number: entered, expMonth: 12, expYear: now.getUTCFullYear() + 5 }
          : entered;
      const session = await read<TestCheckoutSession>(sessionId, 'checkout_session');
      if (!session) return { paid: false, message: BILLING_MESSAGES.checkoutUnknown };
      if (session.status === 'complete') return { paid: false, message: BILLING_MESSAGES.checkoutDone };
      if (session.status === 'expired' || session.expires_at <= seconds(now))
        return { paid: false, message: BILLING_MESSAGES.checkoutExpired };
      if (!TEST_CARDS_THAT_PAY[card.number]) return { paid: false, message: BILLING_MESSAGES.cardDeclined };
      await keepCard(session.customer, card);
      // The session is closed, if it is still open, before anything is announced, in one statement: of two
      // presses of Pay at once, one closes it and goes on; the other starts no second subscription.
      const closed = { ...session, status: 'complete' as const };
      const [claimed] = await db
        .update(testBillingObjects)
        .set({ object: closed, updatedAt: new Date() })
        .where(
          and(eq(testBillingObjects.id, session.id), sql`${testBillingObjects.object}->>'status' = 'open'`),
        )
        .returning({ id: testBillingObjects.id });
      if (!claimed) return { paid: false, message: BILLING_MESSAGES.checkoutDone };
      const started = await startSubscription(
        session.customer,
        session.client_reference_id,
        session.plan,
        true,
        now,
      );
      const completed = { ...closed, subscription: started.id };
      await write('checkout_session', completed, session.customer);
      await emit('checkout.session.completed', completed);
      return { paid: true, redirectTo: session.success_url };
    },

    async retrieveSubscription(subscriptionId) {
      return fromStripeSubscription(await subscription(subscriptionId));
    },

    async changePlan(subscriptionId, plan) {
      const current = await subscription(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`subscription ${subscriptionId} has no item`);
      const now = seconds(new Date());
      // A new interval starts a new billing period now, as Stripe does (the unused time is credited).
      const trialing = current.status === 'trialing';
      const changed: StripeSubscriptionLike = {
        ...current,
        cancel_at_period_end: false,
        metadata: { ...current.metadata, planId: plan.id },
        items: {
          data: [
            {
              ...item,
              current_period_end: trialing ? item.current_period_end : periodEnd(now, plan.interval),
              price: testPrice(plan),
            },
          ],
        },
      };
      const customerId = typeof changed.customer === 'string' ? changed.customer : changed.customer.id;
      await write('subscription', changed, customerId);
      await emit('customer.subscription.updated', changed);
      if (!trialing) await emit('invoice.paid', invoiceFor(changed));
      return fromStripeSubscription(changed);
    },

    async cancel(subscriptionId) {
      const current = await subscription(subscriptionId);
      const now = seconds(new Date());
      const canceled: StripeSubscriptionLike = { ...current, status: 'canceled', ended_at: now };
      const customerId = typeof canceled.customer === 'string' ? canceled.customer : canceled.customer.id;
      await write('subscription', canceled, customerId);
      await emit('customer.subscription.deleted', canceled);
      return fromStripeSubscription(canceled);
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const current = await subscription(subscriptionId);
      return fromStripeSubscription(await updateSubscription({ ...current, cancel_at_period_end: cancel }));
    },

    async cardOf(customerId) {
      const customer = await read<TestCustomer>(customerId, 'customer');
      return customer?.invoice_settings.default_payment_method ? (customer.card ?? null) : null;
    },

    async createBillingPage(customerId, returnUrl) {
      const id = `bps_test_${randomBytes(16).toString('hex')}`;
      const session: TestBillingPageSession = {
        id,
        object: 'billing_portal.session',
        customer: customerId,
        return_url: returnUrl,
        expires_at: seconds(new Date()) + BILLING_PAGE_LIFETIME_SECONDS,
        url: `${publicUrl}/api/stripe/test-billing/${id}`,
      };
      await write('billing_portal_session', session, customerId);
      return { url: session.url };
    },

    billingPageSession: (id) => read<TestBillingPageSession>(id, 'billing_portal_session'),

    async updateCard(sessionId, card, now = new Date()) {
      const session = await read<TestBillingPageSession>(sessionId, 'billing_portal_session');
      if (!session) return { updated: false, message: BILLING_MESSAGES.cardPageUnknown };
      if (session.expires_at <= seconds(now))
        return { updated: false, message: BILLING_MESSAGES.cardPageExpired };
      if (!TEST_CARDS_THAT_PAY[card.number])
        return { updated: false, message: BILLING_MESSAGES.cardDeclined };
      await keepCard(session.customer, card);
      return { updated: true, redirectTo: session.return_url };
    },

    async advanceClock(now = new Date()) {
      const rows = await db
        .select({ object: testBillingObjects.object, customerId: testBillingObjects.customerId })
        .from(testBillingObjects)
        .where(
          and(
            eq(testBillingObjects.kind, 'subscription'),
            inArray(sql`${testBillingObjects.object}->>'status'`, ['trialing', 'active', 'past_due']),
          ),
        );
      let changed = 0;
      for (const row of rows) {
        const current = row.object as StripeSubscriptionLike;
        const item = current.items.data[0];
        const ends = item?.current_period_end;
        if (!item || ends === undefined || ends > seconds(now)) continue;
        changed += 1;
        if (current.cancel_at_period_end) {
          const canceled = { ...current, status: 'canceled', ended_at: ends };
          await write('subscription', canceled, row.customerId);
          await emit('customer.subscription.deleted', canceled);
          continue;
        }
        const interval = item.price.recurring?.interval === 'year' ? 'year' : 'month';
        let next = ends;
        while (next <= seconds(now)) next = periodEnd(next, interval);
        const renewed: StripeSubscriptionLike = {
          ...current,
          status: 'active',
          items: { data: [{ ...item, current_period_end: next }] },
        };
        await write('subscription', renewed, row.customerId);
        await emit('customer.subscription.updated', renewed);
        await emit('invoice.paid', invoiceFor(renewed));
      }
      return changed;
    },

    async subscribeWithSavedCard(customerId, userId, plan) {
      const customer = await read<TestCustomer>(customerId, 'customer');
      if (!customer?.invoice_settings.default_payment_method) return null;
      // A renewal is no new trial: the trial is for a first subscription.
      return fromStripeSubscription(await startSubscription(customerId, userId, plan, false, new Date()));
    },
  };
}
