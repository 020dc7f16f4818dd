import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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
    permissions: jsonb('permissions')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
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

/** One sequence for every change of every synced resource: a pull cursor is a point on it. */
export const changeVersionSeq = pgSequence('change_version_seq');

/**
 * Every synced resource's rows (appointments now; doctors, prescriptions, lab reports later), one table so
 * that versions, tombstones, merges and the pull are written once. `data` holds the resource's fields as
 * its domain schema checks them; `field_changed_at` keeps, per field, when the winning edit was made
 * (for the per-field last-writer-wins merge). A delete keeps the row as a tombstone (deleted_at) for at
 * least TOMBSTONE_DAYS so that devices offline that long still hear of it.
 */
export const records = pgTable(
  'records',
  {
    id: uuid('id').primaryKey(),
    resource: text('resource').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    version: bigint('version', { mode: 'number' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    fieldChangedAt: jsonb('field_changed_at').$type<Record<string, number>>().notNull(),
    createdBy: uuid('created_by').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('records_version_unique').on(table.version),
    index('records_resource_patient_idx').on(table.resource, table.patientId, table.version),
  ],
);

/** Answers to mutating calls, kept with the change they made so a repeated Idempotency-Key replays them. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    statusCode: integer('status_code').notNull(),
    body: jsonb('body').$type<unknown>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
);

/** Small facts of the sync engine, e.g. the tombstone horizon (the newest version ever purged). */
export const syncMeta = pgTable('sync_meta', {
  key: text('key').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull(),
});

/** Who uploaded each stored file: only its owner (and, with later features, those allowed) get a link to it. */
export const uploads = pgTable(
  'uploads',
  {
    key: text('key').primaryKey(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['profile', 'lab', 'prescription', 'appointment'] }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('uploads_owner_idx').on(table.ownerUserId)],
);
