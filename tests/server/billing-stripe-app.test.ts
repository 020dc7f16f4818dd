import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BILLING_MESSAGES,
  planCardState,
  type CheckoutResponse,
  type Plan,
  type Subscription,
  type SubscriptionRequiredBody,
} from '../../src/domain/billing';
import { ConfigError, loadConfig } from '../../src/server/config';
import { billingEvents, plans, subscriptions, users } from '../../src/server/db/schema';
import { signStripeEvent } from '../../src/server/services/billing/webhook-signature';
import { startFakeStripe, type FakeStripe, type StripeObject } from './fake-stripe';
import { bearer, createUser, resetDatabase, startTestApp, type TestContext, type TestUser } from './helpers';

// The whole app on Stripe (STRIPE_* set, the API answered by the local fake of fake-stripe.ts), driven
// through its routes as a patient and Stripe would: choosing a plan before the first sign-in, checkout,
// the signed webhook that makes the subscription, upgrading, canceling, renewing; what the webhook
// refuses or leaves; and what the patient sees when Stripe does not answer.

const WEBHOOK_SECRET = 'whsec_kincareAppTestSecret0123';
const DAY_MS = 86_400_000;

let fake: FakeStripe;
/** Holds the database; each test gets a server of its own on it (the provider's memory of prices starts empty). */
let base: TestContext;
let ctx: TestContext;

const stripeEnv = () => ({
  STRIPE_SECRET_KEY: fake.secretKey,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
  RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
});

beforeAll(async () => {
  fake = await startFakeStripe();
  base = await startTestApp(stripeEnv());
}, 60_000);
afterAll(async () => {
  await base.close();
  await fake.stop();
});
beforeEach(async () => {
  await resetDatabase(base);
  fake.reset();
  ctx = await startTestApp(stripeEnv(), { sharesDatabaseWith: base });
});
afterEach(async () => ctx.close());

type Chooser = TestUser & { subscribeToken: string };
type Subscriber = Chooser & { customerId: string; subscription: StripeObject };

const login = (person: TestUser) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: person.email, password: person.password },
  });

/** A patient with no plan, holding the subscribe token of their refused first sign-in. */
async function patientWithoutPlan(): Promise<Chooser> {
  const person = await createUser(ctx, { plan: null });
  const refused = await login(person);
  expect(refused.statusCode).toBe(403);
  return { ...person, subscribeToken: refused.json<SubscriptionRequiredBody>().subscribeToken };
}

const subscribe = (person: Chooser, planId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/stripe/subscribe',
    payload: { planId, userId: person.userId, subscribeToken: person.subscribeToken },
  });

const postWebhook = (body: string, signature?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
  });
const deliver = (event: object) => postWebhook(JSON.stringify(event), signed(JSON.stringify(event)));

/** The patient chose Family Plus and paid at Stripe's checkout: the session, and Stripe's event about it. */
async function checkedOut(person: Chooser) {
  const chosen = (await subscribe(person, 'plus-monthly')).json<CheckoutResponse>();
  const session = fake.completeCheckout(chosen.checkout_url?.split('/').at(-1) ?? '');
  return { session, body: JSON.stringify(fake.event('checkout.session.completed', session)) };
}
const signed = (body: string) => signStripeEvent(body, WEBHOOK_SECRET);

/** Through checkout and its webhook: a trialing Family Plus patient, signed in. */
async function subscriber(): Promise<Subscriber> {
  const person = await patientWithoutPlan();
  const { session, body } = await checkedOut(person);
  expect((await postWebhook(body, signed(body))).statusCode).toBe(200);
  const signedIn = await login(person);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const subscription = fake.objects.subscriptions.get(String(session.subscription));
  if (!subscription) throw new Error('the checkout made no subscription');
  const token = signedIn.json<{ accessToken: string }>().accessToken;
  return { ...person, token, customerId: String(session.customer), subscription };
}

/** The trial is over and the card paid: Stripe's subscription is active, and says so by webhook. */
async function activate(subscription: StripeObject): Promise<void> {
  subscription.status = 'active';
  expect((await deliver(fake.event('customer.subscription.updated', subscription))).statusCode).toBe(200);
}

/** The period (or the trial) of a subscription set to cancel then is over: Stripe ends it, and says so. */
async function endAtStripe(subscription: StripeObject): Promise<void> {
  Object.assign(subscription, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
  expect((await deliver(fake.event('customer.subscription.deleted', subscription))).statusCode).toBe(200);
}

async function subscriptionOf(person: TestUser): Promise<Subscription | null> {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: '/api/stripe/subscription',
    headers: bearer(person.token),
  });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ data: Subscription | null }>().data;
}

