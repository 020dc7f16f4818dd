import { randomBytes } from 'node:crypto';

// The books of the fake Stripe (fake-stripe.ts): the objects it holds (customers, products, prices,
// checkout sessions, subscriptions) and what each path of its API does to them, answered in Stripe's
// shapes. The server, the request log, failures and idempotency are fake-stripe.ts's; this file only
// keeps the objects and throws StripeFailure for the answers that are Stripe's refusals.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };
export type StripeObject = Record<string, unknown> & { id: string; object: string };

const text = (form: Form | undefined, key: string): string | undefined => {
  const value = form?.[key];
  return typeof value === 'string' ? value : undefined;
};
const record = (form: Form | undefined, key: string): Form => {
  const value = form?.[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
};
const list = (form: Form | undefined, key: string): Form[] => {
  const value = form?.[key];
  return Array.isArray(value)
    ? value.filter((item): item is Form => typeof item === 'object' && !Array.isArray(item))
    : [];
};
/** Metadata as Stripe keeps it: strings, an empty value unsets the key. */
const metadataOf = (form: Form, previous: Record<string, string> = {}): Record<string, string> => {
  const next = { ...previous };
  for (const [key, value] of Object.entries(record(form, 'metadata')))
    if (typeof value === 'string') {
      if (value === '') delete next[key];
      else next[key] = value;
    }
  return next;
};

export const newId = (prefix: string) =>
  `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

function periodEnd(start: number, interval: string): number {
  const date = new Date(start * 1000);
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}
const missing = (kind: string, id: string, param = 'id') =>
  new StripeFailure(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);

export type StripeBooks = ReturnType<typeof createStripeBooks>;

/** `checkoutUrlBase`: read when a session is made (null: sessions without a url). */
export function createStripeBooks(settings: { checkoutUrlBase: () => string | null }) {
  const objects = {
    customers: new Map<string, StripeObject>(),
    products: new Map<string, StripeObject>(),
    prices: new Map<string, StripeObject>(),
    sessions: new Map<string, StripeObject>(),
    subscriptions: new Map<string, StripeObject>(),
    paymentMethods: new Map<string, StripeObject>(),
    portalSessions: new Map<string, StripeObject>(),
  };
  /** What a session will subscribe to once completed (Stripe keeps it; answers do not show it). */
  const sessionOrders = new Map<string, { price: string; subscriptionData: Form }>();

  function get(kind: keyof typeof objects, id: string, name: string, param?: string): StripeObject {
    const found = objects[kind].get(id);
    if (!found) throw missing(name, id, param);
    return found;
  }

  function makeSubscription(customerId: string, priceId: string, form: Form): StripeObject {
    const customer = get('customers', customerId, 'customer', 'customer');
    const price = get('prices', priceId, 'price', 'items[0][price]');
    const start = now();
    const trialDays = Number(text(form, 'trial_period_days') ?? 0);
    const trialEnd = trialDays > 0 ? start + trialDays * DAY : null;
    const interval = String((price.recurring as { interval: string }).interval);
    const paymentMethod =
      text(form, 'default_payment_method') ??
      (customer.invoice_settings as { default_payment_method: string | null } | undefined)
        ?.default_payment_method ??
      customer.default_source;
    const id = newId('sub');
    const subscription: StripeObject = {
      id,
      object: 'subscription',
      customer: customerId,
      status: trialEnd ? 'trialing' : paymentMethod ? 'active' : 'incomplete',
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      start_date: start,
      ended_at: null,
      trial_start: trialEnd ? start : null,
      trial_end: trialEnd,
      default_payment_method: text(form, 'default_payment_method') ?? null,
      metadata: metadataOf(form),
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: start,
            current_period_end: trialEnd ?? periodEnd(start, interval),
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      livemode: false,
    };
    objects.subscriptions.set(id, subscription);
    return subscription;
  }

  function updateSubscription(id: string, form: Form): StripeObject {
    const subscription = get('subscriptions', id, 'subscription');
    if (subscription.status === 'canceled' && list(form, 'items').length > 0)
      throw new StripeFailure(
        400,
        'invalid_request_error',
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    const items = (subscription.items as { data: Record<string, unknown>[] }).data;
    for (const change of list(form, 'items')) {
      const item = items.find((candidate) => candidate.id === text(change, 'id'));
      if (!item) throw missing('subscription item', text(change, 'id') ?? '', 'items[0][id]');
      const priceId = text(change, 'price');
      if (!priceId) continue;
      const price = get('prices', priceId, 'price', 'items[0][price]');
      const before = (item.price as { recurring: { interval: string } }).recurring.interval;
      const after = (price.recurring as { interval: string }).interval;
      item.price = price;
      // A new interval starts a new period now (a trial keeps its end).
      if (before !== after && subscription.status !== 'trialing') {
        item.current_period_start = now();
        item.current_period_end = periodEnd(now(), after);
      }
    }
    subscription.metadata = metadataOf(form, subscription.metadata as Record<string, string>);
    const cancelAtPeriodEnd = text(form, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined) {
      if (subscription.status === 'canceled')
        throw new StripeFailure(
          400,
          'invalid_request_error',
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      subscription.cancel_at_period_end = cancelAtPeriodEnd === 'true';
    }
    return subscription;
  }

  /** A customer as GET answers it: `expand[]=invoice_settings.default_payment_method` puts the object in. */
  function customerAnswer(id: string, form: Form): StripeObject {
    const customer = get('customers', id, 'customer');
    const expand = Array.isArray(form.expand) ? form.expand : [];
    if (!expand.includes('invoice_settings.default_payment_method')) return customer;
    const settings = customer.invoice_settings as { default_payment_method: string | null };
    const method = settings.default_payment_method;
    return {
      ...customer,
      invoice_settings: {
        ...settings,
        default_payment_method: method ? (objects.paymentMethods.get(method) ?? null) : null,
      },
    };
  }

  function route(method: string, path: string, form: Form): unknown {
    const match =
      /^\/v1\/(checkout\/sessions|billing_portal\/sessions|customers|prices|products|subscriptions)(?:\/([^/]+))?$/.exec(
        path,
      );
    const id = match?.[2];
    const key = `${method} ${match?.[1] ?? ''}${id ? '/:id' : ''}`;
    switch (key) {
      case 'POST customers': {
        const customer: StripeObject = {
          id: newId('cus'),
          object: 'customer',
          email: text(form, 'email') ?? null,
          name: text(form, 'name') ?? null,
          metadata: metadataOf(form),
          created: now(),
          default_source: null,
          invoice_settings: {
            default_payment_method: null,
            custom_fields: null,
            footer: null,
            rendering_options: null,
          },
          livemode: false,
        };
        objects.customers.set(customer.id, customer);
        return customer;
      }
      case 'GET customers/:id':
        return customerAnswer(id ?? '', form);
      case 'POST billing_portal/sessions': {
        const customer = get('customers', text(form, 'customer') ?? '', 'customer', 'customer').id;
        const session: StripeObject = {
          id: newId('bps'),
          object: 'billing_portal.session',
          customer,
          return_url: text(form, 'return_url') ?? null,
          url: `https://billing.stripe.com/p/session/${newId('test')}`,
          created: now(),
          livemode: false,
        };
        objects.portalSessions.set(session.id, session);
        return session;
      }
      case 'GET prices': {
        const keys = (Array.isArray(form.lookup_keys) ? form.lookup_keys : []).filter(
          (k) => typeof k === 'string',
        );
        const active = text(form, 'active');
        const matching = [...objects.prices.values()].filter(
          (price) =>
            (keys.length === 0 || keys.includes(String(price.lookup_key))) &&
            (active === undefined || String(price.active) === active),
        );
        const limit = Number(text(form, 'limit') ?? 10);
        const data = matching.slice(0, limit);
        return { object: 'list', data, has_more: matching.length > limit, url: '/v1/prices' };
      }
      case 'POST products': {
        const name = text(form, 'name');
        if (!name)
          throw new StripeFailure(
            400,
            'invalid_request_error',
            'Missing required param: name.',
            'parameter_missing',
          );
        const product: StripeObject = {
          id: newId('prod'),
          object: 'product',
          name,
          description: text(form, 'description') ?? null,
          active: true,
          metadata: metadataOf(form),
          created: now(),
        };
        objects.products.set(product.id, product);
        return product;
      }
      case 'POST prices': {
        const product = get('products', text(form, 'product') ?? '', 'product', 'product');
        const lookupKey = text(form, 'lookup_key') ?? null;
        const holder = [...objects.prices.values()].find(
          (price) => lookupKey && price.lookup_key === lookupKey,
        );
        if (holder && text(form, 'transfer_lookup_key') !== 'true')
          throw new StripeFailure(
            400,
            'invalid_request_error',
            `A price (\`${holder.id}\`) already uses that lookup key.`,
          );
        if (holder) holder.lookup_key = null;
        const recurring = record(form, 'recurring');
        const price: StripeObject = {
          id: newId('price'),
          object: 'price',
          product: product.id,
          active: true,
          currency: (text(form, 'currency') ?? '').toLowerCase(),
          unit_amount: Number(text(form, 'unit_amount')),
          recurring: {
            interval: text(recurring, 'interval') ?? 'month',
            interval_count: 1,
            usage_type: 'licensed',
          },
          type: 'recurring',
          lookup_key: lookupKey,
          metadata: metadataOf(form),
          created: now(),
          livemode: false,
        };
        objects.prices.set(price.id, price);
        return price;
      }
      case 'POST checkout/sessions': {
        const customer = get('customers', text(form, 'customer') ?? '', 'customer', 'customer').id;
        const lineItem = list(form, 'line_items')[0];
        const price = get('prices', text(lineItem, 'price') ?? '', 'price', 'line_items[0][price]').id;
        const id = newId('cs_test');
        const checkoutUrl = settings.checkoutUrlBase();
        const session: StripeObject = {
          id,
          object: 'checkout.session',
          mode: text(form, 'mode') ?? 'payment',
          customer,
          client_reference_id: text(form, 'client_reference_id') ?? null,
          metadata: metadataOf(form),
          success_url: text(form, 'success_url') ?? null,
          cancel_url: text(form, 'cancel_url') ?? null,
          url: checkoutUrl === null ? null : `${checkoutUrl}${id}`,
          status: 'open',
          payment_status: 'unpaid',
          subscription: null,
          created: now(),
          expires_at: now() + DAY,
          livemode: false,
        };
        objects.sessions.set(id, session);
        sessionOrders.set(id, { price, subscriptionData: record(form, 'subscription_data') });
        return session;
      }
      case 'GET checkout/sessions/:id':
        return get('sessions', id ?? '', 'checkout.session');
      case 'POST subscriptions': {
        const price = text(list(form, 'items')[0], 'price') ?? '';
        return makeSubscription(text(form, 'customer') ?? '', price, form);
      }
      case 'GET subscriptions/:id':
        return get('subscriptions', id ?? '', 'subscription');
      case 'POST subscriptions/:id':
        return updateSubscription(id ?? '', form);
      case 'DELETE subscriptions/:id': {
        const subscription = get('subscriptions', id ?? '', 'subscription');
        Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
        return subscription;
      }
      default:
        throw new StripeFailure(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${method}: ${path}).`,
        );
    }
  }

  function saveCard(customerId: string, last4 = '4242'): string {
    const customer = get('customers', customerId, 'customer');
    const paymentMethod = newId('pm');
    objects.paymentMethods.set(paymentMethod, {
      id: paymentMethod,
      object: 'payment_method',
      type: 'card',
      customer: customerId,
      card: { brand: 'visa', last4, exp_month: 12, exp_year: 2034 },
    });
    (customer.invoice_settings as { default_payment_method: string | null }).default_payment_method =
      paymentMethod;
    return paymentMethod;
  }

  function completeCheckout(sessionId: string): StripeObject {
    const session = get('sessions', sessionId, 'checkout.session');
    const order = sessionOrders.get(sessionId);
    if (!order || session.status !== 'open') throw new Error(`checkout session ${sessionId} is not open`);
    saveCard(String(session.customer));
    const subscription = makeSubscription(String(session.customer), order.price, order.subscriptionData);
    const trialing = subscription.status === 'trialing';
    Object.assign(session, {
      status: 'complete',
      payment_status: trialing ? 'no_payment_required' : 'paid',
      subscription: subscription.id,
    });
    return session;
  }

  function event(type: string, object: StripeObject) {
    return {
      id: newId('evt'),
      object: 'event',
      type,
      created: now(),
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: JSON.parse(JSON.stringify(object)) as StripeObject },
    };
  }

  function clear(): void {
    for (const map of Object.values(objects)) map.clear();
    sessionOrders.clear();
  }

  return { objects, route, saveCard, completeCheckout, event, clear };
}
