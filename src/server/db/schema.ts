import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
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

import { patients, timestamps, users } from './schema-people';

export { patients, timestamps, users };

// The people (users and patients) are in schema-people.ts: the other parts of the schema refer to them.
export const caregivers = pgTable('caregivers', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamps.createdAt,
});

/** A caregiver's access to one patient, with the permissions the patient granted. */
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
    phoneNumber: text('phone_number'),
    /** The invitation that created the link (null for links made before invitations existed). */
    requestId: uuid('request_id'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('care_links_pair_unique').on(table.patientId, table.caregiverId),
    index('care_links_caregiver_idx').on(table.caregiverId),
  ],
);

/**
 * A patient's invitation of a caregiver (sent -> received -> approved | rejected, or
 * deleted by either side). It names the caregiver by e-mail: a person without an account gets a link to
 * register (only a keyed hash of its token is kept; it expires and works once); a caregiver with an
 * account sees it among their received requests. Registering through the link approves it, and hands out
 * a single-use onboarding token for the first sign-in.
 */
export const careRequests = pgTable(
  'care_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    caregiverEmail: text('caregiver_email').notNull(),
    /** Set when the e-mail belongs to a caregiver account (at invitation, or when they register). */
    caregiverId: uuid('caregiver_id').references(() => caregivers.id, { onDelete: 'cascade' }),
    isFamily: boolean('is_family').notNull().default(false),
    relationship: text('relationship'),
    permissions: jsonb('permissions')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    phoneNumber: text('phone_number'),
    status: text('status', { enum: ['sent', 'approved', 'rejected'] }).notNull(),
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: timestamp('invite_expires_at', { withTimezone: true }),
    inviteUsedAt: timestamp('invite_used_at', { withTimezone: true }),
    onboardingTokenHash: text('onboarding_token_hash'),
    onboardingExpiresAt: timestamp('onboarding_expires_at', { withTimezone: true }),
    onboardingUsedAt: timestamp('onboarding_used_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index('care_requests_patient_idx').on(table.patientId, table.createdAt),
    index('care_requests_caregiver_idx').on(table.caregiverId, table.createdAt),
    index('care_requests_email_idx').on(table.caregiverEmail),
    uniqueIndex('care_requests_invite_token_unique').on(table.inviteTokenHash),
    uniqueIndex('care_requests_onboarding_token_unique').on(table.onboardingTokenHash),
  ],
);

/** A linked caregiver asking the patient for more permissions: pending -> approved | rejected. */
export const permissionRequests = pgTable(
  'permission_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => careLinks.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    caregiverId: uuid('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    requestedPermissions: jsonb('requested_permissions').$type<string[]>().notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    index('permission_requests_patient_idx').on(table.patientId, table.requestedAt),
    index('permission_requests_caregiver_idx').on(table.caregiverId, table.requestedAt),
  ],
);

/**
 * What caregivers did with a patient's records, for the patient to see: every write a caregiver made
 * ('write', one row each) and the deliveries of the patient's records to a caregiver's device
 * ('delivery': one row per caregiver, resource and UTC day, `count` adding up the records delivered and
 * `at` the latest delivery), so that reading, however often, adds no rows that could crowd writes out.
 * The caregiver's name is copied in, so the line still reads right after the link is gone.
 */
export const careActivity = pgTable(
  'care_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    kind: text('kind', { enum: ['write', 'delivery'] }).notNull(),
    resource: text('resource').notNull(),
    op: text('op', { enum: ['create', 'update', 'delete'] }),
    recordId: uuid('record_id'),
    count: integer('count').notNull().default(1),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** A delivery row's UTC day (null for writes). */
    day: date('day', { mode: 'string' }),
  },
  (table) => [
    index('care_activity_patient_idx').on(table.patientId, table.at),
    uniqueIndex('care_activity_delivery_day_unique')
      .on(table.patientId, table.actorUserId, table.resource, table.day)
      .where(sql`${table.kind} = 'delivery'`),
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
    /** Keyed hash of the single-use reset token verify-otp hands out; reset-password must present it. */
    resetTokenHash: text('reset_token_hash'),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

/**
 * Sign-ins, kept on the server so that logout, "sign out of all devices" and a password change end them
 * at once: a token names its session, and a token whose session has ended is refused.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** What the person sees in their list of sign-ins: the browser's user agent and the client address. */
    userAgent: text('user_agent').notNull().default(''),
    address: text('address').notNull().default(''),
  },
  (table) => [index('sessions_user_idx').on(table.userId, table.createdAt)],
);

