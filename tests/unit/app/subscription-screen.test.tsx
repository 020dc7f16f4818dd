// The Subscription screen's Plans tab on the device's tables: every combination of the plan card rules
// (src/server/services/billing/README.md) as rendered, the card's contents, and what each button asks of the
// server and what follows (checkout, toast, the saved plan). The Manage tab and offline are in
// subscription-manage.test.tsx.

import { describe, expect, it, vi } from 'vitest';
import { fireEvent, waitFor } from '@testing-library/react';
import { BILLING_MESSAGES } from '../../../src/domain/billing';
import type * as Billing from '../../../src/local/billing';
import {
  allCards,
  billingHarness,
  card,
  openScreen,
  shown,
  subscription,
  trialing,
  USER,
} from './subscription-harness';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const checkout = vi.hoisted(() => vi.fn());
vi.mock('../../../src/local/billing', async (original) => ({
  ...(await original<typeof Billing>()),
  goToCheckout: checkout,
}));
const { SubscriptionPage } = await import('../../../src/app/features/subscription/subscription-page');

const harness = billingHarness(() => {
  toasts.success.mockReset();
  toasts.error.mockReset();
  checkout.mockReset();
});
const open = (saved: Parameters<typeof openScreen>[2]) => openScreen(harness, SubscriptionPage, saved);

describe('plan cards', () => {
  it('show name, description, price or Free, and the trial', async () => {
    await open(subscription());
    expect(card('free').getByRole('heading', { name: 'Free' })).toBeTruthy();
    expect(card('free').getByText('The essentials for one person.')).toBeTruthy();
    expect(card('free').getAllByText('Free')).toHaveLength(2); // the name and the price
    expect(card('free').queryByText(/free trial/)).toBeNull();
    expect(card('plus-monthly').getByText('$6.99 / month')).toBeTruthy();
    expect(card('plus-monthly').getByText('14-day free trial')).toBeTruthy();
    expect(card('plus-yearly').getByText('$69.90 / year')).toBeTruthy();
  });

  it('no subscription: Subscribe on every card, no Current Plan', async () => {
    await open(null);
    expect(allCards()).toEqual({
      free: ['Subscribe'],
      'plus-monthly': ['Subscribe'],
      'plus-yearly': ['Subscribe'],
    });
  });

  it('active monthly, not set to cancel: Current Plan on its card, Upgrade on yearly cards only', async () => {
    await open(subscription());
    expect(allCards()).toEqual({ free: ['Current Plan'], 'plus-monthly': [], 'plus-yearly': ['Upgrade'] });
  });

  it('active monthly set to cancel at the period end: Resume Plan on the current card, no Upgrade', async () => {
    await open(
      subscription({
        plan_id: 'plus-monthly',
        plan_name: 'Family Plus',
        price: 6.99,
        cancel_at_period_end: true,
      }),
    );
    expect(allCards()).toEqual({
      free: [],
      'plus-monthly': ['Current Plan', 'Resume Plan'],
      'plus-yearly': [],
    });
  });

  it('trialing: Current Plan with Trialing until the trial end, and no Upgrade (not active)', async () => {
    await open(trialing());
    expect(allCards()).toEqual({
      free: [],
      'plus-monthly': ['Current Plan', 'Trialing until Tue, Dec 08, 2026'],
      'plus-yearly': [],
    });
  });

  it('active yearly: Current Plan and nothing to upgrade to', async () => {
    await open(subscription({ plan_id: 'plus-yearly', plan_name: 'Family Plus Yearly', interval: 'year' }));
    expect(allCards()).toEqual({ free: [], 'plus-monthly': [], 'plus-yearly': ['Current Plan'] });
  });

  it('canceled: no Current Plan, Renew on every card', async () => {
    await open(subscription({ subscription_status: 'canceled' }));
    expect(allCards()).toEqual({ free: ['Renew'], 'plus-monthly': ['Renew'], 'plus-yearly': ['Renew'] });
  });

  it('past due: Current Plan only (no Upgrade: not active)', async () => {
    await open(subscription({ subscription_status: 'past_due' }));
    expect(allCards()).toEqual({ free: ['Current Plan'], 'plus-monthly': [], 'plus-yearly': [] });
  });
});

