import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutInput, PaymentProvider, ProviderPlan, ProviderSubscription } from './provider';
import { ProviderObjectMissingError, ProviderUnavailableError } from './provider';
import { fromStripeSubscription } from './stripe-objects';

// The PaymentProvider on Stripe, through the official SDK (API version pinned by the SDK). Every call
// goes through `call`, which turns Stripe's failures into what the billing service answers: the service
// not answering (connection, 5xx, 429, a refused key) is ProviderUnavailableError (503); an object Stripe
// does not have is StripeResourceMissingError (the caller answers 404/409); any other refusal is a plain
// Error. No message carries the secret key: ours name the call and Stripe's error type, and the only text
// of Stripe's we copy is that of a 404 or a 400, which names objects and parameters (a refused key, 401,
// is answered without its text, although Stripe shows only the key's last four characters there).

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** A Stripe-compatible server instead of api.stripe.com (tests: the fake in tests/server/fake-stripe.ts). */
  apiUrl?: string;
  /** Called once per plan when its price was found by lookup key or created, so the caller can keep it. */
  onPriceFound?: (planId: string, priceId: string) => Promise<void>;
};

/** Stripe has no object of that id (404 resource_missing): not a failure of the service. */
export class StripeResourceMissingError extends ProviderObjectMissingError {}

const NETWORK_RETRIES = 2;
const TIMEOUT_MS = 10_000;

function connectionSettings(
  apiUrl: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Stripe's failure in Kincare's terms. `action` names the call (e.g. 'subscriptions.retrieve'). */
function translateError(error: unknown, action: string): Error {
  if (!(error instanceof Stripe.errors.StripeError))
    return error instanceof Error ? error : new Error(String(error));
  if (error.statusCode === 404 && error.code === 'resource_missing')
    // Stripe's own text names the object and its id ("No such subscription: 'sub_…'"), never the key.
    return new StripeResourceMissingError(`Stripe ${action}: ${error.message}`, { cause: error });
  const unavailable =
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    // A refused key is the operator's to fix, never the person's: the service is unavailable to us.
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    (error.statusCode ?? 0) >= 500;
  if (unavailable)
    return new ProviderUnavailableError(`Stripe is not answering ${action} (${error.type})`, {
      cause: error,
    });
  // A request Stripe refuses (400: a parameter, a state) is ours to fix; its text names what (never the key).
  return new Error(`Stripe refused ${action} (${error.type}): ${error.message}`, { cause: error });
}

async function call<T>(action: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw translateError(error, action);
  }
}