/** One sequence for every change of every synced resource: a pull cursor is a point on it. */
export const changeVersionSeq = pgSequence('change_version_seq');

/**
 * Every synced resource's rows, one table so that versions, tombstones, merges and the pull are written
 * once. `data` holds the resource's fields as its domain schema checks them; `field_changed_at` keeps, per
 * field, when the winning edit was made (for the per-field last-writer-wins merge). A delete keeps the row
 * as a tombstone (deleted_at) for at least TOMBSTONE_DAYS so that devices offline that long still hear of it.
 *
 * A record is its resource and its id, as on a device (one table per resource, keyed by id): an id taken
 * by a record of one resource says nothing about, and blocks nothing of, another resource (migration 0011;
 * see records.ts for why the id is not scoped by patient too).
 */
export const records = pgTable(
  'records',
  {
    id: uuid('id').notNull(),
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
    primaryKey({ columns: [table.id, table.resource] }),
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
    /** The patient and permission the stored answer was about: a replay re-checks the caller still has it. */
    patientId: uuid('patient_id'),
    permission: text('permission'),
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
    /** Size of the stored file: the per-person upload quota counts it. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    index('uploads_owner_idx').on(table.ownerUserId),
    index('uploads_owner_created_idx').on(table.ownerUserId, table.createdAt),
  ],
);

/**
 * The provider directory (doctors and pharmacies), loaded from the public NPPES NPI Registry file by the
 * import command (src/server/directory). Keyed by NPI, so an import run again updates rows in place and
 * keeps their ids (a patient's list refers to `doctor_id` / `pharmacy_id`). Coordinates are those of the
 * practice's zip code, for "nearby first"; names are searched by trigram (partial, case-insensitive).
 */
const directoryAddress = {
  address: text('address').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull(),
  zip: text('zip').notNull(),
  phone: text('phone'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
};

export const directoryDoctors = pgTable(
  'directory_doctors',
  {
    doctorId: uuid('doctor_id').primaryKey().defaultRandom(),
    npi: text('npi').notNull(),
    name: text('name').notNull(),
    speciality: text('speciality').notNull(),
    /** Credentials and the taxonomies held, e.g. "MD; Internal Medicine, Cardiovascular Disease". */
    qualifications: text('qualifications').notNull().default(''),
    gender: text('gender'),
    ...directoryAddress,
    /** Not in the NPPES file: unknown (null) until a practice tells us. */
    acceptingNewPatients: boolean('accepting_new_patients'),
    updatedAt: timestamps.updatedAt,
  },
  (table) => [
    uniqueIndex('directory_doctors_npi_unique').on(table.npi),
    index('directory_doctors_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
    index('directory_doctors_speciality_name_idx').on(
      sql`lower(${table.speciality})`,
      table.name,
      table.doctorId,
    ),
    index('directory_doctors_name_idx').on(table.name, table.doctorId),
    index('directory_doctors_location_idx').on(table.latitude, table.longitude),
  ],
);

export const directoryPharmacies = pgTable(
  'directory_pharmacies',
  {
    pharmacyId: uuid('pharmacy_id').primaryKey().defaultRandom(),
    npi: text('npi').notNull(),
    name: text('name').notNull(),
    ...directoryAddress,
    /** Not in the NPPES file: unknown (null) until a pharmacy tells us. */
    openingHours: text('opening_hours'),
    /** From the name ("24 hour", "24hr") where it says so; otherwise unknown (null). */
    open24Hours: boolean('open_24_hours'),
    updatedAt: timestamps.updatedAt,
  },
  (table) => [
    uniqueIndex('directory_pharmacies_npi_unique').on(table.npi),
    index('directory_pharmacies_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
    index('directory_pharmacies_zip_idx').on(table.zip),
    index('directory_pharmacies_location_idx').on(table.latitude, table.longitude),
  ],
);

export * from './schema-reminders';
export * from './schema-billing';
// The check-ins moved to the synced records (resource check_ins, migration 0010).
export * from './schema-fitbit';
export * from './schema-share-links';