const storedRow = async (userId: string) =>
  (await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];
const storedEvents = async () =>
  (await ctx.database.db.select({ n: count() }).from(billingEvents))[0]?.n ?? 0;

/** A subscription at Stripe that Kincare did not make (its customer is nobody Kincare knows). */
function strangerSubscription(id: string, metadata: object, lookupKey: string | null = 'plus-monthly') {
  const now = Math.floor(Date.now() / 1000);
  const price = { id: 'price_x', lookup_key: lookupKey };
  const items = { object: 'list', data: [{ id: `si_${id}`, current_period_end: now + 2_592_000, price }] };
  const dates = { start_date: now, ended_at: null, trial_end: null };
  const state = { status: 'active', cancel_at_period_end: false, ...dates, metadata, items };
  return { id, object: 'subscription', customer: `cus_${id}`, ...state } satisfies StripeObject;
}

const priceWithKey = (lookupKey: string) =>
  [...fake.objects.prices.values()].find((price) => price.lookup_key === lookupKey);

describe('choosing a paid plan before the first sign-in', () => {
  it('answers Stripe’s checkout address, after making one customer and a trial checkout of the plan’s price', async () => {
    const person = await patientWithoutPlan();
    const answer = await subscribe(person, 'plus-monthly');
    expect(answer.statusCode, answer.body).toBe(200);
    const [session, ...moreSessions] = [...fake.objects.sessions.values()];
    expect(moreSessions).toEqual([]);
    expect(answer.json()).toEqual({
      checkout_url: `https://checkout.stripe.com/c/pay/${session?.id}`,
      subscription: null,
    });
    const customers = [...fake.objects.customers.values()];
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ email: person.email, metadata: { userId: person.userId } });
    const price = priceWithKey('plus-monthly');
    expect(price).toMatchObject({ unit_amount: 699, recurring: { interval: 'month' } });
    expect(fake.requestsTo('/v1/prices', 'GET')[0]?.body.lookup_keys).toEqual(['plus-monthly']);
    expect(fake.requestsTo('/v1/checkout/sessions', 'POST')[0]?.body).toMatchObject({
      mode: 'subscription',
      customer: customers[0]?.id,
      client_reference_id: person.userId,
      line_items: [{ price: price?.id, quantity: '1' }],
      subscription_data: { trial_period_days: '14', metadata: { userId: person.userId } },
    });
    const [plan] = await ctx.database.db.select().from(plans).where(eq(plans.id, 'plus-monthly'));
    expect(plan?.stripePriceId).toBe(price?.id);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, person.userId));
    expect(user?.stripeCustomerId).toBe(customers[0]?.id);
    // Nothing is the patient's until Stripe says the checkout was paid.
    expect(await storedRow(person.userId)).toBeUndefined();
    expect((await login(person)).statusCode).toBe(403);
  });

  it('the completed checkout’s webhook makes a trialing subscription that lets the patient in, once', async () => {
    const person = await patientWithoutPlan();
    const { session, body } = await checkedOut(person);
    const first = await postWebhook(body, signed(body));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });

    const signedIn = await login(person);
    expect(signedIn.statusCode).toBe(200);
    const token = signedIn.json<{ accessToken: string }>().accessToken;
    const made = fake.objects.subscriptions.get(String(session.subscription));
    const trialEnd = new Date(Number(made?.trial_end) * 1000).toISOString();
    expect(await subscriptionOf({ ...person, token })).toMatchObject({
      id: made?.id,
      customer_id: session.customer,
      plan_id: 'plus-monthly',
      subscription_status: 'trialing',
      trial_end: trialEnd,
    });
    expect(new Date(trialEnd).getTime() - Date.now()).toBeGreaterThan(13 * DAY_MS);

    // Stripe sends an event again when it is not sure it arrived: acknowledged, and nothing done twice.
    const reads = () => fake.requestsTo(`/v1/subscriptions/${made?.id}`, 'GET').length;
    expect(reads()).toBe(1);
    const before = await storedRow(person.userId);
    const again = await postWebhook(body, signed(body));
    expect(again.statusCode).toBe(200);
    expect(reads()).toBe(1);
    expect(await storedRow(person.userId)).toEqual(before);
    expect(await storedEvents()).toBe(1);
  });
  // An unpaid subscription (or incomplete, or paused) refuses the sign-in: the choice of a plan must not be
  // refused too, or the patient has no page from which to pay again.
  it('a patient whose subscription went unpaid may choose a plan again', async () => {
    const person = await subscriber();
    person.subscription.status = 'unpaid';
    await deliver(fake.event('customer.subscription.updated', person.subscription));
    const refused = await login(person);
    expect(refused.json()).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' });
    const subscribeToken = refused.json<SubscriptionRequiredBody>().subscribeToken;
    const chosen = await subscribe({ ...person, subscribeToken }, 'plus-monthly');
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json<CheckoutResponse>().checkout_url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });
});

