// The subscription modal the login opens (src/server/services/billing/README.md): it lists the plans with the
// one of a corporate sign-up already chosen, subscribes with the login's subscribe token and no one's bearer
// token, and then either signs in (a free plan, at once) or goes to the checkout (a paid one).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { BILLING_MESSAGES, type Plan, type SubscriptionRequiredBody } from '../../../src/domain/billing';
import type * as Billing from '../../../src/local/billing';
import { http } from '../../../src/local/http';
import { fakeServer, storedAnywhere, type Answer, type Call } from '../local/support';
import { subscription } from '../fixtures/billing';

const checkout = vi.hoisted(() => vi.fn());
vi.mock('../../../src/local/billing', async (original) => ({
  ...(await original<typeof Billing>()),
  goToCheckout: checkout,
}));
const { SubscriptionModal } = await import('../../../src/app/features/auth/subscription-modal');

const USER = '9c1c1a52-7d55-4c0e-9d43-0b6f1f0f0a01';
const plan = (id: string, name: string, price: number, trial = 0): Plan => ({
  id,
  name,
  description: `${name} plan.`,
  price,
  currency: 'usd',
  interval: 'month',
  trial_period_days: trial,
  limits: { caregivers: null, labExtractionsPerMonth: null },
});
const PLANS = [plan('free', 'Free', 0), plan('plus-monthly', 'Family Plus', 6.99, 14)];
const required = (planId: string | null): SubscriptionRequiredBody => ({
  message: BILLING_MESSAGES.subscriptionRequired,
  code: 'SUBSCRIPTION_REQUIRED',
  userId: USER,
  subscribeToken: 'subscribe-token-1',
  planId,
});
// A Free plan as it is when chosen: no billing period.
const SUBSCRIPTION = subscription({ customer_id: 'cus_1', current_period_end: null });

let calls: Call[];
let route: (call: Call) => Answer;
const onSubscribed = vi.fn(async () => undefined);
const onClose = vi.fn();

beforeEach(() => {
  route = (call) =>
    call.url === '/stripe/plans' ? { status: 200, data: { data: PLANS } } : { status: 500, data: {} };
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  checkout.mockReset();
  onSubscribed.mockClear();
  onClose.mockClear();
});
afterEach(cleanup);

async function open(planId: string | null) {
  render(<SubscriptionModal required={required(planId)} onSubscribed={onSubscribed} onClose={onClose} />);
  const dialog = await screen.findByRole('dialog', { name: 'Choose a plan' });
  await within(dialog).findByRole('radio', { name: 'Free' });
  return within(dialog);
}

describe('SubscriptionModal', () => {
  it('lists the plans with price and trial, the first chosen when the sign-up named none', async () => {
    const dialog = await open(null);
    expect(dialog.getByText(BILLING_MESSAGES.subscriptionRequired)).toBeTruthy();
    expect(dialog.getByRole('radio', { name: 'Free' })).toHaveProperty('checked', true);
    const plus = dialog.getByRole('radio', { name: 'Family Plus' });
    expect(plus).toHaveProperty('checked', false);
    expect(plus.getAttribute('aria-describedby')).toBeTruthy();
    expect(dialog.getByText(/\$6\.99 \/ month · 14-day free trial/)).toBeTruthy();
  });

  it('a free plan starts with the subscribe token, no bearer, then the sign-in goes on', async () => {
    const dialog = await open(null);
    route = () => ({ status: 200, data: { checkout_url: null, subscription: SUBSCRIPTION } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onSubscribed).toHaveBeenCalledTimes(1));
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      url: '/stripe/subscribe',
      authorization: null,
      body: { planId: 'free', userId: USER, subscribeToken: 'subscribe-token-1' },
    });
    expect(checkout).not.toHaveBeenCalled();
    expect(await storedAnywhere('subscribe-token-1')).toEqual([]);
  });

  it('its submit does not reach the sign-in form around it (React carries events up through portals)', async () => {
    const outer = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={outer}>
        <SubscriptionModal required={required(null)} onSubscribed={onSubscribed} onClose={onClose} />
      </form>,
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Choose a plan' }));
    await dialog.findByRole('radio', { name: 'Free' });
    route = () => ({ status: 200, data: { checkout_url: null, subscription: SUBSCRIPTION } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onSubscribed).toHaveBeenCalledTimes(1));
    expect(outer).not.toHaveBeenCalled();
  });

  it('the plan of a corporate sign-up is chosen already, and a paid plan goes to the checkout', async () => {
    const dialog = await open('plus-monthly');
    expect(dialog.getByRole('radio', { name: 'Family Plus' })).toHaveProperty('checked', true);
    route = () => ({
      status: 200,
      data: { checkout_url: '/api/stripe/test-checkout/cs_test_5', subscription: null },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to checkout' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('/api/stripe/test-checkout/cs_test_5'));
    expect(calls.at(-1)?.body).toMatchObject({ planId: 'plus-monthly' });
    expect(onSubscribed).not.toHaveBeenCalled();
  });

  it('a refusal shows the server’s words (an expired choice) and keeps the modal', async () => {
    const dialog = await open(null);
    fireEvent.click(dialog.getByRole('radio', { name: 'Family Plus' }));
    fireEvent.click(dialog.getByRole('radio', { name: 'Free' }));
    route = () => ({ status: 401, data: { message: BILLING_MESSAGES.subscribeLinkExpired } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(BILLING_MESSAGES.subscribeLinkExpired);
    expect(onSubscribed).not.toHaveBeenCalled();
  });

  it('plans that cannot be fetched say so and can be asked for again; Not now closes', async () => {
    route = () => ({ status: 503, data: {} });
    render(<SubscriptionModal required={required(null)} onSubscribed={onSubscribed} onClose={onClose} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Choose a plan' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(BILLING_MESSAGES.fetchPlansFailed);
    route = (call) =>
      call.url === '/stripe/plans' ? { status: 200, data: { data: PLANS } } : { status: 500, data: {} };
    fireEvent.click(dialog.getByRole('button', { name: 'Try again' }));
    await dialog.findByRole('radio', { name: 'Free' });
    fireEvent.click(dialog.getByRole('button', { name: 'Not now' }));
    expect(onClose).toHaveBeenCalled();
  });
});
