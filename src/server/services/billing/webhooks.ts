import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { billingEvents } from '../../db/schema';
import { ProviderObjectMissingError, type PaymentProvider, type ProviderSubscription } from './provider';
import {
  eventSubject,
  HANDLED_EVENT_TYPES,
  SubscriptionPlanUnknownError,
  type StripeEventLike,
} from './stripe-objects';
import { patientUserId, storeProviderSubscription, userOfCustomer } from './subscription-store';
import { verifyStripeEvent } from './webhook-signature';
import { findPlan } from './plans';

// The one webhook handler, for Stripe's events and the test-mode provider's alike. An event is only a
// nudge: the handler reads the subscription it names back from the provider (the provider's word is the
// truth, and events may come late, twice or out of order) and stores it. Each event id is recorded in
// the same transaction as the change, so a replayed event changes nothing twice.

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

export async function handleWebhook(
  deps: { db: Database; provider: PaymentProvider; log: FastifyBaseLogger },
  rawBody: Buffer | string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  // Throws WebhookSignatureError: nothing unsigned is read further.
  const event = verifyStripeEvent(rawBody, signature, deps.provider.webhookSecret);
  return handleEvent(deps, event);
}

async function handleEvent(
  deps: { db: Database; provider: PaymentProvider; log: FastifyBaseLogger },
  event: StripeEventLike,
): Promise<WebhookOutcome> {
  const { db, provider, log } = deps;
  const subject = eventSubject(event);
  const handled = (HANDLED_EVENT_TYPES as readonly string[]).includes(event.type) && subject.subscriptionId;
  if (!handled || !subject.subscriptionId) {
    const [recorded] = await db
      .insert(billingEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    return recorded ? 'ignored' : 'duplicate';
  }
  const [seen] = await db
    .select({ id: billingEvents.id })
    .from(billingEvents)
    .where(eq(billingEvents.id, event.id))
    .limit(1);
  if (seen) return 'duplicate';
  // Read before the transaction: a provider call must not hold a transaction open.
  const observedAt = new Date();
  let subscription: ProviderSubscription;
  try {
    subscription = await provider.retrieveSubscription(subject.subscriptionId);
  } catch (error) {
    // Not Kincare's to act on (a subscription the provider no longer has, or another product's on the same
    // account): acknowledged, or the provider would send it again for days and may disable the endpoint.
    if (!(error instanceof ProviderObjectMissingError) && !(error instanceof SubscriptionPlanUnknownError))
      throw error;
    log.warn(
      { eventId: event.id, type: event.type },
      'billing event for a subscription that is not ours: left',
    );
    await db.insert(billingEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
    return 'ignored';
  }
  const outcome = await db.transaction(async (tx) => {
    const [recorded] = await tx
      .insert(billingEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!recorded) return { result: 'duplicate' as const, supersedes: null };
    const userId =
      (await patientUserId(tx, subscription.userId)) ??
      (await patientUserId(tx, subject.userId)) ??
      (await userOfCustomer(tx, subscription.customerId)) ??
      null;
    if (!userId || !(await findPlan(tx, subscription.planId))) {
      log.warn({ eventId: event.id, type: event.type }, 'billing event for an unknown patient or plan: left');
      return { result: 'ignored' as const, supersedes: null };
    }
    const stored = await storeProviderSubscription(tx, userId, subscription, provider.kind, observedAt);
    return { result: 'handled' as const, supersedes: stored.supersedes };
  });
  if (outcome.supersedes) await cancelSuperseded(deps, outcome.supersedes);
  return outcome.result;
}

/**
 * A second subscription paid while the first was live (two checkouts, two tabs): the patient keeps the
 * newer one, and the older is canceled at the provider so that it is not charged again. Refunding its
 * unused time is left to whoever runs the install (logged); a failure is logged and left for them too.
 */
async function cancelSuperseded(
  deps: { provider: PaymentProvider; log: FastifyBaseLogger },
  subscriptionId: string,
): Promise<void> {
  deps.log.warn({ subscriptionId }, 'a second subscription replaced a live one: canceling the older one');
  try {
    await deps.provider.cancel(subscriptionId);
  } catch (error) {
    deps.log.error(
      { err: error, subscriptionId },
      'could not cancel a replaced subscription at the provider',
    );
  }
}
