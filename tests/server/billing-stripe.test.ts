import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderPlan,
} from '../../src/server/services/billing/provider';
import {
  createStripeProvider,
  StripeResourceMissingError,
} from '../../src/server/services/billing/stripe-provider';
import {
  signStripeEvent as signTestEvent,
  verifyStripeEvent,
  WebhookBodyError,
  WebhookSignatureError,
} from '../../src/server/services/billing/webhook-signature';
import { startFakeStripe, type FakeStripe, type StripeObject } from './fake-stripe';

// The Stripe provider through the official SDK, against a local server that answers like Stripe's API
// (fake-stripe.ts): what it asks Stripe for each call, what it makes of the answers, how Stripe's
// failures reach the billing service (after the SDK's own retries), and the webhook signature check.

const WEBHOOK_SECRET = 'whsec_test_secret_for_kincare';
const USER = '3f1c2a7e-9b4d-4c1e-8f2a-5d6e7f8a9b0c';
const MONTHLY: ProviderPlan = {
  id: 'plus-monthly',
  name: 'Plus',
  description: 'Five caregivers, twenty lab reports a month.',
  priceCents: 999,
  currency: 'usd',
  interval: 'month',
  trialPeriodDays: 14,
  stripePriceId: null,
};
const YEARLY: ProviderPlan = {
  ...MONTHLY,
  id: 'plus-yearly',
  priceCents: 9_900,
  interval: 'year',
  trialPeriodDays: 0,
};

let fake: FakeStripe;
let foundPrices: [string, string][];

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  foundPrices = [];
});

function provider(secretKey = fake.secretKey): PaymentProvider {
  return createStripeProvider({
    secretKey,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.url,
    onPriceFound: async (planId, priceId) => {
      foundPrices.push([planId, priceId]);
    },
  });
}

async function customer(stripe: PaymentProvider): Promise<string> {
  return stripe.createCustomer({ userId: USER, email: 'ada@example.com', name: 'Ada Lovelace' });
}

function checkout(stripe: PaymentProvider, customerId: string, plan: ProviderPlan) {
  const urls = { successUrl: 'https://kincare.test/ok', cancelUrl: 'https://kincare.test/no' };
  return stripe.createCheckout({ customerId, userId: USER, plan, ...urls });
}

/** A subscription made the way a person makes one: checkout, then paying. */
async function subscribed(stripe: PaymentProvider, plan: ProviderPlan): Promise<StripeObject> {
  const customerId = await customer(stripe);
  const { id } = await checkout(stripe, customerId, plan);
  const session = fake.completeCheckout(id);
  const subscription = fake.objects.subscriptions.get(String(session.subscription));
  if (!subscription) throw new Error('completing the checkout made no subscription');
  return subscription;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error('expected the call to fail');
  return error;
}

describe('customers', () => {
  it('makes one customer per person, however often the request is retried', async () => {
    const stripe = provider();
    fake.failNext(1, 'lose-answer'); // made, but the answer never came: the SDK asks again
    const first = await customer(stripe);
    const again = await customer(stripe); // our own retry after a lost answer
    expect(again).toBe(first);
    expect(fake.objects.customers.size).toBe(1);
    const created = fake.objects.customers.get(first);
    expect(created).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      metadata: { userId: USER },
    });
    const keys = fake.requestsTo('/v1/customers', 'POST').map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toContain(USER);
    expect(fake.requests[0]?.authorization).toBe(`Bearer ${fake.secretKey}`);
  });
});

