import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PlanLimits } from '../../domain/billing';
import { users } from './schema-people';

// The tables of plans and subscriptions (services/billing/README.md). Kept apart from schema.ts, which
// re-exports them.

/** A plan offered. Plans are data: seeded by migration 0007, changed by SQL, never by code. */
export const plans = pgTable('plans', {
  /** A readable id (`free`, `plus-monthly`): the Stripe price's lookup key too. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** In cents of `currency`; 0 is free. */
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull().default('usd'),
  interval: text('interval', { enum: ['month', 'year'] }).notNull(),
  trialPeriodDays: integer('trial_period_days').notNull().default(0),
  limits: jsonb('limits').$type<PlanLimits>().notNull(),
  /** Offered to new subscribers (a retired plan keeps its subscribers). */
  offered: boolean('offered').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  /** The Stripe price of this plan, found by lookup key (or created) the first time it is needed. */
  stripePriceId: text('stripe_price_id'),
});

/**
 * A patient's subscription (one per patient): Kincare's copy of what the payment provider holds, written
 * only from the provider's answers and webhooks. A free plan has no provider subscription.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Ours (`sub_…` of the provider when there is one; `free_…` for a free plan). */
    id: text('id').notNull().unique(),
    customerId: text('customer_id').notNull(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id),
    status: text('status').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    startDate: timestamp('start_date', { withTimezone: true }).notNull(),
    endDate: timestamp('end_date', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    /**
     * The plan that takes over when this subscription ends at its period's end (a paid plan moving to
     * Free): set with the provider's cancel at the period's end, cleared when that cancel is undone.
     */
    nextPlanId: text('next_plan_id').references(() => plans.id),
    /** 'stripe', 'test' (the built-in checkout) or 'none' (a free plan). */
    provider: text('provider').notNull(),
    /** The provider's time of the state copied here: an older event never overwrites a newer one. */
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('subscriptions_customer_idx').on(table.customerId)],
);

/** Every webhook event handled, by the provider's event id: a replayed event changes nothing twice. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a patient used of a limited allowance in one period (lab extractions of one month). */
export const planUsage = pgTable(
  'plan_usage',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The limit's name (PlanLimitName). */
    limit: text('limit_name').notNull(),
    /** 'YYYY-MM' (UTC). */
    period: text('period').notNull(),
    used: integer('used').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.limit, table.period] })],
);

/**
 * The built-in test-mode provider's own books (it plays Stripe's part when STRIPE_SECRET_KEY is unset):
 * its checkout sessions and its subscriptions, each kept as the Stripe-shaped object it answers.
 */
export const testBillingObjects = pgTable(
  'test_billing_objects',
  {
    /** `cs_test_…`, `sub_test_…`, `cus_test_…` or `bps_test_…` (a card-update page). */
    id: text('id').primaryKey(),
    kind: text('kind', {
      enum: ['checkout_session', 'subscription', 'customer', 'billing_portal_session'],
    }).notNull(),
    customerId: text('customer_id').notNull(),
    object: jsonb('object').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('test_billing_objects_customer_idx').on(table.customerId, table.kind)],
);
