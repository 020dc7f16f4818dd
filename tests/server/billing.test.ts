import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, planCardState, type Plan, type Subscription } from '../../src/domain/billing';
import { billingEvents, subscriptions, testBillingObjects } from '../../src/server/db/schema';
import { issueSubscribeToken } from '../../src/server/services/billing/subscribe-tokens';
import { signStripeEvent } from '../../src/server/services/billing/webhook-signature';
import {
  bearer,
  createUser,
  lastMailTo,
  resetDatabase,
  startTestApp,
  TEST_PASSWORD,
  verificationTokenIn,
  type TestContext,
} from './helpers';

// Plans and subscriptions on the built-in test-mode provider (no STRIPE_SECRET_KEY): the whole flow a
// person goes through on a fresh install, through the real routes. (The same service on Stripe:
// billing-stripe-app.test.ts; what plans allow: plan-limits.test.ts.)

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

const login = (email: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });

type Refusal = {
  message: string;
  code: string;
  userId: string;
  subscribeToken: string;
  planId: string | null;
};

/** A new patient at their first sign-in: refused until they choose a plan. */
async function newPatient(): Promise<{ email: string; refusal: Refusal }> {
  const person = await createUser(ctx, { plan: null });
  const refused = await login(person.email);
  expect(refused.statusCode).toBe(403);
  return { email: person.email, refusal: refused.json<Refusal>() };
}

const subscribe = (body: Record<string, unknown>, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/stripe/subscribe',
    payload: body,
    ...(token ? { headers: bearer(token) } : {}),
  });

const mySubscription = async (token: string): Promise<Subscription | null> => {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: '/api/stripe/subscription',
    headers: bearer(token),
  });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ data: Subscription | null }>().data;
};

/** The path of a checkout address (the test provider's page is served by this app). */
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

const payForm = (card: string, extra: Record<string, string> = {}) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ card, expiry: '12/39', cvc: '123', name: 'Asha Rao', ...extra }).toString(),
});

/** A patient signed in on a paid plan chosen at the first sign-in and paid for on the test checkout. */
async function paidPatient(planId = 'plus-monthly') {
  const { email, refusal } = await newPatient();
  const chosen = await subscribe({ planId, userId: refusal.userId, subscribeToken: refusal.subscribeToken });
  const checkoutUrl = chosen.json<{ checkout_url: string }>().checkout_url;
  const paid = await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4242 4242 4242 4242') });
  expect(paid.statusCode).toBe(303);
  const signedIn = await login(email);
  expect(signedIn.statusCode).toBe(200);
  return {
    email,
    userId: refusal.userId,
    token: signedIn.json<{ accessToken: string }>().accessToken,
    checkoutUrl,
  };
}

/** Time passes at the test-mode provider until the trial has ended: the card on file is charged. */
async function endTrial(token: string) {
  const trialEnd = Date.parse((await mySubscription(token))?.trial_end ?? '');
  await ctx.app.testBilling?.advanceClock(new Date(trialEnd + 60_000));
  expect(await mySubscription(token)).toMatchObject({ subscription_status: 'active' });
}

/** How many invoices the test-mode provider announced as paid (what was charged). */
async function paidInvoices(): Promise<number> {
  const events = await ctx.database.db
    .select()
    .from(billingEvents)
    .where(eq(billingEvents.type, 'invoice.paid'));
  return events.length;
}

describe('GET /api/stripe/plans', () => {
  it('answers the seeded plans to anyone, cheapest first, prices in dollars', async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/stripe/plans' });
    expect(answer.statusCode).toBe(200);
    const plans = answer.json<{ data: Plan[] }>().data;
    expect(plans.map((plan) => [plan.id, plan.price, plan.interval, plan.trial_period_days])).toEqual([
      ['free', 0, 'month', 0],
      ['plus-monthly', 6.99, 'month', 14],
      ['plus-yearly', 69.9, 'year', 14],
    ]);
    expect(plans[0]?.limits).toEqual({ caregivers: 2, labExtractionsPerMonth: 5 });
  });
});