describe('prices', () => {
  it('makes a missing price once, by lookup key, and remembers it', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    await Promise.all([checkout(stripe, customerId, MONTHLY), checkout(stripe, customerId, MONTHLY)]);
    await checkout(stripe, customerId, MONTHLY);
    expect(fake.requestsTo('/v1/prices', 'GET')).toHaveLength(1);
    expect(fake.requestsTo('/v1/prices', 'GET')[0]?.body).toEqual({
      lookup_keys: ['plus-monthly'],
      active: 'true',
      limit: '1',
    });
    expect(fake.objects.products.size).toBe(1);
    expect(fake.objects.prices.size).toBe(1);
    const [price] = [...fake.objects.prices.values()];
    expect(price).toMatchObject({
      unit_amount: 999,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: 'plus-monthly',
    });
    expect([...fake.objects.products.values()][0]).toMatchObject({
      name: 'Plus',
      description: MONTHLY.description,
    });
    expect(foundPrices).toEqual([['plus-monthly', price?.id]]);
  });

  it('uses the price Stripe already has under the lookup key, or the one stored on the plan', async () => {
    const setup = provider();
    const customerId = await customer(setup);
    await checkout(setup, customerId, MONTHLY);
    const priceId = [...fake.objects.prices.keys()][0] ?? '';
    foundPrices = [];

    const restarted = provider(); // a new process: its memory is empty, Stripe's is not
    await checkout(restarted, customerId, MONTHLY);
    expect(fake.objects.prices.size).toBe(1);
    expect(fake.requestsTo('/v1/products', 'POST')).toHaveLength(1);
    expect(foundPrices).toEqual([['plus-monthly', priceId]]);

    const stored = provider();
    const before = fake.requests.length;
    await checkout(stored, customerId, { ...MONTHLY, stripePriceId: priceId });
    expect(fake.requests.slice(before).map((request) => request.path)).toEqual(['/v1/checkout/sessions']);
    expect(fake.requests.at(-1)?.body.line_items).toEqual([{ price: priceId, quantity: '1' }]);
  });
});

