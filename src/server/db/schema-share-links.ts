import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { patients, users } from './schema-people';

// The tables of share links (src/server/services/share-links.ts): each link a patient made, and every time
// one was opened. Kept apart from schema.ts (which re-exports them, so drizzle-kit and the client see one
// schema). The server holds a link's snapshot only as ciphertext whose key it never sees, and its address's
// secret part only as a hash.

export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the manifest address's secret part: a copy of the table opens no link. */
    tokenHash: text('token_hash').notNull().unique(),
    label: text('label').notNull(),
    /** Argon2id of the passcode, or null for a link without one. */
    passcodeHash: text('passcode_hash'),
    /** Wrong passcodes it still takes; at 0 it no longer opens. */
    attemptsLeft: integer('attempts_left').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The snapshot as the device encrypted it (a compact JWE); null once the link is revoked or expired. */
    snapshot: text('snapshot'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('share_links_patient_idx').on(table.patientId)],
);

/** One row per time a link's summary was handed out, with the name the opener gave. */
export const shareLinkOpens = pgTable(
  'share_link_opens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('share_link_opens_link_idx').on(table.linkId, table.openedAt)],
);
