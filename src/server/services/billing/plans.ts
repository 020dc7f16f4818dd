import { asc, eq } from 'drizzle-orm';
import type { Plan } from '../../../domain/billing';
import type { Database } from '../../db/client';
import { plans } from '../../db/schema';
import type { Queryable } from '../transaction';
import type { ProviderPlan } from './provider';

// The plans offered (rows of `plans`: data, seeded by migration 0007) in the shapes the API and the
// payment providers need.

export type PlanRow = typeof plans.$inferSelect;

export const dollars = (cents: number): number => Math.round(cents) / 100;

export function planAnswer(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: dollars(row.priceCents),
    currency: row.currency,
    interval: row.interval,
    trial_period_days: row.trialPeriodDays,
    limits: row.limits,
  };
}

export function providerPlan(row: PlanRow): ProviderPlan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    currency: row.currency,
    interval: row.interval,
    trialPeriodDays: row.trialPeriodDays,
    stripePriceId: row.stripePriceId,
  };
}

export async function offeredPlans(db: Database): Promise<PlanRow[]> {
  return db.select().from(plans).where(eq(plans.offered, true)).orderBy(asc(plans.sortOrder), asc(plans.id));
}

export async function findPlan(db: Queryable, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
  return row;
}

/** Keeps the Stripe price found (or made) for a plan, so the lookup happens once. */
export async function rememberStripePrice(db: Database, planId: string, priceId: string): Promise<void> {
  await db.update(plans).set({ stripePriceId: priceId }).where(eq(plans.id, planId));
}
