import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BILLING_MESSAGES,
  billingPageResponseSchema,
  changeBodySchema,
  checkoutResponseSchema,
  customerIdSchema,
  plansResponseSchema,
  renewBodySchema,
  subscribeBodySchema,
  subscriptionResponseSchema,
  subscriptionSchema,
  upgradeBodySchema,
} from '../../domain/billing';
import { errorBodySchema } from '../../domain/errors';
import { users } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { requirePatient } from '../services/access';
import { offeredPlans, planAnswer } from '../services/billing/plans';
import { isSubscribeTokenOf } from '../services/billing/subscribe-tokens';
import { WebhookBodyError, WebhookSignatureError } from '../services/billing/webhook-signature';
import { signedIn } from './auth-common';
import { testCheckoutRoutes } from './test-checkout';

// Subscriptions (services/billing/README.md): plans, the patient's subscription and its changes, the sign-up
// choice of a plan before the first sign-in, and the payment provider's webhook.

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const providerErrors = { 409: errorBodySchema, 503: errorBodySchema };
const tags = ['subscriptions'];
const customerParams = z.object({ customerId: customerIdSchema });

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/plans',
    { schema: { tags, summary: 'The plans offered (public).', response: { 200: plansResponseSchema } } },
    async () => ({ data: (await offeredPlans(app.db)).map(planAnswer) }),
  );

  app.get(
    '/subscription',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The signed-in patient's subscription, or null.",
        ...signedIn,
        response: { 200: subscriptionResponseSchema, ...errors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return { data: await app.billing.subscriptionOf(request.auth.userId) };
    },
  );

  app.post(
    '/subscription/:customerId/upgrade',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Moves an active monthly subscription to a yearly plan (from Free: through checkout).',
        ...signedIn,
        params: customerParams,
        body: upgradeBodySchema,
        response: { 200: checkoutResponseSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return app.billing.upgrade(request.auth.userId, request.params.customerId, request.body.planId);
    },
  );

  app.post(
    '/subscription/:customerId/change',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          'Moves the subscription to the plan chosen: paid to paid at once, to Free at the period end, from Free through checkout.',
        ...signedIn,
        params: customerParams,
        body: changeBodySchema,
        response: { 200: checkoutResponseSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return app.billing.change(request.auth.userId, request.params.customerId, request.body.planId);
    },
  );

  app.post(
    '/subscription/:customerId/resume',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Undoes a cancel set for the end of the period (Resume Plan).',
        ...signedIn,
        params: customerParams,
        response: { 200: z.object({ data: subscriptionSchema }), ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return { data: await app.billing.resume(request.auth.userId, request.params.customerId) };
    },
  );

  app.post(
    '/subscription/:customerId/card',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          "The payment provider's page where the patient changes their card (Stripe's customer portal).",
        ...signedIn,
        params: customerParams,
        response: { 200: billingPageResponseSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return app.billing.billingPage(request.auth.userId, request.params.customerId);
    },
  );

  app.delete(
    '/subscription/:customerId',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          'Cancels: a paid plan or a trial at the end of its period (resumable until then), Free at once.',
        ...signedIn,
        params: customerParams,
        response: { 200: z.object({ data: subscriptionSchema }), ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      return { data: await app.billing.cancel(request.auth.userId, request.params.customerId) };
    },
  );

  app.post(
    '/subscription/renew',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Starts a canceled subscription again (with the card on file, else through checkout).',
        ...signedIn,
        body: renewBodySchema,
        response: { 200: checkoutResponseSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => {
      requirePatient(request.auth);
      const { customerId, planId } = request.body;
      return app.billing.renew(request.auth.userId, customerId, planId);
    },
  );

  app.post(
    '/subscribe',
    {
      schema: {
        tags,
        summary:
          'Chooses a plan: free at once, paid through checkout. Signed in, or with the subscribeToken of the login 403.',
        body: subscribeBodySchema,
        response: { 200: checkoutResponseSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => {
      const { planId, userId, subscribeToken } = request.body;
      await requireSubscriber(request, userId, subscribeToken);
      return app.billing.subscribe(userId, planId);
    },
  );

  /** The person choosing: signed in as `userId`, or holding that person's subscribe token; a patient. */
  async function requireSubscriber(request: FastifyRequest, userId: string, token: string | undefined) {
    if (request.headers.authorization) {
      await app.authenticate(request);
      requirePatient(request.auth);
      if (request.auth.userId !== userId) throw new HttpError(403, BILLING_MESSAGES.customerUnknown);
      return;
    }
    if (!token || !isSubscribeTokenOf(app.config.jwtSecret, token, userId))
      throw new HttpError(401, BILLING_MESSAGES.subscribeLinkExpired);
    const [user] = await app.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    if (user?.role !== 'Patient') throw new HttpError(401, BILLING_MESSAGES.subscribeLinkExpired);
  }

  await app.register(async (webhook) => {
    // The signature covers the exact bytes sent: the body is kept raw, never parsed and re-serialized.
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/webhook',
      {
        schema: {
          tags,
          summary: "The payment provider's events (Stripe-signed); each is handled once.",
          response: {
            200: z.object({ received: z.literal(true) }),
            400: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw new HttpError(400, BILLING_MESSAGES.webhookBody);
        const signature = request.headers['stripe-signature'];
        try {
          await app.billing.handleWebhook(
            request.body,
            typeof signature === 'string' ? signature : undefined,
          );
        } catch (error) {
          if (error instanceof WebhookSignatureError) {
            request.log.warn('a webhook whose signature could not be verified was refused');
            throw new HttpError(400, BILLING_MESSAGES.webhookSignature);
          }
          if (error instanceof WebhookBodyError) throw new HttpError(400, BILLING_MESSAGES.webhookBody);
          throw error;
        }
        return { received: true as const };
      },
    );
  });

  if (app.testBilling) await app.register(testCheckoutRoutes, { provider: app.testBilling });
};
