import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES, type Plan, type Subscription } from '../../../src/domain/billing';
import { register, signIn, SubscriptionRequiredError } from '../../../src/local/account';
import {
  billingFailureText,
  billingPageAddress,
  cancelSubscription,
  changePlan,
  goToCheckout,
  isReportable,
  planPriceText,
  refreshPlans,
  refreshSubscription,
  renewSubscription,
  resumeSubscription,
  subscribeBeforeSignIn,
  subscribeToPlan,
  upgradeSubscription,
} from '../../../src/local/billing';
import { DB_PREFIX, deleteUserDbs, forgetUserData, KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { setHttpEvents } from '../../../src/local/http-events';
import { clearSession, readSession, storeSession } from '../../../src/local/session';
import { fakeServer, storedAnywhere, tokenFor, type Answer, type Call } from './support';
import { FREE, MONTHLY, subscription } from '../fixtures/billing';

// Plans and the subscription on the device: each answer is saved in the replica's `billing` table
// (what the screen reads, offline too), a checkout still to pay never overwrites the saved plan, the plan
// choice before sign-in goes without anyone's token and saves nothing, the login's 403
// SUBSCRIPTION_REQUIRED becomes a typed error carrying its body, and failures read in the right words.

const USER = '3b9d1c52-7d55-4c0e-9d43-0b6f1f0f0a01';
let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];
const errors = vi.fn();

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}billing-test-${crypto.randomUUID()}`);
  await db.open();
  route = () => ({ status: 500 });
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  errors.mockReset();
  setHttpEvents({ onUnauthorized: () => {}, onError: errors });
});

afterEach(async () => {
  await db.delete();
  await clearSession();
  localStorage.clear();
  await deleteUserDbs();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

const saved = async () => ({
  plans: (await db.billing.get('plans')) as { plans: Plan[] } | undefined,
  subscription: (await db.billing.get('subscription')) as { subscription: Subscription | null } | undefined,
});

describe('fetching', () => {
  it('saves the plans and the subscription the server answers, and a later failure keeps them', async () => {
    route = (call) =>
      call.url === '/stripe/plans'
        ? { status: 200, data: { data: [FREE, MONTHLY] } }
        : { status: 200, data: { data: subscription() } };
    expect(await refreshPlans(db)).toEqual([FREE, MONTHLY]);
    expect(await refreshSubscription(db)).toEqual(subscription());
    expect((await saved()).plans?.plans).toEqual([FREE, MONTHLY]);
    expect((await saved()).subscription?.subscription).toEqual(subscription());

    route = () => ({ status: 503, data: { message: BILLING_MESSAGES.providerUnavailable } });
    await expect(refreshPlans(db)).rejects.toBeDefined();
    await expect(refreshSubscription(db)).rejects.toBeDefined();
    expect((await saved()).plans?.plans).toEqual([FREE, MONTHLY]);
    expect((await saved()).subscription?.subscription).toEqual(subscription());
    // Quiet: the screen says what failed (with the store default), not the client's generic toast.
    expect(errors).not.toHaveBeenCalled();
  });

  it('saves "no subscription" as such', async () => {
    route = () => ({ status: 200, data: { data: null } });
    expect(await refreshSubscription(db)).toBeNull();
    expect((await saved()).subscription).toMatchObject({ key: 'subscription', subscription: null });
  });

  it('refuses an answer that is not the contract, saving nothing', async () => {
    route = () => ({ status: 200, data: { data: [{ id: 'free' }] } });
    await expect(refreshPlans(db)).rejects.toBeDefined();
    expect((await saved()).plans).toBeUndefined();
  });
});

describe('changes', () => {
  it('a change that needs payment first leaves the saved plan as it was', async () => {
    await db.billing.put({ key: 'subscription', subscription: subscription(), saved_at: 'earlier' });
    route = () => ({
      status: 200,
      data: { checkout_url: '/api/stripe/test-checkout/cs_test_1', subscription: null },
    });
    const answer = await upgradeSubscription(db, 'cus_123', 'plus-yearly');
    expect(answer.checkout_url).toBe('/api/stripe/test-checkout/cs_test_1');
    expect((await saved()).subscription?.subscription).toEqual(subscription());
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/stripe/subscription/cus_123/upgrade',
      body: { planId: 'plus-yearly' },
    });
  });

  it('a chosen plan, a resume and the card page: the answer is saved, and the card page is only an address', async () => {
    const ending = subscription({
      plan_id: 'plus-monthly',
      price: 6.99,
      cancel_at_period_end: true,
      next_plan_id: 'free',
    });
    route = () => ({ status: 200, data: { checkout_url: null, subscription: ending } });
    await changePlan(db, 'cus_123', 'free');
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/stripe/subscription/cus_123/change',
      body: { planId: 'free' },
    });
    expect((await saved()).subscription?.subscription).toEqual(ending);

    const resumed = { ...ending, cancel_at_period_end: false, next_plan_id: null };
    route = () => ({ status: 200, data: { data: resumed } });
    expect(await resumeSubscription(db, 'cus_123')).toEqual(resumed);
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/stripe/subscription/cus_123/resume' });
    expect((await saved()).subscription?.subscription).toEqual(resumed);

    route = () => ({ status: 200, data: { url: 'https://billing.stripe.com/p/session/x' } });
    expect(await billingPageAddress('cus_123')).toBe('https://billing.stripe.com/p/session/x');
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/stripe/subscription/cus_123/card' });
    expect((await saved()).subscription?.subscription).toEqual(resumed);
    route = () => ({ status: 200, data: {} });
    await expect(billingPageAddress('cus_123')).rejects.toThrow();
  });

  it('a change that took effect at once is saved: renew, cancel and subscribe', async () => {
    const renewed = subscription({ plan_id: 'plus-monthly', plan_name: 'Family Plus', price: 6.99 });
    route = () => ({ status: 200, data: { checkout_url: null, subscription: renewed } });
    await renewSubscription(db, 'cus_123', 'plus-monthly');
    expect(calls.at(-1)).toMatchObject({
      url: '/stripe/subscription/renew',
      body: { customerId: 'cus_123', planId: 'plus-monthly' },
    });
    expect((await saved()).subscription?.subscription).toEqual(renewed);

    const canceled = subscription({ subscription_status: 'canceled' });
    route = () => ({ status: 200, data: { data: canceled } });
    expect(await cancelSubscription(db, 'cus_123')).toEqual(canceled);
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/stripe/subscription/cus_123' });
    expect((await saved()).subscription?.subscription).toEqual(canceled);

    await storeSession(tokenFor(USER), 'Patient');
    route = () => ({ status: 200, data: { checkout_url: null, subscription: subscription() } });
    await subscribeToPlan(db, { planId: 'free', userId: USER });
    expect(calls.at(-1)).toMatchObject({
      url: '/stripe/subscribe',
      authorization: `Bearer ${tokenFor(USER)}`,
      body: { planId: 'free', userId: USER },
    });
    expect((await saved()).subscription?.subscription).toEqual(subscription());
  });

  it('the plan choice before sign-in sends the subscribe token, no bearer, and saves nothing anywhere', async () => {
    route = () => ({ status: 200, data: { checkout_url: null, subscription: subscription() } });
    const answer = await subscribeBeforeSignIn({
      planId: 'free',
      userId: USER,
      subscribeToken: 'sub-token-1',
    });
    expect(answer.subscription).toEqual(subscription());
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/stripe/subscribe',
        authorization: null,
        body: { planId: 'free', userId: USER, subscribeToken: 'sub-token-1' },
      },
    ]);
    expect(await storedAnywhere('cus_123')).toEqual([]);
    expect(await storedAnywhere('sub-token-1')).toEqual([]);
  });

  it('what was saved goes with the rest when the session ends', async () => {
    const name = `${DB_PREFIX}billing-forget-${crypto.randomUUID()}`;
    const other = new KincareDb(name);
    await other.open();
    await other.billing.put({ key: 'subscription', subscription: subscription(), saved_at: 'now' });
    other.close();
    await forgetUserData(name.slice(DB_PREFIX.length));
    expect(await storedAnywhere('cus_123')).toEqual([]);
  });
});

describe('the login asks for a plan', () => {
  const required = {
    message: BILLING_MESSAGES.subscriptionRequired,
    code: 'SUBSCRIPTION_REQUIRED',
    userId: USER,
    subscribeToken: 'sub-token-2',
    planId: 'plus-monthly',
  };

  it('a 403 SUBSCRIPTION_REQUIRED is a SubscriptionRequiredError with its body; nothing is stored', async () => {
    route = () => ({ status: 403, data: required });
    const failure = await signIn({ email: 'p@example.com', password: 'x' }, async () => true).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SubscriptionRequiredError);
    expect((failure as SubscriptionRequiredError).name).toBe('SubscriptionRequiredError');
    expect((failure as SubscriptionRequiredError).body).toEqual(required);
    expect(readSession()).toBeNull();
    expect(await storedAnywhere('sub-token-2')).toEqual([]);
  });

  it('any other 403 (not verified yet) stays the server error it was', async () => {
    route = () => ({ status: 403, data: { message: 'Please verify your e-mail first.' } });
    const failure = await signIn({ email: 'p@example.com', password: 'x' }, async () => true).catch(
      (error: unknown) => error,
    );
    expect(failure).not.toBeInstanceOf(SubscriptionRequiredError);
    expect((failure as { response?: { status: number } }).response?.status).toBe(403);
  });

  it('a corporate sign-up sends its plan with the registration', async () => {
    route = () => ({
      status: 201,
      data: { success: true, message: 'Check your e-mail for a verification link.' },
    });
    await register({
      name: 'Corin Corporate',
      email: 'c@example.com',
      password: 'Juniper-Lantern-58',
      role: 'Patient',
      zip_code: '10001',
      plan: 'plus-yearly',
    });
    expect(calls[0]?.body).toMatchObject({ email: 'c@example.com', plan: 'plus-yearly' });
  });
});

describe('words and addresses', () => {
  const httpError = (status: number | null, data?: unknown) => ({
    isAxiosError: true,
    ...(status === null ? {} : { response: { status, data } }),
  });

  it('says the server’s words, else the store default; offline, that changes wait for a connection', () => {
    const fallback = BILLING_MESSAGES.fetchPlansFailed;
    expect(billingFailureText(httpError(409, { message: BILLING_MESSAGES.notCanceled }), fallback)).toBe(
      BILLING_MESSAGES.notCanceled,
    );
    expect(billingFailureText(httpError(500, {}), fallback)).toBe(fallback);
    expect(billingFailureText(httpError(null), fallback)).toBe(fallback);
    expect(billingFailureText(new Error('boom'), fallback)).toBe(fallback);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    expect(billingFailureText(httpError(null), fallback)).toBe(BILLING_MESSAGES.needsConnection);
    expect(isReportable(httpError(401, {}))).toBe(false);
    expect(isReportable(httpError(503, {}))).toBe(true);
  });

  it('prices read Free or amount per interval', () => {
    expect(planPriceText(FREE)).toBe('Free');
    expect(planPriceText(MONTHLY)).toBe('$6.99 / month');
    expect(planPriceText({ price: 69.9, interval: 'year' })).toBe('$69.90 / year');
  });

  it('follows only a web address to the checkout', () => {
    expect(() => goToCheckout('javascript:alert(1)')).toThrow('not a web address');
    expect(() => goToCheckout('data:text/html,<p>pay</p>')).toThrow('not a web address');
  });
});