/** An idempotency key that is the same for the same request, and different when its parameters differ. */
function idempotencyKey(purpose: string, parameters: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(parameters)).digest('hex').slice(0, 24);
  return `kincare-${purpose}-${digest}`;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...connectionSettings(options.apiUrl),
    maxNetworkRetries: NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
  });
  // One lookup per plan per process; a failed lookup is forgotten so the next call tries again.
  const prices = new Map<string, Promise<string>>();

  async function findOrCreatePrice(plan: ProviderPlan): Promise<string> {
    const found = await call('prices.list', () =>
      stripe.prices.list({ lookup_keys: [plan.id], active: true, limit: 1 }),
    );
    let priceId = found.data[0]?.id;
    if (!priceId) {
      const productParameters = { name: plan.name, description: plan.description };
      // Keyed by what is made, so two servers making the same plan's price at once make one.
      const product = await call('products.create', () =>
        stripe.products.create(productParameters, {
          idempotencyKey: idempotencyKey(`product-${plan.id}`, productParameters),
        }),
      );
      const priceParameters = {
        product: product.id,
        unit_amount: plan.priceCents,
        currency: plan.currency,
        recurring: { interval: plan.interval },
        lookup_key: plan.id,
        // An archived price may still hold the lookup key; the new one takes it over.
        transfer_lookup_key: true,
      };
      const price = await call('prices.create', () =>
        stripe.prices.create(priceParameters, {
          idempotencyKey: idempotencyKey(`price-${plan.id}`, priceParameters),
        }),
      );
      priceId = price.id;
    }
    await options.onPriceFound?.(plan.id, priceId);
    return priceId;
  }

  function priceOf(plan: ProviderPlan): Promise<string> {
    if (plan.stripePriceId) return Promise.resolve(plan.stripePriceId);
    let price = prices.get(plan.id);
    if (!price) {
      price = findOrCreatePrice(plan);
      prices.set(plan.id, price);
      price.catch(() => prices.delete(plan.id));
    }
    return price;
  }

  return {
    kind: 'stripe',
    webhookSecret: options.webhookSecret,

    async createCustomer({ userId, email, name }) {
      const parameters = { email, name, metadata: { userId } };
      // A retried request (the SDK's, or ours after an answer was lost) makes one customer.
      const customer = await call('customers.create', () =>
        stripe.customers.create(parameters, {
          idempotencyKey: idempotencyKey(`customer-${userId}`, parameters),
        }),
      );
      return customer.id;
    },

    async createCheckout({ customerId, userId, plan, successUrl, cancelUrl }: CheckoutInput) {
      const price = await priceOf(plan);
      const metadata = { userId, planId: plan.id };
      const session = await call('checkout.sessions.create', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price, quantity: 1 }],
          subscription_data: {
            metadata,
            ...(plan.trialPeriodDays > 0 ? { trial_period_days: plan.trialPeriodDays } : {}),
          },
          metadata,
          success_url: successUrl,
          cancel_url: cancelUrl,
        }),
      );
      if (!session.url)
        throw new ProviderUnavailableError(`Stripe checkout session ${session.id} has no url`);
      return { id: session.id, url: session.url };
    },

    async retrieveSubscription(subscriptionId) {
      const subscription = await call('subscriptions.retrieve', () =>
        stripe.subscriptions.retrieve(subscriptionId),
      );
      return fromStripeSubscription(subscription);
    },

    async changePlan(subscriptionId, plan) {
      const current = await call('subscriptions.retrieve', () =>
        stripe.subscriptions.retrieve(subscriptionId),
      );
      const price = await priceOf(plan);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item to change`);
      const updated = await call('subscriptions.update', () =>
        stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'create_prorations',
          // Choosing a plan is choosing to stay: a cancel set for the period's end is undone.
          cancel_at_period_end: false,
          metadata: { ...current.metadata, planId: plan.id },
        }),
      );
      return fromStripeSubscription(updated);
    },

    async cancel(subscriptionId) {
      const canceled = await call('subscriptions.cancel', () => stripe.subscriptions.cancel(subscriptionId));
      return fromStripeSubscription(canceled);
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const updated = await call('subscriptions.update', () =>
        stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }),
      );
      return fromStripeSubscription(updated);
    },

    async cardOf(customerId) {
      const customer = await call('customers.retrieve', () =>
        stripe.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method'] }),
      );
      if (customer.deleted) return null;
      const method = customer.invoice_settings.default_payment_method;
      const card = typeof method === 'object' && method ? method.card : null;
      if (!card) return null;
      return { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year };
    },

    async createBillingPage(customerId, returnUrl) {
      // Stripe's customer portal: the person changes their card on Stripe's own page, then comes back.
      const session = await call('billingPortal.sessions.create', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async subscribeWithSavedCard(customerId, userId, plan, replacing): Promise<ProviderSubscription | null> {
      const customer = await call('customers.retrieve', () => stripe.customers.retrieve(customerId));
      if (customer.deleted) return null;
      const paymentMethod = idOf(customer.invoice_settings.default_payment_method);
      const source = idOf(customer.default_source);
      if (!paymentMethod && !source) return null;
      const price = await priceOf(plan);
      const parameters = {
        customer: customerId,
        items: [{ price }],
        metadata: { userId, planId: plan.id },
        // Without a payment method Stripe charges the default source.
        ...(paymentMethod ? { default_payment_method: paymentMethod } : {}),
      };
      // The same renewal asked again (our 503 after Stripe made it) is answered with the one made.
      const options = replacing ? { idempotencyKey: idempotencyKey(`renewal-${replacing}`, parameters) } : {};
      const subscription = await call('subscriptions.create', () =>
        stripe.subscriptions.create(parameters, options),
      );
      return fromStripeSubscription(subscription);
    },
  };
}
