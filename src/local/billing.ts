import {
  BILLING_MESSAGES,
  billingPageResponseSchema,
  checkoutResponseSchema,
  plansResponseSchema,
  subscriptionResponseSchema,
  type CheckoutResponse,
  type Plan,
  type Subscription,
} from '../domain/billing';
import type { KincareDb } from './db';
import { http } from './http';
import { statusOf } from './http-errors';

// Plans and the person's subscription (src/server/services/billing/README.md). The payment provider owns
// them, so every change is online-only and goes straight to the server; what the server last answered is kept
// in the replica's `billing` table, which the Subscription screen reads, so it shows the saved plan offline.
// Calls are quiet: the screen says what failed, with the store defaults ('Failed to fetch plans').

const now = () => new Date().toISOString();

async function savePlans(db: KincareDb, plans: Plan[]): Promise<void> {
  await db.billing.put({ key: 'plans', plans, saved_at: now() });
}

async function saveSubscription(db: KincareDb, subscription: Subscription | null): Promise<void> {
  await db.billing.put({ key: 'subscription', subscription, saved_at: now() });
}

/** The plans on offer (public: the sign-in modal and /signup/:plan ask before anyone is signed in). */
export async function fetchPlans(): Promise<Plan[]> {
  const response = await http.get('/stripe/plans', { quiet: true });
  return plansResponseSchema.parse(response.data).data;
}

/** The plans, fetched and saved on the device. */
export async function refreshPlans(db: KincareDb): Promise<Plan[]> {
  const plans = await fetchPlans();
  await savePlans(db, plans);
  return plans;
}

/** The signed-in patient's subscription (null: none), fetched and saved on the device. */
export async function refreshSubscription(db: KincareDb): Promise<Subscription | null> {
  const response = await http.get('/stripe/subscription', { quiet: true });
  const { data } = subscriptionResponseSchema.parse(response.data);
  await saveSubscription(db, data);
  return data;
}

/** A change's answer: the subscription as it is now is saved; a checkout still to pay changes nothing yet. */
async function afterChange(db: KincareDb, data: unknown): Promise<CheckoutResponse> {
  const answer = checkoutResponseSchema.parse(data);
  if (answer.subscription) await saveSubscription(db, answer.subscription);
  return answer;
}

/** Subscribe, signed in. A free plan starts at once; a paid one answers the checkout to go to. */
export async function subscribeToPlan(
  db: KincareDb,
  body: { planId: string; userId: string },
): Promise<CheckoutResponse> {
  const response = await http.post('/stripe/subscribe', body, { quiet: true });
  return afterChange(db, response.data);
}

/**
 * Subscribe before signing in: the login refused the patient (403 SUBSCRIPTION_REQUIRED) with a short-lived
 * `subscribeToken` that stands for the sign-in. Nothing is saved: nobody is signed in on this device yet.
 */
export async function subscribeBeforeSignIn(body: {
  planId: string;
  userId: string;
  subscribeToken: string;
}): Promise<CheckoutResponse> {
  const response = await http.post('/stripe/subscribe', body, { quiet: true });
  return checkoutResponseSchema.parse(response.data);
}

/** A monthly plan to a yearly one (Upgrade). */
export async function upgradeSubscription(
  db: KincareDb,
  customerId: string,
  planId: string,
): Promise<CheckoutResponse> {
  const response = await http.post(
    `/stripe/subscription/${encodeURIComponent(customerId)}/upgrade`,
    { planId },
    { quiet: true },
  );
  return afterChange(db, response.data);
}

/**
 * Moves the subscription to the plan the person chose (any direction): at once, at the period's end, or
 * (from Free to a paid plan) through the checkout the answer names.
 */
export async function changePlan(
  db: KincareDb,
  customerId: string,
  planId: string,
): Promise<CheckoutResponse> {
  const response = await http.post(
    `/stripe/subscription/${encodeURIComponent(customerId)}/change`,
    { planId },
    { quiet: true },
  );
  return afterChange(db, response.data);
}

/** Undoes a cancel set for the period's end (Resume Plan); the subscription as it is now is saved. */
export async function resumeSubscription(db: KincareDb, customerId: string): Promise<Subscription> {
  const response = await http.post(
    `/stripe/subscription/${encodeURIComponent(customerId)}/resume`,
    {},
    { quiet: true },
  );
  const { data } = subscriptionResponseSchema.parse(response.data);
  if (!data) throw new Error(BILLING_MESSAGES.nothingToResume);
  await saveSubscription(db, data);
  return data;
}

/** The address of the provider's page where the person changes their card. */
export async function billingPageAddress(customerId: string): Promise<string> {
  const response = await http.post(
    `/stripe/subscription/${encodeURIComponent(customerId)}/card`,
    {},
    { quiet: true },
  );
  return billingPageResponseSchema.parse(response.data).url;
}

/** A canceled subscription, again, on the card's plan (Renew). */
export async function renewSubscription(
  db: KincareDb,
  customerId: string,
  planId: string,
): Promise<CheckoutResponse> {
  const response = await http.post('/stripe/subscription/renew', { customerId, planId }, { quiet: true });
  return afterChange(db, response.data);
}

/**
 * Cancels: a paid plan or a trial at its period's end (the cards then offer Resume Plan), Free at once (the
 * cards then offer Renew). The subscription as it is now is saved.
 */
export async function cancelSubscription(db: KincareDb, customerId: string): Promise<Subscription> {
  const response = await http.delete(`/stripe/subscription/${encodeURIComponent(customerId)}`, {
    quiet: true,
  });
  const { data } = subscriptionResponseSchema.parse(response.data);
  if (!data) throw new Error(BILLING_MESSAGES.noSubscriptionToChange);
  await saveSubscription(db, data);
  return data;
}

/**
 * What to tell the person when a billing call failed: the server's own words when it gave some, else the
 * store default for that call; without a connection, that changes wait for one.
 */
export function billingFailureText(error: unknown, fallback: string): string {
  const body = bodyOf(error);
  const message = typeof body?.message === 'string' ? body.message.trim() : '';
  if (message) return message;
  if (statusOf(error) === undefined && typeof navigator !== 'undefined' && !navigator.onLine)
    return BILLING_MESSAGES.needsConnection;
  return fallback;
}

/** Whether a failure is worth a toast: a 401 has already signed the person out and said so. */
export function isReportable(error: unknown): boolean {
  return statusOf(error) !== 401;
}

function bodyOf(error: unknown): Record<string, unknown> | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { response?: { data?: unknown } }).response?.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
}

/**
 * A plan's price as people read it: 'Free', or '$6.99 / month'. The sign-in modal and
 * the Subscription screen both show it (they are two features, which may not import each other).
 */
export function planPriceText(
  plan: Pick<Plan, 'price' | 'interval'> & { currency?: string | undefined },
): string {
  if (plan.price === 0) return BILLING_MESSAGES.free;
  return `${moneyText(plan.price, plan.currency ?? 'usd')} / ${plan.interval}`;
}

export function moneyText(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
      amount,
    );
  } catch {
    // An unknown currency code: the amount and the code, rather than nothing.
    return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/**
 * Leaves the app for the payment provider's checkout or card page (or the server's test-mode ones). Only a web
 * address is followed: an answer naming anything else (a `javascript:` URL) is refused.
 */
export function goToCheckout(url: string): void {
  const address = new URL(url, window.location.origin);
  if (address.protocol !== 'https:' && address.protocol !== 'http:')
    throw new Error('The checkout address is not a web address.');
  window.location.assign(address.href);
}
