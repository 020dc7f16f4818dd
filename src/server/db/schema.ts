import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// The server's tables. Ids are UUIDs so that clients can mint them offline (see the sync engine).

const timestamps = {
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
    /** Bumped by a password change: tokens carry it, and older tokens stop working. */
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

export const caregivers = pgTable('caregivers', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamps.createdAt,
});

/** A caregiver's access to one patient, with the permissions the patient granted (caregivers issue). */
export const careLinks = pgTable(
  'care_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    caregiverId: uuid('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    permissions: jsonb('permissions').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    isFamily: boolean('is_family').notNull().default(false),
    relationship: text('relationship'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('care_links_pair_unique').on(table.patientId, table.caregiverId),
    index('care_links_caregiver_idx').on(table.caregiverId),
  ],
);

/** E-mail verification links; only a hash of the token is kept. */
export const emailVerifications = pgTable('email_verifications', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Password-reset codes: 10 minutes, single use, 5 tries; only a hash of the code is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otpHash: text('otp_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);
