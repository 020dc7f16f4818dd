import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { isCanceled, type Subscription } from '../../../domain/billing';
import { plans, subscriptions, users } from '../../db/schema';
import type { Queryable } from '../transaction';
import { dollars } from './plans';
import type { ProviderSubscription } from './provider';

// Kincare's copy of each patient's subscription (one row per patient), written only from what the
// payment provider answered or announced, or, for a free plan, by Kincare itself.

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ProviderKind = 'stripe' | 'test';

/** The patient's subscription as the API answers it, or null. */
export async function subscriptionOf(db: Queryable, userId: string): Promise<Subscription | null> {
  const [row] = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  if (!row) return null;
  const { subscription, plan } = row;
  return {
    id: subscription.id,
    customer_id: subscription.customerId,
    plan_id: plan.id,
    plan_name: plan.name,
    price: dollars(plan.priceCents),
    interval: plan.interval,
    subscription_status: subscription.status as Subscription['subscription_status'],
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    start_date: subscription.startDate.toISOString(),
    end_date: subscription.endDate?.toISOString() ?? null,
    current_period_end: subscription.currentPeriodEnd?.toISOString() ?? null,
    trial_end: subscription.trialEnd?.toISOString() ?? null,
    limits: plan.limits,
    next_plan_id: subscription.nextPlanId,
    // The card is the provider's to tell (billing.ts asks it); the copy here does not keep one.
    card: null,
  };
}

export async function subscriptionRowOf(db: Queryable, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row;
}

/** The id, if it names a patient Kincare has (metadata may name a deleted account, or be another app's). */
export async function patientUserId(db: Queryable, userId: string | null): Promise<string | undefined> {
  if (!userId || !z.uuid().safeParse(userId).success) return undefined;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'Patient')))
    .limit(1);
  return row?.id;
}

/** The patient whose subscription or customer this is: by the provider's metadata, else by customer id. */
export async function userOfCustomer(db: Queryable, customerId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.stripeCustomerId, customerId))
    .limit(1);
  return row?.id;
}

/**
 * What storing did: whether the row changed, and the provider subscription it replaced while that one was
 * still live (a second checkout paid in another tab): the caller cancels it, or the patient pays twice.
 */
export type StoreOutcome = { stored: boolean; supersedes: string | null; movedTo: string | null };

/**
 * Stores what the provider holds. Late news never wins: an older reading of the same subscription, or a
 * cancel of a subscription the patient has since replaced (renewed, or moved from Free to a paid plan),
 * changes nothing. A subscription that ended at its period's end with a free plan to follow (`nextPlanId`)
 * is followed by that plan, in the same transaction (`movedTo`); one whose cancel was undone (here, or on
 * the provider's own page) has no plan to follow any more.
 */
export async function storeProviderSubscription(
  tx: Queryable,
  userId: string,
  subscription: ProviderSubscription,
  provider: ProviderKind,
  observedAt: Date,
): Promise<StoreOutcome> {
  const [existing] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .for('update')
    .limit(1);
  if (existing) {
    const sameSubscription = existing.id === subscription.id;
    const unchanged = { stored: false, supersedes: null, movedTo: null };
    if (sameSubscription && existing.providerUpdatedAt.getTime() > observedAt.getTime()) return unchanged;
    if (!sameSubscription && hasEnded(subscription.status) && !isCanceled(existing.status)) return unchanged;
  }
  const supersedes =
    existing &&
    existing.id !== subscription.id &&
    existing.provider === provider &&
    !hasEnded(existing.status)
      ? existing.id
      : null;
  const sameSubscription = existing?.id === subscription.id;
  const nextPlanId =
    sameSubscription && (subscription.cancelAtPeriodEnd || hasEnded(subscription.status))
      ? (existing?.nextPlanId ?? null)
      : null;
  const values = {
    id: subscription.id,
    customerId: subscription.customerId,
    planId: subscription.planId,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    startDate: subscription.startDate,
    endDate: subscription.endedAt,
    currentPeriodEnd: subscription.currentPeriodEnd,
    trialEnd: subscription.trialEnd,
    nextPlanId,
    provider,
    providerUpdatedAt: observedAt,
    updatedAt: new Date(),
  };
  await tx
    .insert(subscriptions)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values });
  const movedTo = nextPlanId && hasEnded(subscription.status) ? await followWith(tx, userId, values) : null;
  return { stored: true, supersedes, movedTo };
}

/** The free plan that follows an ended subscription starts now (a paid one would need a checkout: left). */
async function followWith(
  tx: Queryable,
  userId: string,
  ended: { customerId: string; nextPlanId: string | null; endDate: Date | null },
): Promise<string | null> {
  if (!ended.nextPlanId) return null;
  const [plan] = await tx
    .select({ id: plans.id, priceCents: plans.priceCents })
    .from(plans)
    .where(eq(plans.id, ended.nextPlanId))
    .limit(1);
  if (plan?.priceCents !== 0) return null;
  await storeFreeSubscription(tx, userId, ended.customerId, plan.id, ended.endDate ?? new Date());
  return plan.id;
}

/** The plan that follows when the subscription ends at its period's end (null: none). */
export async function setNextPlan(tx: Queryable, userId: string, planId: string | null): Promise<void> {
  await tx.update(subscriptions).set({ nextPlanId: planId }).where(eq(subscriptions.userId, userId));
}

const hasEnded = (status: string) => isCanceled(status) || status === 'incomplete_expired';

/** A free plan: no provider subscription, active at once. Replaces whatever row there was. */
export async function storeFreeSubscription(
  tx: Queryable,
  userId: string,
  customerId: string,
  planId: string,
  now = new Date(),
): Promise<void> {
  const values = {
    id: `free_${randomBytes(12).toString('hex')}`,
    customerId,
    planId,
    status: 'active',
    cancelAtPeriodEnd: false,
    startDate: now,
    endDate: null,
    currentPeriodEnd: null,
    trialEnd: null,
    nextPlanId: null,
    provider: 'none',
    providerUpdatedAt: now,
    updatedAt: now,
  };
  await tx
    .insert(subscriptions)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values });
}

/** Ends a free plan at once (there is nothing to tell a provider). */
export async function cancelFreeSubscription(tx: Queryable, userId: string, now = new Date()): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ status: 'canceled', endDate: now, providerUpdatedAt: now, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
}

/** Points the patient's customer id (on the user, and on a free plan's row: it has no provider) at the provider's customer. */
export async function setCustomerId(tx: Queryable, userId: string, customerId: string): Promise<void> {
  await tx.update(users).set({ stripeCustomerId: customerId }).where(eq(users.id, userId));
  await tx
    .update(subscriptions)
    .set({ customerId })
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.provider, 'none')));
}
