import { date, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { patients } from './schema-people';

// Fitbit (services/fitbit/README.md). Kept apart from schema.ts, which re-exports them. Tokens are never
// stored in clear: the *_enc columns hold AES-256-GCM boxes (services/fitbit/token-box.ts).

/** A patient's connection started and not yet finished: the PKCE verifier, for 10 minutes. */
export const fitbitAuthorizations = pgTable('fitbit_authorizations', {
  /** One at a time per patient: connecting again replaces the one before. */
  patientId: uuid('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  /** SHA-256 of the state sent to Fitbit (base64url). */
  stateHash: text('state_hash').notNull(),
  codeVerifierEnc: text('code_verifier_enc').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** A patient's Fitbit: the tokens (encrypted) and when the days were last read. */
export const fitbitConnections = pgTable('fitbit_connections', {
  patientId: uuid('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  fitbitUserId: text('fitbit_user_id').notNull(),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc').notNull(),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
  /** 'active', or 'ended' once Fitbit refused the refresh token (the patient connects again). */
  status: text('status', { enum: ['active', 'ended'] })
    .notNull()
    .default('active'),
  /** The last successful read of the days (what the app shows as 'as of'). */
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  /** The last try, successful or not: Fitbit is asked at most every 15 minutes, also while it is down. */
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One day of a patient's Fitbit, as last read. */
export const fitbitDays = pgTable(
  'fitbit_days',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    steps: integer('steps'),
    restingHeartRate: integer('resting_heart_rate'),
    sleepMinutes: integer('sleep_minutes'),
  },
  (table) => [primaryKey({ columns: [table.patientId, table.day] })],
);
