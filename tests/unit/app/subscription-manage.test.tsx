// The Subscription screen's Manage tab and its offline behaviour: Plan, Amount, Status with the
// colours of src/server/services/billing/README.md (active teal, trialing yellow, anything else red), the
// dates, the card on file with Update card, Cancel while the subscription runs (a trial too) behind a
// confirmation that says what happens and when, Resume Plan once set to end, the store defaults when a fetch fails
// online, and offline: the saved plan shows and every change says it needs a connection without trying.
// Also the error toasts that offer the Subscription page when a plan's limit is reached.

import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { BILLING_MESSAGES, planLimitMessage } from '../../../src/domain/billing';
import type * as Billing from '../../../src/local/billing';
import {
  billingHarness,
  card,
  monthly,
  openScreen,
  saveOnDevice,
  shown,
  subscription,
  trialing,
} from './subscription-harness';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const checkout = vi.hoisted(() => vi.fn());
vi.mock('../../../src/local/billing', async (original) => ({
  ...(await original<typeof Billing>()),
  goToCheckout: checkout,
}));
const { SubscriptionPage } = await import('../../../src/app/features/subscription/subscription-page');
const { showErrorToasts } = await import('../../../src/app/shell/error-toasts');

const harness = billingHarness(() => {
  toasts.success.mockReset();
  toasts.error.mockReset();
  checkout.mockReset();
});
const open = (saved: Parameters<typeof openScreen>[2]) => openScreen(harness, SubscriptionPage, saved);