describe('the webhook', () => {
  it('refuses a tampered body, another secret and no signature with 400, storing nothing', async () => {
    const person = await patientWithoutPlan();
    const { session, body } = await checkedOut(person);
    const tampered = body.replace(person.userId, '00000000-0000-4000-8000-000000000000');
    const refusals = [
      await postWebhook(tampered, signed(body)),
      await postWebhook(body, signStripeEvent(body, 'whsec_someoneElsesSecret')),
      await postWebhook(body),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(400);
      expect(refusal.json().message).toBe(BILLING_MESSAGES.webhookSignature);
    }
    expect(await storedEvents()).toBe(0);
    expect(await storedRow(person.userId)).toBeUndefined();
    expect(fake.requestsTo(`/v1/subscriptions/${String(session.subscription)}`)).toEqual([]);
    // The refusals did not use up the event: Stripe's own delivery still counts.
    expect((await postWebhook(body, signed(body))).statusCode).toBe(200);
    expect((await storedRow(person.userId))?.status).toBe('trialing');
  });

  it('acknowledges events about subscriptions and customers it does not know, and stores nothing', async () => {
    const unknownCustomer = strangerSubscription('sub_unknown_customer', {});
    fake.objects.subscriptions.set(unknownCustomer.id, unknownCustomer);
    const events = [
      fake.event('customer.subscription.updated', unknownCustomer),
      fake.event('invoice.paid', { id: 'in_1', object: 'invoice', subscription: unknownCustomer.id }),
      fake.event('invoice.paid', { id: 'in_2', object: 'invoice', subscription: null }),
      fake.event('customer.created', { id: 'cus_new', object: 'customer' }),
    ];
    for (const event of events) expect((await deliver(event)).statusCode, event.type).toBe(200);
    expect(await ctx.database.db.select().from(subscriptions)).toEqual([]);
  });

  // Each of these was once answered 500, so Stripe would send it again for days and might disable the
  // endpoint: they are acknowledged and left.
  it('acknowledges subscriptions that are not Kincare’s: a deleted account, another product, gone', async () => {
    const deletedAccount = strangerSubscription('sub_deleted_account', {
      userId: '0f0e0d0c-0b0a-4909-8807-060504030201',
    });
    const otherApp = strangerSubscription('sub_other_app', { userId: 'someone-in-another-app' });
    const noPlan = strangerSubscription('sub_no_plan', {}, null);
    for (const subscription of [deletedAccount, otherApp, noPlan])
      fake.objects.subscriptions.set(subscription.id, subscription);
    const gone = strangerSubscription('sub_not_at_stripe', {});
    for (const subscription of [deletedAccount, otherApp, noPlan, gone]) {
      const answer = await deliver(fake.event('customer.subscription.updated', subscription));
      expect(answer.statusCode, subscription.id).toBe(200);
    }
    expect(await ctx.database.db.select().from(subscriptions)).toEqual([]);
  });

  it('an older subscription event arriving after a newer one does not roll the subscription back', async () => {
    const person = await subscriber();
    person.subscription.status = 'past_due';
    const older = fake.event('customer.subscription.updated', person.subscription);
    person.subscription.status = 'active';
    const newer = fake.event('customer.subscription.updated', person.subscription);
    expect((await deliver(newer)).statusCode).toBe(200);
    expect((await subscriptionOf(person))?.subscription_status).toBe('active');
    expect((await deliver(older)).statusCode).toBe(200);
    expect((await subscriptionOf(person))?.subscription_status).toBe('active');
  });
});