describe('checkout', () => {
  it('asks for a subscription checkout of the plan for this person and answers its address', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    const successUrl = 'https://kincare.test/subscription?session={CHECKOUT_SESSION_ID}';
    const answer = await stripe.createCheckout({
      customerId,
      userId: USER,
      plan: MONTHLY,
      successUrl,
      cancelUrl: 'https://kincare.test/plans',
    });
    const [request] = fake.requestsTo('/v1/checkout/sessions', 'POST');
    const priceId = [...fake.objects.prices.keys()][0];
    expect(request?.body).toEqual({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: USER,
      line_items: [{ price: priceId, quantity: '1' }],
      subscription_data: { metadata: { userId: USER, planId: 'plus-monthly' }, trial_period_days: '14' },
      metadata: { userId: USER, planId: 'plus-monthly' },
      success_url: successUrl,
      cancel_url: 'https://kincare.test/plans',
    });
    expect(answer.id).toMatch(/^cs_test_/);
    expect(answer.url).toBe(`https://checkout.stripe.com/c/pay/${answer.id}`);
  });

  it('gives no trial to a plan without one, and fails when Stripe gives no address', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    await checkout(stripe, customerId, YEARLY);
    expect(fake.requestsTo('/v1/checkout/sessions')[0]?.body.subscription_data).toEqual({
      metadata: { userId: USER, planId: 'plus-yearly' },
    });
    fake.checkoutUrlBase = null;
    const error = await failure(checkout(stripe, customerId, YEARLY));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('subscriptions', () => {
  it('reads a subscription in Kincare terms', async () => {
    const stripe = provider();
    const made = await subscribed(stripe, MONTHLY);
    const subscription = await stripe.retrieveSubscription(made.id);
    expect(subscription).toMatchObject({
      id: made.id,
      planId: 'plus-monthly',
      userId: USER,
      status: 'trialing',
      cancelAtPeriodEnd: false,
    });
    expect(subscription.customerId).toMatch(/^cus_/);
    const days = ((subscription.trialEnd?.getTime() ?? 0) - subscription.startDate.getTime()) / 86_400_000;
    expect(days).toBe(14);
    expect(subscription.currentPeriodEnd).toEqual(subscription.trialEnd);
  });

  it('moves to another plan on the same item, prorated, keeping the metadata', async () => {
    const stripe = provider();
    const made = await subscribed(stripe, YEARLY);
    const itemId = (made.items as { data: { id: string }[] }).data[0]?.id;
    const changed = await stripe.changePlan(made.id, MONTHLY);
    const update = fake.requestsTo(`/v1/subscriptions/${made.id}`, 'POST')[0];
    const monthlyPrice = foundPrices.find(([plan]) => plan === 'plus-monthly')?.[1];
    expect(update?.body).toEqual({
      items: [{ id: itemId, price: monthlyPrice }],
      proration_behavior: 'create_prorations',
      cancel_at_period_end: 'false',
      metadata: { userId: USER, planId: 'plus-monthly' },
    });
    expect(changed).toMatchObject({ id: made.id, planId: 'plus-monthly', status: 'active' });
  });

  it('cancels at once', async () => {
    const stripe = provider();
    const made = await subscribed(stripe, YEARLY);
    const canceled = await stripe.cancel(made.id);
    expect(fake.requestsTo(`/v1/subscriptions/${made.id}`, 'DELETE')).toHaveLength(1);
    expect(canceled.status).toBe('canceled');
    expect(canceled.endedAt).toBeInstanceOf(Date);
    // Stripe refuses to change a canceled subscription: a refusal, not an outage.
    const error = await failure(stripe.changePlan(made.id, MONTHLY));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain('A canceled subscription can only update');
  });

  it('cancels at the end of the period and undoes it (Resume Plan), on the same subscription', async () => {
    const stripe = provider();
    const made = await subscribed(stripe, MONTHLY);
    const ending = await stripe.setCancelAtPeriodEnd(made.id, true);
    expect(fake.requestsTo(`/v1/subscriptions/${made.id}`, 'POST').map((request) => request.body)).toEqual([
      { cancel_at_period_end: 'true' },
    ]);
    expect(ending).toMatchObject({ id: made.id, status: 'trialing', cancelAtPeriodEnd: true });
    expect(fake.requestsTo(`/v1/subscriptions/${made.id}`, 'DELETE')).toHaveLength(0);
    const resumed = await stripe.setCancelAtPeriodEnd(made.id, false);
    expect(resumed.cancelAtPeriodEnd).toBe(false);
  });

  it("reads the card on file, and opens Stripe's customer portal to change it", async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    expect(await stripe.cardOf(customerId)).toBeNull();
    fake.saveCard(customerId, '1881');
    expect(await stripe.cardOf(customerId)).toEqual({
      brand: 'visa',
      last4: '1881',
      exp_month: 12,
      exp_year: 2034,
    });
    expect(fake.requestsTo(`/v1/customers/${customerId}`, 'GET')[0]?.body).toEqual({
      expand: ['invoice_settings.default_payment_method'],
    });
    const page = await stripe.createBillingPage(customerId, 'https://kincare.test/subscription');
    expect(page.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.requestsTo('/v1/billing_portal/sessions', 'POST')[0]?.body).toEqual({
      customer: customerId,
      return_url: 'https://kincare.test/subscription',
    });
  });

  it('renews with the card on file, and asks for checkout when there is none', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    expect(await stripe.subscribeWithSavedCard(customerId, USER, YEARLY)).toBeNull();
    expect(fake.requestsTo('/v1/subscriptions', 'POST')).toHaveLength(0);

    const card = fake.saveCard(customerId);
    const renewed = await stripe.subscribeWithSavedCard(customerId, USER, YEARLY);
    expect(renewed).toMatchObject({ customerId, planId: 'plus-yearly', userId: USER, status: 'active' });
    expect(fake.requestsTo('/v1/subscriptions', 'POST')[0]?.body).toEqual({
      customer: customerId,
      items: [{ price: foundPrices[0]?.[1] }],
      metadata: { userId: USER, planId: 'plus-yearly' },
      default_payment_method: card,
    });
  });

  it('renews with a default source too, and answers null for a deleted customer', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    const stored = fake.objects.customers.get(customerId);
    if (stored) stored.default_source = 'card_old_style';
    expect(await stripe.subscribeWithSavedCard(customerId, USER, YEARLY)).toMatchObject({ status: 'active' });
    expect(fake.requestsTo('/v1/subscriptions', 'POST')[0]?.body.default_payment_method).toBeUndefined();

    fake.objects.customers.set(customerId, { id: customerId, object: 'customer', deleted: true });
    expect(await stripe.subscribeWithSavedCard(customerId, USER, YEARLY)).toBeNull();
    expect(fake.requestsTo('/v1/subscriptions', 'POST')).toHaveLength(1);
  });
});