describe('card actions', () => {
  it('Upgrade that needs payment goes to the checkout the server answers, plan unchanged until paid', async () => {
    await open(subscription());
    harness.route = () => ({
      status: 200,
      data: { checkout_url: '/api/stripe/test-checkout/cs_test_9', subscription: null },
    });
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('/api/stripe/test-checkout/cs_test_9'));
    expect(harness.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/stripe/subscription/cus_abc/upgrade',
      body: { planId: 'plus-yearly' },
    });
    expect(shown('free')).toEqual(['Current Plan']);
    expect(toasts.success).not.toHaveBeenCalled();
  });

  it('Upgrade that took effect says so and the cards follow', async () => {
    await open(subscription());
    const upgraded = subscription({
      plan_id: 'plus-yearly',
      plan_name: 'Family Plus Yearly',
      interval: 'year',
    });
    harness.route = () => ({ status: 200, data: { checkout_url: null, subscription: upgraded } });
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(shown('plus-yearly')).toEqual(['Current Plan']));
    expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.upgraded);
    expect(checkout).not.toHaveBeenCalled();
  });

  it('a refused upgrade says the server’s words, or the store default, and fetches the subscription again', async () => {
    await open(subscription());
    harness.route = (call) =>
      call.url.endsWith('/upgrade')
        ? { status: 409, data: { message: BILLING_MESSAGES.upgradeNotAllowed } }
        : { status: 200, data: { data: harness.held } };
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.upgradeNotAllowed));
    await waitFor(() => expect(harness.calls.at(-1)?.url).toBe('/stripe/subscription'));
    harness.route = (call) =>
      call.url.endsWith('/upgrade')
        ? { status: 500, data: {} }
        : { status: 200, data: { data: harness.held } };
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.upgradeFailed));
  });

  it('Resume Plan is only logged: nothing is sent', async () => {
    await open(subscription({ plan_id: 'plus-monthly', cancel_at_period_end: true }));
    const log = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const before = harness.calls.length;
    fireEvent.click(card('plus-monthly').getByRole('button', { name: 'Resume Plan' }));
    expect(log).toHaveBeenCalledTimes(1);
    expect(harness.calls.length).toBe(before);
  });

  it('Renew on a paid plan goes to checkout; on the free plan it is back at once', async () => {
    await open(subscription({ subscription_status: 'canceled' }));
    harness.route = () => ({
      status: 200,
      data: { checkout_url: 'https://checkout.example/cs_1', subscription: null },
    });
    fireEvent.click(card('plus-monthly').getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    expect(harness.calls.at(-1)).toMatchObject({
      url: '/stripe/subscription/renew',
      body: { customerId: 'cus_abc', planId: 'plus-monthly' },
    });
  });

  it('Renew of the free plan takes effect at once', async () => {
    await open(subscription({ subscription_status: 'canceled' }));
    harness.route = () => ({ status: 200, data: { checkout_url: null, subscription: subscription() } });
    fireEvent.click(card('free').getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(shown('free')).toEqual(['Current Plan']));
    expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.renewed);
  });

  it('Subscribe names the person and follows the checkout', async () => {
    await open(null);
    harness.route = () => ({
      status: 200,
      data: { checkout_url: '/api/stripe/test-checkout/cs_test_2', subscription: null },
    });
    fireEvent.click(card('plus-monthly').getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('/api/stripe/test-checkout/cs_test_2'));
    expect(harness.calls.at(-1)).toMatchObject({
      url: '/stripe/subscribe',
      body: { planId: 'plus-monthly', userId: USER },
    });
    // While the page leaves, the buttons wait.
    expect(card('plus-monthly').getByRole('button', { name: 'Loading...' })).toHaveProperty('disabled', true);
  });
});
