import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BILLING_MESSAGES, cardText } from '../../domain/billing';
import { users } from '../db/schema';
import {
  testBillingPage,
  testCheckoutPage,
  type BillingPageInput,
  type CheckoutPageInput,
} from '../services/billing/test-checkout-page';
import type { EnteredCard, TestProvider } from '../services/billing/test-provider';

// The built-in test-mode checkout (no STRIPE_SECRET_KEY): the hosted page a subscriber is sent to, and
// its form; and the card page (what Stripe's customer portal is for the card) where a subscriber changes
// the card on file. The session id in the address is the capability, as with Stripe's links: long,
// random, for one checkout (expiring after a day) or one visit to the card page (an hour).

const sessionParams = z.object({ sessionId: z.string().regex(/^cs_test_[a-f0-9]{32}$/) });
const billingPageParams = z.object({ sessionId: z.string().regex(/^bps_test_[a-f0-9]{32}$/) });

/** What the form sends; each field checked as a card form would, with a message next to the form. */
function checkCard(form: Record<string, string>, now: Date): { card: EnteredCard } | { error: string } {
  const cardNumber = (form.card ?? '').replace(/[\s-]/g, '');
  if (!/^\d{16}$/.test(cardNumber)) return { error: BILLING_MESSAGES.cardInvalid };
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry ?? '');
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  const endOfMonth = Date.UTC(year, month, 1);
  if (!expiry || month < 1 || month > 12 || endOfMonth <= now.getTime())
    return { error: BILLING_MESSAGES.expiryInvalid };
  if (!/^\d{3}$/.test(form.cvc ?? '')) return { error: BILLING_MESSAGES.cvcInvalid };
  return { card: { number: cardNumber, expMonth: month, expYear: year } };
}

const NAME_MAX = 100;

export const testCheckoutRoutes: FastifyPluginAsyncZod<{ provider: TestProvider }> = async (
  app,
  { provider },
) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  async function pageInput(sessionId: string): Promise<CheckoutPageInput | undefined> {
    const session = await provider.checkoutSession(sessionId);
    if (!session) return undefined;
    const [user] = await app.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, session.client_reference_id))
      .limit(1);
    const expired = session.expires_at * 1000 <= Date.now();
    return {
      sessionId,
      plan: session.plan,
      email: user?.email ?? '',
      cancelUrl: session.cancel_url,
      closed: session.status !== 'open' || expired,
      error:
        session.status === 'complete'
          ? BILLING_MESSAGES.checkoutDone
          : expired
            ? BILLING_MESSAGES.checkoutExpired
            : undefined,
    };
  }

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply.status(status).type('text/html; charset=utf-8').send(html);

  const notFound = (reply: FastifyReply) =>
    sendPage(
      reply,
      404,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout not found · Kincare</title></head><body><main><h1>Checkout not found</h1><p>${BILLING_MESSAGES.checkoutUnknown}</p><p><a href="/subscription">Back to Subscription</a></p></main></body></html>`,
    );

  app.get(
    '/test-checkout/:sessionId',
    { schema: { hide: true, params: z.object({ sessionId: z.string().max(200) }) } },
    async (request, reply) => {
      const parsed = sessionParams.safeParse(request.params);
      const input = parsed.success ? await pageInput(parsed.data.sessionId) : undefined;
      if (!input) return notFound(reply);
      return sendPage(reply, 200, testCheckoutPage(input));
    },
  );

  app.post(
    '/test-checkout/:sessionId',
    {
      schema: {
        hide: true,
        params: z.object({ sessionId: z.string().max(200) }),
        body: z.record(z.string(), z.string().max(200)).nullish(),
      },
    },
    async (request, reply) => {
      const parsed = sessionParams.safeParse(request.params);
      const input = parsed.success ? await pageInput(parsed.data.sessionId) : undefined;
      if (!input || !parsed.success) return notFound(reply);
      if (input.closed) return sendPage(reply, 409, testCheckoutPage(input));
      const form = request.body ?? {};
      const name = (form.name ?? '').trim().slice(0, NAME_MAX);
      const card = checkCard(form, new Date());
      if ('error' in card)
        return sendPage(reply, 400, testCheckoutPage({ ...input, name, error: card.error }));
      if (!name)
        return sendPage(
          reply,
          400,
          testCheckoutPage({ ...input, error: BILLING_MESSAGES.nameOnCardMissing }),
        );
      const outcome = await provider.pay(parsed.data.sessionId, card.card);
      if (!outcome.paid)
        return sendPage(reply, 402, testCheckoutPage({ ...input, name, error: outcome.message }));
      return reply.redirect(outcome.redirectTo, 303);
    },
  );

  async function billingPageInput(sessionId: string): Promise<BillingPageInput | undefined> {
    const session = await provider.billingPageSession(sessionId);
    if (!session) return undefined;
    const [user] = await app.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.stripeCustomerId, session.customer))
      .limit(1);
    const card = await provider.cardOf(session.customer);
    const expired = session.expires_at * 1000 <= Date.now();
    return {
      sessionId,
      email: user?.email ?? '',
      currentCard: card ? cardText(card) : null,
      returnUrl: session.return_url,
      closed: expired,
      ...(expired ? { error: BILLING_MESSAGES.cardPageExpired } : {}),
    };
  }

  const billingPageNotFound = (reply: FastifyReply) =>
    sendPage(
      reply,
      404,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Card page not found · Kincare</title></head><body><main><h1>Card page not found</h1><p>${BILLING_MESSAGES.cardPageUnknown}</p><p><a href="/subscription">Back to Subscription</a></p></main></body></html>`,
    );

  app.get(
    '/test-billing/:sessionId',
    { schema: { hide: true, params: z.object({ sessionId: z.string().max(200) }) } },
    async (request, reply) => {
      const parsed = billingPageParams.safeParse(request.params);
      const input = parsed.success ? await billingPageInput(parsed.data.sessionId) : undefined;
      if (!input) return billingPageNotFound(reply);
      return sendPage(reply, 200, testBillingPage(input));
    },
  );

  app.post(
    '/test-billing/:sessionId',
    {
      schema: {
        hide: true,
        params: z.object({ sessionId: z.string().max(200) }),
        body: z.record(z.string(), z.string().max(200)).nullish(),
      },
    },
    async (request, reply) => {
      const parsed = billingPageParams.safeParse(request.params);
      const input = parsed.success ? await billingPageInput(parsed.data.sessionId) : undefined;
      if (!input || !parsed.success) return billingPageNotFound(reply);
      if (input.closed) return sendPage(reply, 409, testBillingPage(input));
      const form = request.body ?? {};
      const name = (form.name ?? '').trim().slice(0, NAME_MAX);
      const card = checkCard(form, new Date());
      if ('error' in card)
        return sendPage(reply, 400, testBillingPage({ ...input, name, error: card.error }));
      if (!name)
        return sendPage(reply, 400, testBillingPage({ ...input, error: BILLING_MESSAGES.nameOnCardMissing }));
      const outcome = await provider.updateCard(parsed.data.sessionId, card.card);
      if (!outcome.updated)
        return sendPage(reply, 402, testBillingPage({ ...input, name, error: outcome.message }));
      return reply.redirect(outcome.redirectTo, 303);
    },
  );
};
