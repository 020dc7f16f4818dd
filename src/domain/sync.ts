import { z } from 'zod';
import { SYNCED_RESOURCES } from './resources/list';

// The sync contract between the device's replica and the server (see the sync engine in src/local, and
// src/server/services/records.ts and sync-pull.ts). Every synced resource is a record: a client-minted
// UUID, the patient it belongs to, a version from one server-wide sequence, and its fields.

export { SYNCED_RESOURCES, type SyncedResource } from './resources/list';

/** Deleted records stay as tombstones at least this long; an older cursor must start over. */
export const TOMBSTONE_DAYS = 90;
export const PULL_PAGE_DEFAULT = 500;
export const PULL_PAGE_MAX = 10_000;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const IDEMPOTENCY_KEY_MESSAGE = 'Idempotency-Key must be 8 to 100 letters, digits, - or _.';
export const idempotencyKeySchema = z
  .string({ error: IDEMPOTENCY_KEY_MESSAGE }) // also when it is missing from a pushed change
  .regex(/^[A-Za-z0-9_-]{8,100}$/, IDEMPOTENCY_KEY_MESSAGE);

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
  /**
   * The `token` of the previous page, for every page after the first of one pull: it carries where the
   * pull started and what it could see then, so the tombstone horizon and the scope are judged once per
   * pull rather than on every page (which made a long pull start over for ever).
   */
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,400}$/, 'token is not valid.')
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
  /** When `more`: send it back as `token` to get the next page of this pull. */
  token: z.string().optional(),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

/** How many queued changes one `POST /api/sync/push` takes at most. */
export const PUSH_BATCH_MAX = 200;

/**
 * One queued change in a batched replay: the same change a REST call would make (create = POST,
 * update = PUT, delete = DELETE of the resource's path), with its own Idempotency-Key, so an item is
 * applied exactly once whether it arrives in a batch, alone, or again after a lost answer.
 */
export const pushChangeSchema = z.object({
  idempotency_key: idempotencyKeySchema,
  resource: z.enum(SYNCED_RESOURCES, { error: 'resource is not a synced resource.' }),
  op: z.enum(['create', 'update', 'delete'], { error: "op must be 'create', 'update' or 'delete'." }),
  id: z.uuid({ error: 'id must be a UUID.' }),
  base_version: z.number().int().min(0).optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type PushChange = z.infer<typeof pushChangeSchema>;

export const pushBodySchema = z.object({
  changes: z
    .array(pushChangeSchema)
    .min(1, 'changes must hold at least one change.')
    .max(PUSH_BATCH_MAX, `changes must hold at most ${PUSH_BATCH_MAX} changes.`),
});
export type PushBody = z.infer<typeof pushBodySchema>;

/**
 * The answer to one item, in the order sent: the status and body its REST call would have answered.
 * `status: 0` means the item was not tried, because an earlier item failed in a way worth retrying (a
 * later change may depend on it): send it again later.
 */
export const pushResultSchema = z.object({
  idempotency_key: z.string(),
  status: z.number().int(),
  body: z.unknown(),
});
export type PushResult = z.infer<typeof pushResultSchema>;
export const pushResponseSchema = z.object({ results: z.array(pushResultSchema) });
export type PushResponse = z.infer<typeof pushResponseSchema>;

export { BLOB_REFERENCE_PREFIX } from './blob-reference';
