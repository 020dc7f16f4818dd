// The Subscription screen's Plans tab on the device's tables: every combination of the plan card rules
// (src/server/services/billing/README.md) as rendered, the card's contents, what a change says before it is
// confirmed, and what each button asks of the server and what follows (checkout, toast, the saved plan). The Manage tab and offline are in
// subscription-manage.test.tsx.

import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BILLING_MESSAGES } from '../../../src/domain/billing';
import type * as Billing from '../../../src/local/billing';
import {
  allCards,
  billingHarness,
  card,
  monthly,
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

  it('active Free: Current Plan on its card, Upgrade (through checkout) on each paid card', async () => {
    await open(subscription());
    expect(allCards()).toEqual({
      free: ['Current Plan'],
      'plus-monthly': ['Upgrade'],
      'plus-yearly': ['Upgrade'],
    });
  });

  it('active monthly, not set to cancel: Upgrade on the yearly card, Switch plan to Free', async () => {
    await open(monthly());
    expect(allCards()).toEqual({
      free: ['Switch plan'],
      'plus-monthly': ['Current Plan'],
      'plus-yearly': ['Upgrade'],
    });
  });

  it('active monthly set to cancel at the period end: Resume Plan on the current card', async () => {
    await open(monthly({ cancel_at_period_end: true }));
    expect(allCards()).toEqual({
      free: ['Switch plan'],
      'plus-monthly': ['Current Plan', 'Resume Plan'],
      'plus-yearly': ['Upgrade'],
    });
  });

  it('moving to Free at the period end: Free says when it starts, Resume Plan keeps the paid plan', async () => {
    await open(monthly({ cancel_at_period_end: true, next_plan_id: 'free' }));
    expect(allCards()).toEqual({
      free: ['Starts on Tue, Dec 01, 2026'],
      'plus-monthly': ['Current Plan', 'Resume Plan'],
      'plus-yearly': ['Upgrade'],
    });
  });

  it('trialing: Current Plan with Trialing until the trial end, and Switch plan to the others (not active)', async () => {
    await open(trialing());
    expect(allCards()).toEqual({
      free: ['Switch plan'],
      'plus-monthly': ['Current Plan', 'Trialing until Tue, Dec 08, 2026'],
      'plus-yearly': ['Switch plan'],
    });
  });

  it('active yearly: Current Plan, and Switch plan down to monthly or Free', async () => {
    await open(
      subscription({
        plan_id: 'plus-yearly',
        plan_name: 'Family Plus Yearly',
        price: 69.9,
        interval: 'year',
      }),
    );
    expect(allCards()).toEqual({
      free: ['Switch plan'],
      'plus-monthly': ['Switch plan'],
      'plus-yearly': ['Current Plan'],
    });
  });

  it('canceled: no Current Plan, Renew on every card', async () => {
    await open(subscription({ subscription_status: 'canceled' }));
    expect(allCards()).toEqual({ free: ['Renew'], 'plus-monthly': ['Renew'], 'plus-yearly': ['Renew'] });
  });

  it('past due: Current Plan, and no Upgrade (not active)', async () => {
    await open(monthly({ subscription_status: 'past_due' }));
    expect(allCards()).toEqual({
      free: ['Switch plan'],
      'plus-monthly': ['Current Plan'],
      'plus-yearly': ['Switch plan'],
    });
  });
});