describe('signing in without a plan', () => {
  it('refuses a new patient with 403 SUBSCRIPTION_REQUIRED, the userId and a subscribe token; not a caregiver', async () => {
    const { refusal } = await newPatient();
    expect(refusal).toMatchObject({
      message: BILLING_MESSAGES.subscriptionRequired,
      code: 'SUBSCRIPTION_REQUIRED',
      planId: null,
    });
    expect(refusal.subscribeToken).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    const carer = await createUser(ctx, { role: 'Caregiver' });
    expect((await login(carer.email)).statusCode).toBe(200);
  });

  it('lets the person choose the Free plan with the token, which activates at once; then they sign in', async () => {
    const { email, refusal } = await newPatient();
    const chosen = await subscribe({
      planId: 'free',
      userId: refusal.userId,
      subscribeToken: refusal.subscribeToken,
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({
      checkout_url: null,
      subscription: { plan_id: 'free', plan_name: 'Free', subscription_status: 'active', price: 0 },
    });
    const signedIn = await login(email);
    expect(signedIn.statusCode).toBe(200);
    // Choosing again is a conflict, not a second subscription.
    const again = await subscribe({
      planId: 'free',
      userId: refusal.userId,
      subscribeToken: refusal.subscribeToken,
    });
    expect([again.statusCode, again.json().message]).toEqual([409, BILLING_MESSAGES.alreadySubscribed]);
  });

  it('takes the subscribe token only for its own person, unaltered and in time', async () => {
    const first = await newPatient();
    const second = await newPatient();
    const secret = ctx.app.config.jwtSecret;
    const attempts: [string, string][] = [
      [second.refusal.userId, first.refusal.subscribeToken],
      [first.refusal.userId, `${first.refusal.subscribeToken.slice(0, -2)}xx`],
      [
        first.refusal.userId,
        issueSubscribeToken(secret, first.refusal.userId, new Date(Date.now() - 31 * 60_000)),
      ],
      [
        first.refusal.userId,
        issueSubscribeToken('another-secret-long-enough-for-the-test', first.refusal.userId),
      ],
      [first.refusal.userId, ''],
    ];
    for (const [userId, subscribeToken] of attempts) {
      const refused = await subscribe({ planId: 'free', userId, subscribeToken });
      expect([refused.statusCode, refused.json().message]).toEqual([
        401,
        BILLING_MESSAGES.subscribeLinkExpired,
      ]);
    }
    // A caregiver has no subscription to choose, whatever token is made for them.
    const carer = await createUser(ctx, { role: 'Caregiver' });
    const forged = issueSubscribeToken(secret, carer.userId);
    expect(
      (await subscribe({ planId: 'free', userId: carer.userId, subscribeToken: forged })).statusCode,
    ).toBe(401);
    expect(await ctx.database.db.select({ n: count() }).from(subscriptions)).toEqual([{ n: 0 }]);
  });

  it('refuses unknown plans and bad bodies with 400', async () => {
    const { refusal } = await newPatient();
    for (const planId of ['gold', 'FREE', '', 'x'.repeat(41), 42]) {
      const answer = await subscribe({
        planId,
        userId: refusal.userId,
        subscribeToken: refusal.subscribeToken,
      });
      expect(answer.statusCode).toBe(400);
    }
    expect(
      (await subscribe({ planId: 'free', userId: 'me', subscribeToken: refusal.subscribeToken })).statusCode,
    ).toBe(400);
  });

  it('pre-selects the plan of a corporate sign-up (/signup/:plan), for patients only', async () => {
    const register = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/register', payload });
    const body = { name: 'Corp Person', password: TEST_PASSWORD, zip_code: '10001' };
    expect(
      (await register({ ...body, email: 'a@example.com', role: 'Patient', plan: 'gold' })).statusCode,
    ).toBe(400);
    expect(
      (await register({ ...body, email: 'b@example.com', role: 'Caregiver', plan: 'free' })).statusCode,
    ).toBe(400);
    const made = await register({ ...body, email: 'c@example.com', role: 'Patient', plan: 'plus-yearly' });
    expect(made.statusCode).toBe(201);
    const token = verificationTokenIn(lastMailTo(ctx, 'c@example.com'));
    await ctx.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    // The plan is kept on the account and answered back when the first sign-in asks for one.
    expect((await login('c@example.com')).json()).toMatchObject({
      code: 'SUBSCRIPTION_REQUIRED',
      planId: 'plus-yearly',
    });
  });
});

describe('the test-mode checkout', () => {
  it('is a page labelled as a test that takes the test card, then the plan is trialing and the person signs in', async () => {
    const { email, refusal } = await newPatient();
    const chosen = await subscribe({
      planId: 'plus-monthly',
      userId: refusal.userId,
      subscribeToken: refusal.subscribeToken,
    });
    expect(chosen.statusCode).toBe(200);
    const checkoutUrl = chosen.json<{ checkout_url: string; subscription: null }>().checkout_url;
    expect(checkoutUrl).toMatch(/\/api\/stripe\/test-checkout\/cs_test_[a-f0-9]{32}$/);
    const page = await ctx.app.inject({ method: 'GET', url: pathOf(checkoutUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Test mode: no real payment is taken.');
    expect(page.body).toContain('Family Plus');
    expect(page.body).toContain('$6.99 / month');
    expect(page.body).toContain('14-day free trial');

    // Until it is paid, there is no subscription and no sign-in.
    expect((await login(email)).statusCode).toBe(403);
    const invalid = await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4242') });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(BILLING_MESSAGES.cardInvalid);
    const expired = await ctx.app.inject({
      url: pathOf(checkoutUrl),
      ...payForm('4242424242424242', { expiry: '01/20' }),
    });
    expect(expired.body).toContain(BILLING_MESSAGES.expiryInvalid);
    const declined = await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4000 0000 0000 0002') });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(await ctx.database.db.select({ n: count() }).from(subscriptions)).toEqual([{ n: 0 }]);

    const paid = await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4242 4242 4242 4242') });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(/\/billing\/success\?session_id=cs_test_[a-f0-9]{32}$/);
    const signedIn = await login(email);
    expect(signedIn.statusCode).toBe(200);
    const subscription = await mySubscription(signedIn.json<{ accessToken: string }>().accessToken);
    expect(subscription).toMatchObject({
      plan_id: 'plus-monthly',
      subscription_status: 'trialing',
      cancel_at_period_end: false,
    });
    const trialDays = (Date.parse(subscription?.trial_end ?? '') - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(13.9);
    expect(trialDays).toBeLessThanOrEqual(14);

    // Paying twice (a second tap, the back button) starts nothing more.
    const twice = await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4242 4242 4242 4242') });
    expect(twice.statusCode).toBe(409);
    const subscriptionsAtProvider = await ctx.database.db
      .select({ n: count() })
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    expect(subscriptionsAtProvider).toEqual([{ n: 1 }]);
  });

  it('starts one subscription when Pay is pressed twice at once', async () => {
    const { refusal } = await newPatient();
    const chosen = await subscribe({
      planId: 'plus-monthly',
      userId: refusal.userId,
      subscribeToken: refusal.subscribeToken,
    });
    const sessionId = chosen.json<{ checkout_url: string }>().checkout_url.split('/').pop() ?? '';
    const provider = ctx.app.testBilling;
    if (!provider) throw new Error('the test app runs the test-mode provider');
    // Both past the page's own check (which a second request usually meets closed already).
    const outcomes = await Promise.all([
      provider.pay(sessionId, '4242424242424242'),
      provider.pay(sessionId, '4242424242424242'),
    ]);
    expect(outcomes.map((outcome) => outcome.paid).sort()).toEqual([false, true]);
    const subscriptionsAtProvider = await ctx.database.db
      .select({ n: count() })
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    expect(subscriptionsAtProvider).toEqual([{ n: 1 }]);
  });

  it('keeps the newer of two subscriptions paid in two tabs and cancels the older at the provider', async () => {
    const { email, refusal } = await newPatient();
    const choose = async () =>
      (
        await subscribe({
          planId: 'plus-monthly',
          userId: refusal.userId,
          subscribeToken: refusal.subscribeToken,
        })
      ).json<{ checkout_url: string }>().checkout_url;
    const [firstTab, secondTab] = [await choose(), await choose()];
    expect((await ctx.app.inject({ url: pathOf(firstTab), ...payForm('4242424242424242') })).statusCode).toBe(
      303,
    );
    expect(
      (await ctx.app.inject({ url: pathOf(secondTab), ...payForm('4242424242424242') })).statusCode,
    ).toBe(303);
    const atProvider = await ctx.database.db
      .select({ id: testBillingObjects.id, object: testBillingObjects.object })
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    const statuses = atProvider.map((row) => row.object.status).sort();
    expect(statuses).toEqual(['canceled', 'trialing']);
    const live = atProvider.find((row) => row.object.status === 'trialing');
    const token = (await login(email)).json<{ accessToken: string }>().accessToken;
    expect(await mySubscription(token)).toMatchObject({ id: live?.id, subscription_status: 'trialing' });
  });

  it('answers an unknown or malformed checkout with a 404 page', async () => {
    for (const id of [`cs_test_${'0'.repeat(32)}`, 'cs_test_x', '..%2F..%2Fetc']) {
      const page = await ctx.app.inject({ method: 'GET', url: `/api/stripe/test-checkout/${id}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain(BILLING_MESSAGES.checkoutUnknown);
    }
  });
});

describe('time passing at the test-mode provider', () => {
  it('ends a trial by charging the card (active, a new month), and renews each period after', async () => {
    const { token, email } = await paidPatient();
    const trialEnd = Date.parse((await mySubscription(token))?.trial_end ?? '');
    const provider = ctx.app.testBilling;
    if (!provider) throw new Error('the test app runs the test-mode provider');
    expect(await provider.advanceClock(new Date(trialEnd - 60_000))).toBe(0);
    expect(await provider.advanceClock(new Date(trialEnd + 60_000))).toBe(1);
    const active = await mySubscription(token);
    expect(active).toMatchObject({ subscription_status: 'active', plan_id: 'plus-monthly' });
    const periodDays = (Date.parse(active?.current_period_end ?? '') - trialEnd) / 86_400_000;
    expect(periodDays).toBeGreaterThanOrEqual(28);
    expect(periodDays).toBeLessThanOrEqual(31);
    expect((await login(email)).statusCode).toBe(200);
    // Two months later, two periods were paid: the period ends in the future again.
    const later = new Date(trialEnd + 62 * 86_400_000);
    await provider.advanceClock(later);
    expect(Date.parse((await mySubscription(token))?.current_period_end ?? '')).toBeGreaterThan(
      later.getTime(),
    );
  });

  it('cancels at the end of the period a subscription set to cancel then', async () => {
    const { token, userId } = await paidPatient();
    const [row] = await ctx.database.db
      .select()
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    await ctx.database.db
      .update(testBillingObjects)
      .set({ object: { ...row?.object, cancel_at_period_end: true } })
      .where(eq(testBillingObjects.id, row?.id ?? ''));
    const trialEnd = Date.parse((await mySubscription(token))?.trial_end ?? '');
    await ctx.app.testBilling?.advanceClock(new Date(trialEnd + 60_000));
    const [stored] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(stored?.status).toBe('canceled');
  });
});

describe('POST /api/stripe/webhook', () => {
  const eventFor = (subscriptionObject: Record<string, unknown>, id = 'evt_test_replayed') =>
    JSON.stringify({
      id,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: { object: subscriptionObject },
    });
  const post = (payload: string, signature?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      payload,
    });

  it('refuses what is not signed with the secret (400) and stores nothing', async () => {
    const { userId } = await paidPatient();
    const [row] = await ctx.database.db
      .select()
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    const payload = eventFor({ ...row?.object, status: 'canceled' });
    const secret = ctx.app.billing.provider.webhookSecret;
    const eventsBefore = await ctx.database.db.select({ n: count() }).from(billingEvents);
    for (const signature of [
      undefined,
      'garbage',
      signStripeEvent(payload, 'whsec_wrongsecret'),
      signStripeEvent(`${payload} `, secret),
    ]) {
      const refused = await post(payload, signature);
      expect([refused.statusCode, refused.json().message]).toEqual([400, BILLING_MESSAGES.webhookSignature]);
    }
    expect(await ctx.database.db.select({ n: count() }).from(billingEvents)).toEqual(eventsBefore);
    const [stored] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(stored?.status).toBe('trialing');
    const notAnEvent = '{"hello":"world"}';
    expect((await post(notAnEvent, signStripeEvent(notAnEvent, secret))).statusCode).toBe(400);
  });

  it('handles a replayed event once', async () => {
    const { userId } = await paidPatient();
    const [row] = await ctx.database.db
      .select()
      .from(testBillingObjects)
      .where(eq(testBillingObjects.kind, 'subscription'));
    const payload = eventFor(row?.object ?? {});
    const secret = ctx.app.billing.provider.webhookSecret;
    expect((await post(payload, signStripeEvent(payload, secret))).statusCode).toBe(200);
    const after = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect((await post(payload, signStripeEvent(payload, secret))).statusCode).toBe(200);
    expect(
      await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    ).toEqual(after);
    const recorded = await ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, 'evt_test_replayed'));
    expect(recorded).toHaveLength(1);
  });
});

describe('changing a plan', () => {
  const change = (method: 'POST' | 'DELETE', url: string, token: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('cancels a trial at its end (nothing charged), refuses a second cancel, then renews with the card on file (no second trial)', async () => {
    const { token, email } = await paidPatient();
    const current = await mySubscription(token);
    const customerId = current?.customer_id ?? '';
    const canceled = await change('DELETE', `/api/stripe/subscription/${customerId}`, token);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({
      data: { subscription_status: 'trialing', cancel_at_period_end: true, trial_end: current?.trial_end },
    });
    // The trial already running is the person's until it ends.
    expect((await login(email)).statusCode).toBe(200);
    const again = await change('DELETE', `/api/stripe/subscription/${customerId}`, token);
    expect([again.statusCode, again.json().message]).toEqual([409, BILLING_MESSAGES.alreadyEnding]);

    // The trial ends: canceled, and no invoice was ever paid (nothing charged).
    await ctx.app.testBilling?.advanceClock(new Date(Date.parse(current?.trial_end ?? '') + 60_000));
    const afterCancel = await mySubscription(token);
    expect(afterCancel).toMatchObject({ subscription_status: 'canceled' });
    expect(await paidInvoices()).toBe(0);
    expect(
      afterCancel &&
        planCardState({ id: 'plus-monthly', interval: 'month', price: 6.99 }, afterCancel).showRenew,
    ).toBe(true);

    const renewed = await change('POST', '/api/stripe/subscription/renew', token, {
      customerId,
      planId: 'plus-monthly',
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json()).toMatchObject({
      checkout_url: null,
      subscription: { plan_id: 'plus-monthly', subscription_status: 'active', trial_end: null },
    });
    const renewAgain = await change('POST', '/api/stripe/subscription/renew', token, {
      customerId,
      planId: 'plus-monthly',
    });
    expect([renewAgain.statusCode, renewAgain.json().message]).toEqual([409, BILLING_MESSAGES.notCanceled]);
  });

  it('upgrades an active monthly plan to yearly in place (Subscription upgraded), and not a trial or a yearly one', async () => {
    const { token } = await paidPatient();
    const customerId = (await mySubscription(token))?.customer_id ?? '';
    const upgrade = () =>
      change('POST', `/api/stripe/subscription/${customerId}/upgrade`, token, { planId: 'plus-yearly' });
    // Trialing is not active (Upgrade only when active: src/server/services/billing/README.md).
    expect((await upgrade()).statusCode).toBe(409);
    await endTrial(token);
    const upgraded = await upgrade();
    expect(upgraded.statusCode).toBe(200);
    const subscription = upgraded.json<{ subscription: Subscription }>().subscription;
    expect(subscription).toMatchObject({
      plan_id: 'plus-yearly',
      interval: 'year',
      subscription_status: 'active',
    });
    const daysLeft = (Date.parse(subscription.current_period_end ?? '') - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(360);
    const twice = await upgrade();
    expect([twice.statusCode, twice.json().message]).toEqual([409, BILLING_MESSAGES.upgradeNotAllowed]);
    const toMonthly = await change('POST', `/api/stripe/subscription/${customerId}/upgrade`, token, {
      planId: 'plus-monthly',
    });
    expect(toMonthly.statusCode).toBe(409);
  });

  it('moves Free to yearly through checkout, and the paid plan replaces the free one when paid', async () => {
    const user = await createUser(ctx);
    const customerId = (await mySubscription(user.token))?.customer_id ?? '';
    expect(customerId).toMatch(/^cus_local_/);
    const upgraded = await change('POST', `/api/stripe/subscription/${customerId}/upgrade`, user.token, {
      planId: 'plus-yearly',
    });
    expect(upgraded.statusCode).toBe(200);
    const checkoutUrl = upgraded.json<{ checkout_url: string }>().checkout_url;
    expect(checkoutUrl).toContain('/api/stripe/test-checkout/');
    // Still Free until paid, now under the provider's customer.
    expect(await mySubscription(user.token)).toMatchObject({
      plan_id: 'free',
      customer_id: expect.stringMatching(/^cus_test_/),
    });
    await ctx.app.inject({ url: pathOf(checkoutUrl), ...payForm('4242424242424242') });
    expect(await mySubscription(user.token)).toMatchObject({
      plan_id: 'plus-yearly',
      subscription_status: 'trialing',
    });
  });

  it('cancels Free at once: the next sign-in asks for a plan; renewing Free brings it back', async () => {
    const user = await createUser(ctx);
    const customerId = (await mySubscription(user.token))?.customer_id ?? '';
    expect((await change('DELETE', `/api/stripe/subscription/${customerId}`, user.token)).statusCode).toBe(
      200,
    );
    expect((await login(user.email)).json()).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' });
    const renewed = await change('POST', '/api/stripe/subscription/renew', user.token, {
      customerId,
      planId: 'free',
    });
    expect(renewed.json()).toMatchObject({
      subscription: { plan_id: 'free', subscription_status: 'active' },
    });
    expect((await login(user.email)).statusCode).toBe(200);
  });

  it("refuses another patient's customer (404), caregivers (403), and bad ids (400)", async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const carer = await createUser(ctx, { role: 'Caregiver' });
    const customerId = (await mySubscription(owner.token))?.customer_id ?? '';
    expect((await change('DELETE', `/api/stripe/subscription/${customerId}`, other.token)).statusCode).toBe(
      404,
    );
    expect((await change('DELETE', `/api/stripe/subscription/${customerId}`, carer.token)).statusCode).toBe(
      403,
    );
    expect((await change('DELETE', '/api/stripe/subscription/not-a-customer', owner.token)).statusCode).toBe(
      400,
    );
    const renew = await change('POST', '/api/stripe/subscription/renew', other.token, {
      customerId,
      planId: 'free',
    });
    expect(renew.statusCode).toBe(404);
    const forOwner = await subscribe({ planId: 'free', userId: owner.userId }, other.token);
    expect(forOwner.statusCode).toBe(403);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/stripe/subscription', headers: bearer(carer.token) }))
        .statusCode,
    ).toBe(403);
    expect(await mySubscription(owner.token)).toMatchObject({ subscription_status: 'active' });
  });
});

describe('moving between plans, cancelling, resuming and the card', () => {
  const call = (method: 'POST' | 'DELETE', url: string, token: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const changeTo = (token: string, customerId: string, planId: unknown) =>
    call('POST', `/api/stripe/subscription/${customerId}/change`, token, { planId });
  const resume = (token: string, customerId: string) =>
    call('POST', `/api/stripe/subscription/${customerId}/resume`, token);
  const cardPage = (token: string, customerId: string) =>
    call('POST', `/api/stripe/subscription/${customerId}/card`, token);

  it('in a trial: monthly to yearly now (the trial kept, nothing charged), to Free at the trial end, back, then Free when it ends', async () => {
    const { token } = await paidPatient();
    const started = await mySubscription(token);
    const customerId = started?.customer_id ?? '';
    const yearly = await changeTo(token, customerId, 'plus-yearly');
    expect(yearly.statusCode).toBe(200);
    expect(yearly.json()).toMatchObject({
      checkout_url: null,
      subscription: {
        plan_id: 'plus-yearly',
        subscription_status: 'trialing',
        trial_end: started?.trial_end,
      },
    });
    expect(await paidInvoices()).toBe(0);

    const toFree = await changeTo(token, customerId, 'free');
    expect(toFree.statusCode).toBe(200);
    const scheduled = toFree.json<{ subscription: Subscription }>().subscription;
    expect(scheduled).toMatchObject({
      plan_id: 'plus-yearly',
      subscription_status: 'trialing',
      cancel_at_period_end: true,
      next_plan_id: 'free',
    });
    expect(planCardState({ id: 'free', interval: 'month', price: 0 }, scheduled).startsOn).toBe(
      scheduled.current_period_end,
    );
    const twice = await changeTo(token, customerId, 'free');
    expect([twice.statusCode, twice.json().message]).toEqual([409, BILLING_MESSAGES.alreadyMovingTo]);

    // Back to monthly: at once, and the move to Free is off.
    const back = await changeTo(token, customerId, 'plus-monthly');
    expect(back.json()).toMatchObject({
      subscription: { plan_id: 'plus-monthly', cancel_at_period_end: false, next_plan_id: null },
    });
    await changeTo(token, customerId, 'free');
    await ctx.app.testBilling?.advanceClock(new Date(Date.parse(started?.trial_end ?? '') + 60_000));
    expect(await mySubscription(token)).toMatchObject({
      plan_id: 'free',
      subscription_status: 'active',
      next_plan_id: null,
    });
    expect(await paidInvoices()).toBe(0);

    // From Free to a paid plan again: through checkout.
    const paidAgain = await changeTo(token, customerId, 'plus-monthly');
    expect(paidAgain.json<{ checkout_url: string }>().checkout_url).toContain('/api/stripe/test-checkout/');
  });

  it('on a paid plan: yearly now (charged), monthly now, Free at the period end, and Resume Plan undoes it', async () => {
    const { token } = await paidPatient();
    await endTrial(token);
    const customerId = (await mySubscription(token))?.customer_id ?? '';
    const charged = await paidInvoices();
    const yearly = await changeTo(token, customerId, 'plus-yearly');
    expect(yearly.json()).toMatchObject({
      subscription: { plan_id: 'plus-yearly', subscription_status: 'active' },
    });
    expect(await paidInvoices()).toBe(charged + 1);
    const monthly = await changeTo(token, customerId, 'plus-monthly');
    const onMonthly = monthly.json<{ subscription: Subscription }>().subscription;
    expect(onMonthly).toMatchObject({ plan_id: 'plus-monthly', interval: 'month' });
    const same = await changeTo(token, customerId, 'plus-monthly');
    expect([same.statusCode, same.json().message]).toEqual([409, BILLING_MESSAGES.samePlan]);

    const toFree = await changeTo(token, customerId, 'free');
    expect(toFree.json()).toMatchObject({
      subscription: {
        plan_id: 'plus-monthly',
        subscription_status: 'active',
        cancel_at_period_end: true,
        next_plan_id: 'free',
        current_period_end: onMonthly.current_period_end,
      },
    });
    const resumed = await resume(token, customerId);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({
      data: { plan_id: 'plus-monthly', cancel_at_period_end: false, next_plan_id: null },
    });
    const resumeTwice = await resume(token, customerId);
    expect([resumeTwice.statusCode, resumeTwice.json().message]).toEqual([
      409,
      BILLING_MESSAGES.nothingToResume,
    ]);

    // Cancel: kept until the end of the paid period, undone by Resume Plan; the provider agrees.
    const canceled = await call('DELETE', `/api/stripe/subscription/${customerId}`, token);
    expect(canceled.json()).toMatchObject({
      data: {
        subscription_status: 'active',
        cancel_at_period_end: true,
        next_plan_id: null,
        current_period_end: onMonthly.current_period_end,
      },
    });
    expect((await resume(token, customerId)).statusCode).toBe(200);
    const [atProvider] = await ctx.database.db
      .select()
      .from(testBillingObjects)
      .where(eq(testBillingObjects.id, onMonthly.id));
    expect(atProvider?.object.cancel_at_period_end).toBe(false);
  });

  it('refuses unknown plans (400), a canceled subscription (409), another patient (404), caregivers (403)', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const carer = await createUser(ctx, { role: 'Caregiver' });
    const customerId = (await mySubscription(owner.token))?.customer_id ?? '';
    for (const planId of ['gold', 'FREE', '', 42, null]) {
      const answer = await changeTo(owner.token, customerId, planId);
      expect(answer.statusCode).toBe(400);
    }
    const same = await changeTo(owner.token, customerId, 'free');
    expect([same.statusCode, same.json().message]).toEqual([409, BILLING_MESSAGES.samePlan]);
    for (const attempt of [
      () => changeTo(other.token, customerId, 'plus-monthly'),
      () => resume(other.token, customerId),
      () => cardPage(other.token, customerId),
    ])
      expect((await attempt()).statusCode).toBe(404);
    for (const attempt of [
      () => changeTo(carer.token, customerId, 'plus-monthly'),
      () => resume(carer.token, customerId),
      () => cardPage(carer.token, customerId),
    ])
      expect((await attempt()).statusCode).toBe(403);
    expect((await changeTo(owner.token, 'not-a-customer', 'free')).statusCode).toBe(400);
    // Free: nothing to resume, no card.
    expect((await resume(owner.token, customerId)).json().message).toBe(BILLING_MESSAGES.nothingToResume);
    expect((await cardPage(owner.token, customerId)).json().message).toBe(BILLING_MESSAGES.noCardToUpdate);
    // Canceled: it changes no more (Renew starts it again).
    await call('DELETE', `/api/stripe/subscription/${customerId}`, owner.token);
    const afterCancel = await changeTo(owner.token, customerId, 'plus-monthly');
    expect([afterCancel.statusCode, afterCancel.json().message]).toEqual([
      409,
      BILLING_MESSAGES.noSubscriptionToChange,
    ]);
    expect(await mySubscription(other.token)).toMatchObject({
      plan_id: 'free',
      subscription_status: 'active',
    });
  });

  it('changes the card on the test-mode card page, which checks what is typed; nothing is charged', async () => {
    const { token } = await paidPatient();
    const customerId = (await mySubscription(token))?.customer_id ?? '';
    expect((await mySubscription(token))?.card).toEqual({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2039,
    });
    const opened = await cardPage(token, customerId);
    expect(opened.statusCode).toBe(200);
    const url = opened.json<{ url: string }>().url;
    expect(url).toMatch(/\/api\/stripe\/test-billing\/bps_test_[a-f0-9]{32}$/);
    const page = await ctx.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Test mode: no real card is used.');
    expect(page.body).toContain('Card on file: Visa •••• 4242, expires 12/39');

    const post = (fields: Record<string, string>) =>
      ctx.app.inject({
        url: pathOf(url),
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ expiry: '08/31', cvc: '321', name: 'Asha Rao', ...fields }).toString(),
      });
    const refusals: [Record<string, string>, number, string][] = [
      [{ card: '5555' }, 400, BILLING_MESSAGES.cardInvalid],
      [{ card: '5555 5555 5555 4444', expiry: '01/20' }, 400, BILLING_MESSAGES.expiryInvalid],
      [{ card: '5555 5555 5555 4444', expiry: '13/31' }, 400, BILLING_MESSAGES.expiryInvalid],
      [{ card: '5555 5555 5555 4444', cvc: '12' }, 400, BILLING_MESSAGES.cvcInvalid],
      [{ card: '5555 5555 5555 4444', name: ' ' }, 400, BILLING_MESSAGES.nameOnCardMissing],
      [{ card: '4000 0000 0000 0002' }, 402, 'Your card was declined.'],
    ];
    for (const [fields, status, message] of refusals) {
      const refused = await post(fields);
      expect([refused.statusCode, refused.body.includes(message)]).toEqual([status, true]);
    }
    expect((await mySubscription(token))?.card?.last4).toBe('4242');

    const saved = await post({ card: '5555 5555 5555 4444' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toMatch(/\/subscription$/);
    expect((await mySubscription(token))?.card).toEqual({
      brand: 'mastercard',
      last4: '4444',
      exp_month: 8,
      exp_year: 2031,
    });
    expect(await paidInvoices()).toBe(0);

    // A made-up page is not found; an expired one says so and takes nothing.
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: `/api/stripe/test-billing/bps_test_${'0'.repeat(32)}`,
    });
    expect([unknown.statusCode, unknown.body.includes(BILLING_MESSAGES.cardPageUnknown)]).toEqual([
      404,
      true,
    ]);
    const sessionId = url.split('/').pop() ?? '';
    const [row] = await ctx.database.db
      .select()
      .from(testBillingObjects)
      .where(eq(testBillingObjects.id, sessionId));
    await ctx.database.db
      .update(testBillingObjects)
      .set({ object: { ...row?.object, expires_at: 1 } })
      .where(eq(testBillingObjects.id, sessionId));
    const expired = await post({ card: '4242 4242 4242 4242' });
    expect([expired.statusCode, expired.body.includes(BILLING_MESSAGES.cardPageExpired)]).toEqual([
      409,
      true,
    ]);
    expect((await mySubscription(token))?.card?.last4).toBe('4444');
  });
});