describe('when Stripe fails', () => {
  it.each([500, 503, 'drop'] as const)(
    'a lasting %s is ProviderUnavailableError after the SDK retried twice',
    async (kind) => {
      const stripe = provider();
      fake.failNext(3, kind);
      const error = await failure(stripe.retrieveSubscription('sub_anything'));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error.cause).toBeInstanceOf(Stripe.errors.StripeError);
      expect(fake.requestsTo('/v1/subscriptions/sub_anything')).toHaveLength(3);
    },
  );

  it('too many requests is ProviderUnavailableError', async () => {
    const stripe = provider();
    fake.failNext(1, 429);
    const error = await failure(stripe.retrieveSubscription('sub_anything'));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.cause).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
  });

  it('a passing failure is retried by the SDK and not seen', async () => {
    const stripe = provider();
    const made = await subscribed(stripe, YEARLY);
    fake.failNext(1, 503);
    fake.failNext(1, 'drop');
    expect((await stripe.cancel(made.id)).status).toBe('canceled');
  });

  it('a subscription Stripe does not have is a plain error naming it, not an outage', async () => {
    const error = await failure(provider().retrieveSubscription('sub_missing'));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error).toBeInstanceOf(StripeResourceMissingError);
    expect(error.message).toContain("No such subscription: 'sub_missing'");
    expect(fake.requestsTo('/v1/subscriptions/sub_missing')).toHaveLength(1); // a 404 is not retried
  });

  it('never puts the secret key in what it throws', async () => {
    const wrongKey = 'sk_test_wrongkey_0123456789abcdef';
    const refusedKey = await failure(provider(wrongKey).retrieveSubscription('sub_a'));
    fake.failNext(3, 500);
    const serverError = await failure(provider().retrieveSubscription('sub_b'));
    fake.failNext(3, 'drop');
    const dropped = await failure(provider().retrieveSubscription('sub_c'));
    const missing = await failure(provider().retrieveSubscription('sub_d'));
    expect(refusedKey).toBeInstanceOf(ProviderUnavailableError); // the operator's to fix, not the person's
    for (const error of [refusedKey, serverError, dropped, missing]) {
      const cause = error.cause as Error | undefined;
      const seen = [error.message, error.stack, String(cause), cause?.stack, JSON.stringify(cause)];
      expect(seen.join('\n')).not.toContain(fake.secretKey);
      expect(seen.join('\n')).not.toContain(wrongKey);
    }
  });
});

describe('webhook signatures', () => {
  const completedEvent = () => {
    const session = fake.completeCheckout(fake.objects.sessions.keys().next().value ?? '');
    return JSON.stringify(fake.event('checkout.session.completed', session));
  };

  it('accepts an event signed by signTestEvent or by the SDK itself, bytes or text', async () => {
    const stripe = provider();
    const customerId = await customer(stripe);
    await checkout(stripe, customerId, MONTHLY);
    const body = completedEvent();
    const event = verifyStripeEvent(Buffer.from(body), signTestEvent(body, WEBHOOK_SECRET), WEBHOOK_SECRET);
    expect(event.type).toBe('checkout.session.completed');
    expect(event.data.object).toMatchObject({
      client_reference_id: USER,
      customer: customerId,
      status: 'complete',
    });
    expect(event.data.object.subscription).toMatch(/^sub_/);
    const sdkHeader = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
    expect(verifyStripeEvent(body, sdkHeader, WEBHOOK_SECRET).id).toBe(event.id);
    expect(stripe.webhookSecret).toBe(WEBHOOK_SECRET);
  });

  it('refuses a tampered body, another secret, no header, and an old signature', () => {
    const body = JSON.stringify(
      fake.event('invoice.paid', { id: 'in_1', object: 'invoice', subscription: 'sub_1' }),
    );
    const header = signTestEvent(body, WEBHOOK_SECRET);
    const tampered = body.replace('sub_1', 'sub_2');
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(() => verifyStripeEvent(tampered, header, WEBHOOK_SECRET)).toThrow(WebhookSignatureError);
    expect(() => verifyStripeEvent(body, signTestEvent(body, 'whsec_other'), WEBHOOK_SECRET)).toThrow(
      WebhookSignatureError,
    );
    expect(() => verifyStripeEvent(body, undefined, WEBHOOK_SECRET)).toThrow(WebhookSignatureError);
    expect(() => verifyStripeEvent(body, '', WEBHOOK_SECRET)).toThrow(WebhookSignatureError);
    expect(() => verifyStripeEvent(body, stale, WEBHOOK_SECRET)).toThrow(WebhookSignatureError);
    expect(verifyStripeEvent(body, header, WEBHOOK_SECRET).type).toBe('invoice.paid');
    // Signed, but not an event: not a signature problem, and still nothing to act on.
    for (const unreadable of ['not json', '{"id":"evt_1"}'])
      expect(() =>
        verifyStripeEvent(unreadable, signTestEvent(unreadable, WEBHOOK_SECRET), WEBHOOK_SECRET),
      ).toThrow(WebhookBodyError);
  });
});