describe('changing a Stripe subscription', () => {
  const change = (person: TestUser, method: 'POST' | 'DELETE', path: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `/api/stripe/subscription${path}`,
      headers: bearer(person.token),
      payload,
    });
  const upgrade = (person: TestUser, customerId: string, planId: string) =>
    change(person, 'POST', `/${customerId}/upgrade`, { planId });
  const cancel = (person: TestUser, customerId: string) => change(person, 'DELETE', `/${customerId}`);
  const renew = (person: TestUser, customerId: string, planId: string) =>
    change(person, 'POST', '/renew', { customerId, planId });

  it('moves an active monthly subscription to the yearly price at Stripe', async () => {
    const person = await subscriber();
    const updates = () => fake.requestsTo(`/v1/subscriptions/${person.subscription.id}`, 'POST');
    // Still in its trial: not yet (the plan cards show no Upgrade either).
    expect((await upgrade(person, person.customerId, 'plus-yearly')).statusCode).toBe(409);
    expect(updates()).toEqual([]);

    await activate(person.subscription);
    const answer = await upgrade(person, person.customerId, 'plus-yearly');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<CheckoutResponse>()).toMatchObject({
      checkout_url: null,
      subscription: { plan_id: 'plus-yearly', interval: 'year', subscription_status: 'active' },
    });
    const yearly = priceWithKey('plus-yearly');
    expect(yearly).toMatchObject({ unit_amount: 6990, recurring: { interval: 'year' } });
    const item = (person.subscription.items as { data: { id: string }[] }).data[0];
    expect(updates()).toHaveLength(1);
    expect(updates()[0]?.body.items).toEqual([{ id: item?.id, price: yearly?.id }]);
    expect((await subscriptionOf(person))?.plan_id).toBe('plus-yearly');
  });

  it('cancels at Stripe at the end of the trial, offers Renew once ended, and renews with the card on file without a checkout', async () => {
    const person = await subscriber();
    const canceled = await cancel(person, person.customerId);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json<{ data: Subscription }>().data).toMatchObject({
      subscription_status: 'trialing',
      cancel_at_period_end: true,
    });
    expect(fake.requestsTo(`/v1/subscriptions/${person.subscription.id}`, 'DELETE')).toHaveLength(0);
    expect(fake.requestsTo(`/v1/subscriptions/${person.subscription.id}`, 'POST').at(-1)?.body).toEqual({
      cancel_at_period_end: 'true',
    });
    await endAtStripe(person.subscription);
    const subscription = (await subscriptionOf(person)) as Subscription;
    expect(subscription.subscription_status).toBe('canceled');
    const offered = (await ctx.app.inject({ method: 'GET', url: '/api/stripe/plans' })).json<{
      data: Plan[];
    }>();
    for (const plan of offered.data)
      expect(planCardState(plan, subscription), plan.id).toMatchObject({
        isCurrent: false,
        showRenew: true,
        showUpgrade: false,
        showSubscribe: false,
      });

    const checkouts = fake.requestsTo('/v1/checkout/sessions', 'POST').length;
    const renewed = await renew(person, person.customerId, 'plus-monthly');
    expect(renewed.statusCode, renewed.body).toBe(200);
    const [created] = fake.requestsTo('/v1/subscriptions', 'POST');
    expect(created?.body).toMatchObject({ customer: person.customerId, metadata: { userId: person.userId } });
    expect(fake.requestsTo('/v1/checkout/sessions', 'POST')).toHaveLength(checkouts);
    const answer = renewed.json<CheckoutResponse>();
    expect(answer.checkout_url).toBeNull();
    expect(answer.subscription).toMatchObject({ plan_id: 'plus-monthly', subscription_status: 'active' });
    expect(answer.subscription?.id).not.toBe(person.subscription.id);
  });

  it('renews through checkout when the customer has no card on file', async () => {
    const person = await subscriber();
    const customer = fake.objects.customers.get(person.customerId);
    (customer?.invoice_settings as { default_payment_method: string | null }).default_payment_method = null;
    expect((await cancel(person, person.customerId)).statusCode).toBe(200);
    await endAtStripe(person.subscription);
    const renewed = await renew(person, person.customerId, 'plus-monthly');
    expect(renewed.statusCode, renewed.body).toBe(200);
    const session = [...fake.objects.sessions.values()].at(-1);
    expect(renewed.json()).toEqual({ checkout_url: session?.url, subscription: null });
    expect(fake.requestsTo('/v1/subscriptions', 'POST')).toEqual([]);
    expect((await subscriptionOf(person))?.subscription_status).toBe('canceled');
  });

  it('moves to Free when the paid period ends at Stripe, resumes, and opens the customer portal for the card', async () => {
    const person = await subscriber();
    await activate(person.subscription);
    fake.saveCard(person.customerId, '1881');
    expect((await subscriptionOf(person))?.card).toMatchObject({ last4: '1881' });
    const portal = await change(person, 'POST', `/${person.customerId}/card`);
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json<{ url: string }>().url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.requestsTo('/v1/billing_portal/sessions', 'POST')[0]?.body).toMatchObject({
      customer: person.customerId,
      return_url: expect.stringMatching(/\/subscription$/),
    });

    const toFree = await change(person, 'POST', `/${person.customerId}/change`, { planId: 'free' });
    expect(toFree.json<CheckoutResponse>().subscription).toMatchObject({
      plan_id: 'plus-monthly',
      cancel_at_period_end: true,
      next_plan_id: 'free',
    });
    const resumed = await change(person, 'POST', `/${person.customerId}/resume`);
    expect(resumed.json()).toMatchObject({ data: { cancel_at_period_end: false, next_plan_id: null } });
    await change(person, 'POST', `/${person.customerId}/change`, { planId: 'free' });
    await endAtStripe(person.subscription);
    expect(await subscriptionOf(person)).toMatchObject({ plan_id: 'free', subscription_status: 'active' });
    expect(fake.requestsTo(`/v1/subscriptions/${person.subscription.id}`, 'DELETE')).toHaveLength(0);
  });

  it('answers 404 for another patient’s customer id, and leaves their subscription alone', async () => {
    const owner = await subscriber();
    await activate(owner.subscription);
    const other = await createUser(ctx); // on the Free plan: each change would pass on their own plan
    const otherCustomer = (await subscriptionOf(other))?.customer_id ?? '';
    const refused = (answer: { statusCode: number; json: () => { message?: string } }) => {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe(BILLING_MESSAGES.customerUnknown);
    };
    refused(await upgrade(other, owner.customerId, 'plus-yearly'));
    refused(await cancel(other, owner.customerId));
    expect((await cancel(other, otherCustomer)).statusCode).toBe(200); // now a renew would pass too
    refused(await renew(other, owner.customerId, 'plus-monthly'));
    const changes = fake.requests.filter((request) => request.method !== 'GET');
    expect(changes.filter((request) => request.path.includes(owner.subscription.id))).toEqual([]);
    expect(await subscriptionOf(owner)).toMatchObject({
      plan_id: 'plus-monthly',
      subscription_status: 'active',
    });
  });
  it('a renewal asked again after Stripe made it but the answer was lost makes one subscription', async () => {
    const person = await subscriber();
    expect((await cancel(person, person.customerId)).statusCode).toBe(200);
    await endAtStripe(person.subscription);
    // The customer is read first; Stripe then makes the subscription and the answer is lost, twice over.
    const customers = fake.objects.customers;
    const read = customers.get.bind(customers);
    customers.get = (id: string) => {
      customers.get = read;
      fake.failNext(1, 'lose-answer');
      fake.failNext(2, 503);
      return read(id);
    };
    expect((await renew(person, person.customerId, 'plus-monthly')).statusCode).toBe(503);
    expect((await renew(person, person.customerId, 'plus-monthly')).statusCode).toBe(200);
    const live = [...fake.objects.subscriptions.values()].filter(
      (subscription) => subscription.customer === person.customerId && subscription.status !== 'canceled',
    );
    expect(live).toHaveLength(1);
  });
});

