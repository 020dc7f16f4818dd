// What the Subscription screen's tests share (subscription-screen.test.tsx, subscription-manage.test.tsx):
// the seeded plans and subscriptions, a signed-in patient's replica, a fake server answering the screen's
// fetches with what it "holds", and readers of what each plan card shows.

import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { BILLING_MESSAGES, type Plan, type Subscription } from '../../../src/domain/billing';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { clearSession, storeSession } from '../../../src/local/session';
import { fakeServer, tokenFor, type Answer, type Call } from '../local/support';
import { FREE, MONTHLY, PLANS, subscription, YEARLY } from '../fixtures/billing';

export { FREE, MONTHLY, PLANS, subscription, YEARLY };

export const USER = '5a1c1a52-7d55-4c0e-9d43-0b6f1f0f0a01';

export const trialing = () =>
  subscription({
    plan_id: 'plus-monthly',
    plan_name: 'Family Plus',
    price: 6.99,
    subscription_status: 'trialing',
    trial_end: '2026-12-08T12:00:00.000Z',
  });

/** An active Family Plus (monthly) subscription, with `fields` changed. */
export const monthly = (fields: Partial<Subscription> = {}) =>
  subscription({ plan_id: 'plus-monthly', plan_name: 'Family Plus', price: 6.99, ...fields });

export type Harness = {
  db: KincareDb;
  calls: Call[];
  route: (call: Call) => Answer;
  /** What the server holds (answered to the screen's fetch when it opens). */
  held: Subscription | null;
  online: boolean;
};

/** Sets up the hooks of a test file; `reset` clears that file's own mocks before each test. */
export function billingHarness(reset: () => void): Harness {
  const harness = { calls: [], held: null, online: true } as unknown as Harness;
  beforeAll(async () => {
    await storeSession(tokenFor(USER), 'Patient');
    harness.db = await openUserDb(USER);
  });
  afterAll(async () => {
    await clearSession();
  });
  beforeEach(async () => {
    harness.online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => harness.online);
    harness.held = null;
    harness.route = (call) => {
      if (call.url === '/stripe/plans') return { status: 200, data: { data: PLANS } };
      if (call.url === '/stripe/subscription') return { status: 200, data: { data: harness.held } };
      return { status: 500 };
    };
    const server = fakeServer((call) => harness.route(call));
    harness.calls = server.calls;
    http.defaults.adapter = server.adapter;
    await harness.db.billing.clear();
    reset();
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
  return harness;
}

export async function saveOnDevice(harness: Harness, saved: Subscription | null) {
  await harness.db.billing.bulkPut([
    { key: 'plans', plans: PLANS, saved_at: '2026-11-20T09:00:00.000Z' },
    { key: 'subscription', subscription: saved, saved_at: '2026-11-20T09:00:00.000Z' },
  ]);
}

/** The device has `saved`, and the server says the same: the screen opens and has fetched both. */
export async function openScreen(harness: Harness, Page: ComponentType, saved: Subscription | null) {
  harness.held = saved;
  await saveOnDevice(harness, saved);
  harness.calls.length = 0;
  render(<Page />);
  await screen.findByRole('heading', { level: 1, name: 'Subscription Plans' });
  await screen.findByTestId('plan-free');
  await waitFor(() =>
    expect(harness.calls.map((call) => call.url).sort()).toEqual(['/stripe/plans', '/stripe/subscription']),
  );
}

export const card = (id: string) => within(screen.getByTestId(`plan-${id}`));
/** The buttons and badge a card shows, in words. */
export const shown = (id: string) => {
  const words = card(id)
    .queryAllByRole('button')
    .map((button) => button.textContent);
  if (card(id).queryByText(BILLING_MESSAGES.currentPlan)) words.unshift('Current Plan');
  const trial = card(id).queryByText(/^Trialing until /);
  if (trial) words.push(trial.textContent ?? '');
  const starts = card(id).queryByText(/^Starts on /);
  if (starts) words.push(starts.textContent ?? '');
  return words;
};
export const allCards = () => Object.fromEntries(PLANS.map((plan: Plan) => [plan.id, shown(plan.id)]));