describe('card actions', () => {
  const dialog = () => within(screen.getByRole('dialog'));

  it('Upgrade from Free says first that a checkout follows and the price; Keep my plan sends nothing', async () => {
    await open(subscription());
    harness.route = () => ({
      status: 200,
      data: { checkout_url: '/api/stripe/test-checkout/cs_test_9', subscription: null },
    });
    const before = harness.calls.length;
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    expect(screen.getByRole('dialog', { name: 'Upgrade to Family Plus Yearly' })).toBeTruthy();
    expect(
      dialog().getByText(
        'You go to the checkout page to give a card. Family Plus Yearly costs $69.90 / year after a 14-day free trial.',
      ),
    ).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Keep my plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(harness.calls.length).toBe(before);

    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Continue to checkout' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('/api/stripe/test-checkout/cs_test_9'));
    expect(harness.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/stripe/subscription/cus_abc/change',
      body: { planId: 'plus-yearly' },
    });
    expect(shown('free')).toEqual(['Current Plan']);
    expect(toasts.success).not.toHaveBeenCalled();
  });

  it('Upgrade of an active monthly plan says it changes now and at what price, then says so and the cards follow', async () => {
    await open(monthly());
    const upgraded = monthly({
      plan_id: 'plus-yearly',
      plan_name: 'Family Plus Yearly',
      price: 69.9,
      interval: 'year',
    });
    harness.route = () => ({ status: 200, data: { checkout_url: null, subscription: upgraded } });
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    expect(
      dialog().getByText('Changes now. Family Plus Yearly costs $69.90 / year, starting today.'),
    ).toBeTruthy();
    expect(
      dialog().getByText('What is left of your Family Plus period is credited against it.'),
    ).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(shown('plus-yearly')).toEqual(['Current Plan']));
    expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.upgraded);
    expect(checkout).not.toHaveBeenCalled();
  });

  it('Switch plan to Free says it changes at the end of the paid period, then Free says when it starts', async () => {
    await open(monthly());
    harness.route = () => ({
      status: 200,
      data: {
        checkout_url: null,
        subscription: monthly({ cancel_at_period_end: true, next_plan_id: 'free' }),
      },
    });
    fireEvent.click(card('free').getByRole('button', { name: 'Switch plan' }));
    expect(screen.getByRole('dialog', { name: 'Switch to Free' })).toBeTruthy();
    expect(
      dialog().getByText(
        'Changes at the end of the period you paid for, on Tue, Dec 01, 2026. Until then you keep Family Plus.',
      ),
    ).toBeTruthy();
    expect(
      dialog().getByText('Then you are on Free, at no cost. Nothing more will be charged.'),
    ).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(shown('free')).toEqual(['Starts on Tue, Dec 01, 2026']));
    expect(harness.calls.at(-1)).toMatchObject({
      url: '/stripe/subscription/cus_abc/change',
      body: { planId: 'free' },
    });
    expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.changed);
  });

  it('in a trial, Switch plan says the trial still ends when it did and nothing is charged before', async () => {
    await open(trialing());
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Switch plan' }));
    expect(dialog().getByText('Changes now. Your free trial still ends on Tue, Dec 08, 2026.')).toBeTruthy();
    expect(
      dialog().getByText('Then Family Plus Yearly costs $69.90 / year. Nothing is charged before then.'),
    ).toBeTruthy();
  });

  it('a refused change says the server’s words, or the store default, and fetches the subscription again', async () => {
    await open(monthly());
    harness.route = (call) =>
      call.url.endsWith('/change')
        ? { status: 409, data: { message: BILLING_MESSAGES.samePlan } }
        : { status: 200, data: { data: harness.held } };
    fireEvent.click(card('free').getByRole('button', { name: 'Switch plan' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.samePlan));
    await waitFor(() => expect(harness.calls.at(-1)?.url).toBe('/stripe/subscription'));
    harness.route = (call) =>
      call.url.endsWith('/change')
        ? { status: 500, data: {} }
        : { status: 200, data: { data: harness.held } };
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.upgradeFailed));
  });

  it('Resume Plan undoes the cancel: it asks the server, says so, and the card follows', async () => {
    await open(monthly({ cancel_at_period_end: true }));
    harness.route = () => ({ status: 200, data: { data: monthly() } });
    fireEvent.click(card('plus-monthly').getByRole('button', { name: 'Resume Plan' }));
    await waitFor(() => expect(shown('plus-monthly')).toEqual(['Current Plan']));
    expect(harness.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/stripe/subscription/cus_abc/resume',
    });
    expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.resumed);
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
