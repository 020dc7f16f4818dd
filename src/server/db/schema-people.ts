import { integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// The accounts (users) and the patients among them: every other part of the schema refers to them, so
// they stand apart, and schema.ts gathers them with the rest.

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['Admin', 'Doctor', 'Patient', 'Caregiver'] }).notNull(),
    zipCode: text('zip_code').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Unused since sign-ins became rows of the sessions table (ended on logout and password change). */
    tokenVersion: integer('token_version').notNull().default(0),
    birthDate: text('birth_date'),
    gender: text('gender'),
    race: text('race'),
    ethnicity: text('ethnicity'),
    phone: text('phone'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    photoKey: text('photo_key'),
    stripeCustomerId: text('stripe_customer_id'),
    betaPolicyAcknowledgements: jsonb('beta_policy_acknowledgements').$type<Record<string, boolean>>(),
    betaPolicyAcceptedAt: timestamp('beta_policy_accepted_at', { withTimezone: true }),
    /** The plan a corporate sign-up (/signup/:plan) chose, offered first when the patient picks a plan. */
    signupPlanId: text('signup_plan_id'),
    ...timestamps,
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

export const patients = pgTable('patients', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamps.createdAt,
});
