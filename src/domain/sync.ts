import { z } from 'zod';

// The sync contract between the device's replica and the server (see the sync engine in src/local and
// src/server/services/records.ts). Every synced resource is a record: a client-minted UUID, the patient it
// belongs to, a version from one server-wide sequence, and its fields.

export const SYNCED_RESOURCES = ['appointments'] as const;
export type SyncedResource = (typeof SYNCED_RESOURCES)[number];

/** Deleted records stay as tombstones at least this long; an older cursor must start over. */
export const TOMBSTONE_DAYS = 90;
export const PULL_PAGE_DEFAULT = 500;
export const PULL_PAGE_MAX = 2000;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency-Key must be 8 to 100 letters, digits, - or _.');

/** What every mutation of a synced record says about the edit, besides its fields. */
export const editMetaSchema = z.object({
  /** The version the device edited; older than the server's means someone else changed it meanwhile. */
  base_version: z.number().int().min(0).optional(),
  /** When the person made the edit (ms since epoch, device clock; the server caps it at its own now). */
  changed_at: z.number().int().min(0).optional(),
});

export const pullQuerySchema = z.object({
  cursor: z.coerce
    .number({ error: 'cursor must be a number.' })
    .int()
    .min(0, 'cursor must be 0 or more.')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int()
    .min(1, 'limit must be at least 1.')
    .max(PULL_PAGE_MAX, `limit must be at most ${PULL_PAGE_MAX}.`)
    .default(PULL_PAGE_DEFAULT),
  /** The access fingerprint the device last pulled with; a different one now means start over. */
  scope: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'scope is not valid.')
    .optional(),
});

export const changeSchema = z.object({
  resource: z.enum(SYNCED_RESOURCES),
  id: z.string(),
  version: z.number(),
  deleted: z.boolean(),
  /** The record's fields (with id, patient_id and version); null for a tombstone. */
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type Change = z.infer<typeof changeSchema>;

export const pullResponseSchema = z.object({
  changes: z.array(changeSchema),
  cursor: z.number(),
  more: z.boolean(),
  /**
   * Start over from 0: the cursor is older than the tombstone horizon, or what the caller may see has
   * changed (a caregiver was granted or lost access) since the device last pulled.
   */
  reset: z.boolean(),
  /** What the caller may see now, as a fingerprint to send back with the next pull. */
  scope: z.string(),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

/** A file a device chose offline is referenced as `blob:<id>` until the upload answers with its key. */
export const BLOB_REFERENCE_PREFIX = 'blob:';
