import { fill, type ApiRoute } from './api-route-types';

// The route table's lines for plans and subscriptions (see api-routes.ts, which assembles the table).
// The owner is on the Free plan in the cases of 'owner-subscription' routes; another patient naming the
// owner's customer id learns nothing (404), caregivers have no subscription (403).

const changes = { isolation: 'case' } as const;

export const billingRoutes: readonly ApiRoute[] = [
  { method: 'GET', path: '/api/stripe/plans', access: 'public', target: 'none', request: {}, allowed: 200 },
  {
    method: 'GET',
    path: '/api/stripe/subscription',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscription/:customerId/upgrade',
    access: 'patient-only',
    target: 'owner-subscription',
    // From Free, moving to a yearly plan goes through checkout: the owner gets its address.
    request: { params: { customerId: fill('target-id') }, body: { planId: 'plus-yearly' } },
    allowed: 200,
    ...changes,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscription/:customerId/change',
    access: 'patient-only',
    target: 'owner-subscription',
    // From Free, a paid plan goes through checkout: the owner gets its address.
    request: { params: { customerId: fill('target-id') }, body: { planId: 'plus-monthly' } },
    allowed: 200,
    ...changes,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscription/:customerId/resume',
    access: 'patient-only',
    target: 'owner-subscription',
    // The owner's Free plan is not set to end: nothing to resume (409). Anyone else learns nothing (404).
    request: { params: { customerId: fill('target-id') } },
    allowed: 409,
    ...changes,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscription/:customerId/card',
    access: 'patient-only',
    target: 'owner-subscription',
    // The owner's Free plan has no card to change (409). Anyone else learns nothing (404).
    request: { params: { customerId: fill('target-id') } },
    allowed: 409,
    ...changes,
  },
  {
    method: 'DELETE',
    path: '/api/stripe/subscription/:customerId',
    access: 'patient-only',
    target: 'owner-subscription',
    request: { params: { customerId: fill('target-id') } },
    allowed: 200,
    ...changes,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscription/renew',
    access: 'patient-only',
    target: 'owner-subscription',
    // The owner's Free plan is active: nothing to renew (409). Anyone else learns nothing of it (404).
    request: { body: { customerId: fill('target-id'), planId: 'free' } },
    allowed: 409,
    ...changes,
  },
  {
    method: 'POST',
    path: '/api/stripe/subscribe',
    access: 'patient-only',
    target: 'owner-account',
    // Another patient may not choose a plan for the owner (403); without a token or a subscribe token, 401.
    request: { body: { planId: 'free', userId: fill('owner-user-id') } },
    allowed: 200,
    refused: 403,
    ...changes,
  },
  // The provider's webhook: anyone may call it, and only a signature makes it listen (400 without).
  {
    method: 'POST',
    path: '/api/stripe/webhook',
    access: 'public',
    target: 'none',
    request: { body: {} },
    allowed: 400,
  },
  // The test-mode checkout and card pages: their address is the capability; a made-up one is not found.
  ...(['GET', 'POST'] as const).map((method): ApiRoute => ({
    method,
    path: '/api/stripe/test-checkout/:sessionId',
    access: 'public',
    target: 'none',
    request: { params: { sessionId: `cs_test_${'0'.repeat(32)}` } },
    allowed: 404,
  })),
  ...(['GET', 'POST'] as const).map((method): ApiRoute => ({
    method,
    path: '/api/stripe/test-billing/:sessionId',
    access: 'public',
    target: 'none',
    request: { params: { sessionId: `bps_test_${'0'.repeat(32)}` } },
    allowed: 404,
  })),
];
