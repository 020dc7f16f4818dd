import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deriveKey } from '../services/signing';
import { createBilling, type Billing } from '../services/billing/billing';
import type { PaymentProvider } from '../services/billing/provider';
import { createTestProvider, type TestProvider } from '../services/billing/test-provider';

// The payment provider and the billing service on the app (app.billing): Stripe when STRIPE_SECRET_KEY
// is set, else the built-in test-mode checkout, whose events are signed with a key derived from the
// server's secret and handed straight to the same webhook handler as Stripe's.

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
    /** The built-in test-mode provider, when it is the one in use (its checkout page needs it). */
    testBilling: TestProvider | null;
  }
}

export const billingPlugin = fp(async (app: FastifyInstance) => {
  // The test provider hands its events to the billing service, which is made after it.
  const made: { billing?: Billing } = {};
  let testProvider: TestProvider | null = null;
  let provider: PaymentProvider;
  const stripe = app.config.stripe;
  if (stripe) {
    const { createStripeProvider } = await import('../services/billing/stripe-provider');
    const { rememberStripePrice } = await import('../services/billing/plans');
    provider = createStripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiUrl: stripe.apiUrl,
      onPriceFound: (planId, priceId) => rememberStripePrice(app.db, planId, priceId),
    });
  } else {
    testProvider = createTestProvider({
      db: app.db,
      publicUrl: app.config.publicUrl,
      webhookSecret: `whsec_${deriveKey(app.config.jwtSecret, 'test-billing-webhooks').toString('base64url')}`,
      deliver: async (payload, signature) => {
        await made.billing?.handleWebhook(payload, signature);
      },
    });
    provider = testProvider;
  }
  const billing = createBilling({ db: app.db, provider, publicUrl: app.config.publicUrl, log: app.log });
  made.billing = billing;
  app.decorate('billing', billing);
  app.decorate('testBilling', testProvider);
});
