import { and, count, eq, sql } from 'drizzle-orm';
import {
  BILLING_CODES,
  planLimitMessage,
  subscriptionAllowsUse,
  type PlanLimitName,
  type PlanLimits,
  type SubscriptionStatus,
} from '../../../domain/billing';
import { careLinks, careRequests, patients, planUsage, plans, subscriptions } from '../../db/schema';
import { HttpError } from '../../plugins/errors';
import type { Queryable } from '../transaction';

// What each plan allows, enforced here and only here: the limits are data on the plan (plans.limits),
// read through the patient's subscription. A patient whose subscription no longer lets them in (it ended,
// or went unpaid) is held to the Free plan's limits.

const FREE_PLAN_ID = 'free';

type PatientPlan = { userId: string; planName: string; limits: PlanLimits };

/** The plan whose limits hold for this patient (by patients.id). */
export async function planOfPatient(db: Queryable, patientId: string): Promise<PatientPlan> {
  const [row] = await db
    .select({
      userId: patients.userId,
      planName: plans.name,
      limits: plans.limits,
      status: subscriptions.status,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
    })
    .from(patients)
    .leftJoin(subscriptions, eq(subscriptions.userId, patients.userId))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(patients.id, patientId))
    .limit(1);
  if (!row) throw new HttpError(404, 'Patient not found.');
  // The plan holds for as long as it lets the patient in (a canceled one until its paid time ends).
  const usable =
    row.status !== null &&
    subscriptionAllowsUse(
      {
        subscription_status: row.status as SubscriptionStatus,
        current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
      },
      new Date(),
    );
  if (row.planName && row.limits && usable)
    return { userId: row.userId, planName: row.planName, limits: row.limits };
  const [free] = await db.select().from(plans).where(eq(plans.id, FREE_PLAN_ID)).limit(1);
  if (!free) throw new Error('the Free plan is missing from the plans table');
  return { userId: row.userId, planName: free.name, limits: free.limits };
}

const limitReached = (limit: PlanLimitName, plan: PatientPlan, allowed: number) =>
  new HttpError(403, planLimitMessage(limit, plan.planName, allowed), BILLING_CODES.planLimit, { limit });

/**
 * 403 PLAN_LIMIT when the patient already has as many caregivers (linked, or invited and waiting) as the
 * plan allows. Call it inside the invitation's transaction, after locking the patient's row, so that two
 * invitations at once cannot both pass.
 */
export async function requireCaregiverAllowance(tx: Queryable, patientId: string): Promise<void> {
  const plan = await planOfPatient(tx, patientId);
  const allowed = plan.limits.caregivers;
  if (allowed === null) return;
  const [links] = await tx.select({ n: count() }).from(careLinks).where(eq(careLinks.patientId, patientId));
  const [waiting] = await tx
    .select({ n: count() })
    .from(careRequests)
    .where(and(eq(careRequests.patientId, patientId), eq(careRequests.status, 'sent')));
  if ((links?.n ?? 0) + (waiting?.n ?? 0) >= allowed) throw limitReached('caregivers', plan, allowed);
}

/** 'YYYY-MM' of `now` in UTC: the period a monthly allowance counts in. */
export const monthOf = (now: Date): string => now.toISOString().slice(0, 7);

/**
 * Takes one automatic lab report reading from this month's allowance, or refuses with 403 PLAN_LIMIT.
 * One statement counts and checks, so readings at the same moment cannot pass the limit together.
 */
export async function takeLabExtraction(db: Queryable, patientId: string, now = new Date()): Promise<void> {
  const plan = await planOfPatient(db, patientId);
  const allowed = plan.limits.labExtractionsPerMonth;
  const limit: PlanLimitName = 'labExtractionsPerMonth';
  const period = monthOf(now);
  if (allowed === null) return;
  if (allowed === 0) throw limitReached(limit, plan, allowed);
  const taken = await db
    .insert(planUsage)
    .values({ userId: plan.userId, limit, period, used: 1 })
    .onConflictDoUpdate({
      target: [planUsage.userId, planUsage.limit, planUsage.period],
      set: { used: sql`${planUsage.used} + 1` },
      setWhere: sql`${planUsage.used} < ${allowed}`,
    })
    .returning({ used: planUsage.used });
  if (taken.length === 0) throw limitReached(limit, plan, allowed);
}

/** Gives a reading back when it could not be done (the service failed): the person is not charged for it. */
export async function returnLabExtraction(db: Queryable, patientId: string, now = new Date()): Promise<void> {
  const [patient] = await db
    .select({ userId: patients.userId })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!patient) return;
  await db
    .update(planUsage)
    .set({ used: sql`greatest(${planUsage.used} - 1, 0)` })
    .where(
      and(
        eq(planUsage.userId, patient.userId),
        eq(planUsage.limit, 'labExtractionsPerMonth'),
        eq(planUsage.period, monthOf(now)),
      ),
    );
}