describe('when Stripe does not answer', () => {
  it.each([503, 'drop'] as const)(
    'subscribing answers 503 and stores nothing (%s, three times)',
    async (failure) => {
      const person = await patientWithoutPlan();
      fake.failNext(3, failure);
      const answer = await subscribe(person, 'plus-monthly');
      expect(answer.statusCode).toBe(503);
      expect(answer.json().message).toBe(BILLING_MESSAGES.providerUnavailable);
      expect(fake.requestsTo('/v1/customers', 'POST')).toHaveLength(3);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.id, person.userId));
      expect(user?.stripeCustomerId).toBeNull();
      expect(await storedRow(person.userId)).toBeUndefined();
      // Once Stripe answers again, the same choice goes through.
      expect((await subscribe(person, 'plus-monthly')).statusCode).toBe(200);
    },
  );
});

describe('configuration', () => {
  it('refuses to start with a Stripe key but no webhook secret, or a webhook secret alone', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kincare-config-'));
    try {
      const start = (env: Record<string, string>) => () => loadConfig({ DATA_DIR: dataDir, ...env });
      const keyAlone = start({ STRIPE_SECRET_KEY: 'sk_test_abcdefgh12345678' });
      expect(keyAlone).toThrow(ConfigError);
      expect(keyAlone).toThrow(/STRIPE_WEBHOOK_SECRET: needed with STRIPE_SECRET_KEY/);
      const secretAlone = start({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
      expect(secretAlone).toThrow(ConfigError);
      expect(secretAlone).toThrow(/STRIPE_WEBHOOK_SECRET: needs STRIPE_SECRET_KEY/);
      const both = { STRIPE_SECRET_KEY: 'sk_test_abcdefgh12345678', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET };
      expect(start(both)().stripe?.webhookSecret).toBe(WEBHOOK_SECRET);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