describe('Manage Subscription', () => {
  const manage = async () => {
    fireEvent.click(screen.getByRole('tab', { name: 'Manage Subscription' }));
    await screen.findByRole('heading', { level: 1, name: 'Manage Subscription' });
  };
  const value = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;

  it('shows Plan, Amount, Status in teal, the dates, and Cancel for an active subscription', async () => {
    await open(subscription({ plan_id: 'plus-monthly', plan_name: 'Family Plus', price: 6.99 }));
    await manage();
    expect(value('Plan')?.textContent).toBe('Family Plus');
    expect(value('Amount')?.textContent).toBe('$6.99 / month');
    expect(value('Status')?.textContent).toBe('Active');
    expect(value('Status')?.querySelector('span')?.className).toContain('bg-primary-soft');
    expect(value('Start Date')?.textContent).toBe('Sun, Nov 01, 2026');
    expect(value('Renewal Date')?.textContent).toBe('Tue, Dec 01, 2026');
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
  });

  it('trialing is yellow and can be canceled; canceled is red and cannot', async () => {
    await open(trialing());
    await manage();
    expect(value('Status')?.textContent).toBe('Trialing');
    expect(value('Status')?.querySelector('span')?.className).toContain('bg-warning-soft');
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
    cleanup();
    await open(subscription({ subscription_status: 'canceled' }));
    await manage();
    expect(value('Status')?.textContent).toBe('Canceled');
    expect(value('Status')?.querySelector('span')?.className).toContain('bg-danger-soft');
    expect(value('Renewal Date')?.textContent).toBe('Does not renew');
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('cancelling a trial says when it ends and that nothing will be charged; then Resume Plan undoes it', async () => {
    await open(trialing());
    await manage();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(
      within(dialog).getByText('Your free trial ends on Tue, Dec 08, 2026; you keep Family Plus until then.'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Nothing will be charged.')).toBeTruthy();
    expect(within(dialog).queryByText(BILLING_MESSAGES.confirmCancel)).toBeNull();
    const ending = { ...trialing(), cancel_at_period_end: true };
    harness.route = () => ({ status: 200, data: { data: ending } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.canceled));
    expect(harness.calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/stripe/subscription/cus_abc' });
    expect((await screen.findByTestId('subscription-ending')).textContent).toBe(
      'Canceled: your free trial ends on Tue, Dec 08, 2026 and nothing will be charged.',
    );
    expect(value('Renewal Date')?.textContent).toBe('Does not renew (ends Tue, Dec 01, 2026)');
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();

    harness.route = () => ({ status: 200, data: { data: trialing() } });
    fireEvent.click(screen.getByRole('button', { name: 'Resume Plan' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.resumed));
    await waitFor(() => expect(screen.queryByTestId('subscription-ending')).toBeNull());
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
  });

  it('a paid plan moving to Free says so, and when, rather than that it was canceled', async () => {
    await open(monthly({ cancel_at_period_end: true, next_plan_id: 'free' }));
    await manage();
    expect(screen.getByTestId('subscription-ending').textContent).toBe(
      'Moving to Free: Family Plus ends on Tue, Dec 01, 2026 and nothing more will be charged.',
    );
    expect(screen.getByRole('button', { name: 'Resume Plan' })).toBeTruthy();
  });

  it('cancelling a paid plan says it ends with the paid period and can be undone', async () => {
    await open(monthly());
    await manage();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(
      within(dialog).getByText(
        'Family Plus ends on Tue, Dec 01, 2026, the end of the period you paid for; you keep it until then.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('Nothing more will be charged.')).toBeTruthy();
    expect(within(dialog).getByText('Until then you can undo this with Resume Plan.')).toBeTruthy();
  });

  it('shows the card on file and Update card goes to the provider’s page the server answers', async () => {
    await open(monthly({ card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } }));
    await manage();
    expect(value('Card')?.textContent).toBe('Visa •••• 4242, expires 12/34');
    harness.route = () => ({ status: 200, data: { url: '/api/stripe/test-billing/bps_test_1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update card' }));
    await waitFor(() => expect(checkout).toHaveBeenCalledWith('/api/stripe/test-billing/bps_test_1'));
    expect(harness.calls.at(-1)).toMatchObject({ method: 'POST', url: '/stripe/subscription/cus_abc/card' });
    cleanup();
    // Free has no card to update.
    await open(subscription());
    await manage();
    expect(screen.queryByText('Card', { selector: 'dt' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update card' })).toBeNull();
  });

  it('without a subscription says so', async () => {
    await open(null);
    await manage();
    expect(screen.getByText(BILLING_MESSAGES.noSubscription)).toBeTruthy();
  });

  it('Cancel asks first; Keep changes nothing; confirming cancels, says so, and the cards offer Renew', async () => {
    await open(subscription());
    await manage();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(within(dialog).getByText(BILLING_MESSAGES.confirmCancel)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(harness.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    harness.route = () => ({
      status: 200,
      data: { data: subscription({ subscription_status: 'canceled' }) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith(BILLING_MESSAGES.canceled));
    expect(harness.calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/stripe/subscription/cus_abc' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull());
    fireEvent.click(screen.getByRole('tab', { name: 'Plans' }));
    await waitFor(() => expect(shown('free')).toEqual(['Renew']));
  });

  it('a failed cancel says the store default and keeps the subscription', async () => {
    await open(subscription());
    await manage();
    harness.route = (call) =>
      call.method === 'DELETE' ? { status: 500, data: {} } : { status: 200, data: { data: harness.held } };
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.cancelFailed));
    expect(value('Status')?.textContent).toBe('Active');
  });
});

describe('fetching and offline', () => {
  it('a failed fetch online says the store defaults', async () => {
    harness.route = () => ({ status: 500, data: {} });
    render(<SubscriptionPage />);
    await waitFor(() =>
      expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.fetchPlansFailed, expect.anything()),
    );
    expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.fetchSubscriptionFailed, expect.anything());
  });

  it('offline: the saved plan shows, nothing is fetched or toasted, and a change says it needs a connection', async () => {
    harness.online = false;
    await saveOnDevice(harness, subscription());
    render(<SubscriptionPage />);
    await screen.findByTestId('plan-free');
    expect(shown('free')).toEqual(['Current Plan']);
    expect(screen.getByRole('status').textContent).toContain(BILLING_MESSAGES.needsConnection);
    fireEvent.click(card('plus-yearly').getByRole('button', { name: 'Upgrade' }));
    expect(toasts.error).toHaveBeenCalledWith(BILLING_MESSAGES.needsConnection, expect.anything());
    expect(harness.calls).toEqual([]);
    expect(checkout).not.toHaveBeenCalled();
  });

  it('offline with nothing saved says the plans show once the device has been online', async () => {
    harness.online = false;
    render(<SubscriptionPage />);
    expect(await screen.findByText('The plans show here once this device has been online.')).toBeTruthy();
    expect(toasts.error).not.toHaveBeenCalled();
  });
});

describe('error toasts', () => {
  it('offer the Subscription page when a plan’s limit is reached, and stay the standard toast otherwise', () => {
    const limit = planLimitMessage('caregivers', 'Free', 1);
    showErrorToasts([limit, 'Something went wrong']);
    expect(toasts.error).toHaveBeenCalledWith('Something went wrong', { id: 'Something went wrong' });
    const [content, options] = toasts.error.mock.calls[0] as [unknown, unknown];
    expect(options).toMatchObject({ id: limit });
    render(<>{content}</>);
    expect(screen.getByText(limit, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Subscription' }).getAttribute('href')).toBe(
      '/subscription',
    );
  });
});
