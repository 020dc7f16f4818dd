import { createHash } from 'node:crypto';
import { z } from 'zod';
import { and, eq, gt, inArray, isNotNull, lt, max, or, sql, asc, type SQL } from 'drizzle-orm';
import type { SyncedResource, Change, PullResponse } from '../../domain/sync';
import { SYNCED_RESOURCES } from '../../domain/sync';
import type { Database } from '../db/client';
import { records, syncMeta } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { ReadScope } from './access';
import type { Transaction } from './idempotency';
import type { Queryable } from './transaction';

// The one implementation of synced records, for every resource: client-minted ids, a version from one
// sequence on every change, tombstones for deletes, and the per-field last-writer-wins merge when an
// edit was made on an older version than the server holds.
//
// Versions must become visible in the order they were handed out, or a pull could step past a version
// whose transaction had not committed yet and miss it for good. Every writer therefore takes one
// transaction-scoped advisory lock before it draws a version, which orders commits by version.

const VERSION_LOCK = 7_406_511; // any constant shared by all writers of `records`

export type RecordRow = typeof records.$inferSelect;
export type Fields = Record<string, unknown>;

/**
 * Takes the version lock until the transaction ends. A batch of changes takes it once, before its first
 * item, and tells each write so (`versionLockHeld`), which saves a round trip per write.
 */
export async function takeVersionLock(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${VERSION_LOCK})`);
}

/** The next version, drawn inside the statement that writes it, always after takeVersionLock. */
const nextVersion = sql`nextval('change_version_seq')`;

export type WriteOptions = {
  /**
   * This transaction already holds the version lock (see takeVersionLock), and so any record it read
   * since is current: no other writer of `records` can commit meanwhile.
   */
  versionLockHeld?: boolean;
};

/** The record as the API shows it: its fields plus id, patient_id, version and times. */
export function toWire(row: RecordRow): Fields {
  return {
    ...row.data,
    id: row.id,
    patient_id: row.patientId,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Server time wins over a device clock that runs ahead. */
function editTime(changedAt: number | undefined): number {
  const now = Date.now();
  return changedAt === undefined ? now : Math.min(changedAt, now);
}

const placeholder = (name: string) => sql.placeholder(name);

/** The statements run once per record, prepared (see txStatements). */
function prepareStatements(db: Queryable) {
  return {
    findRecord: db
      .select()
      .from(records)
      .where(and(eq(records.id, placeholder('id')), eq(records.resource, placeholder('resource'))))
      .limit(1)
      .prepare('records_find'),
    insertRecord: db
      .insert(records)
      .values({
        id: placeholder('id'),
        resource: placeholder('resource'),
        patientId: placeholder('patientId'),
        version: nextVersion,
        data: placeholder('data'),
        fieldChangedAt: placeholder('fieldChangedAt'),
        createdBy: placeholder('createdBy'),
      })
      .onConflictDoNothing()
      .returning()
      .prepare('records_insert'),
    updateRecord: db
      .update(records)
      .set({
        // drizzle's update takes no placeholders for values: these are sent as JSON and ISO text
        version: nextVersion,
        data: sql`${placeholder('data')}::jsonb`,
        fieldChangedAt: sql`${placeholder('fieldChangedAt')}::jsonb`,
        updatedAt: sql`${placeholder('updatedAt')}::timestamptz`,
      })
      .where(eq(records.id, placeholder('id')))
      .returning()
      .prepare('records_update'),
  };
}

const statementsOf = new WeakMap<Queryable, ReturnType<typeof prepareStatements>>();

/**
 * The prepared statements of this transaction (or database). A batch of changes writes hundreds of
 * records in one transaction: building each statement once, and letting Postgres parse it once per
 * connection (it is named), makes a create about four times cheaper than building and sending it afresh.
 */
function txStatements(db: Queryable): ReturnType<typeof prepareStatements> {
  let statements = statementsOf.get(db);
  if (!statements) {
    statements = prepareStatements(db);
    statementsOf.set(db, statements);
  }
  return statements;
}

export async function findRecord(
  db: Queryable,
  resource: SyncedResource,
  id: string,
): Promise<RecordRow | undefined> {
  const [row] = await txStatements(db).findRecord.execute({ id, resource });
  return row;
}

export async function createRecord(
  tx: Transaction,
  input: {
    resource: SyncedResource;
    id: string;
    patientId: string;
    createdBy: string;
    fields: Fields;
    changedAt?: number | undefined;
    /** The answer when the id is taken (by this resource or another). */
    existsMessage: string;
  },
  options: WriteOptions = {},
): Promise<RecordRow> {
  if (!options.versionLockHeld) await takeVersionLock(tx);
  const at = editTime(input.changedAt);
  const inserted = await txStatements(tx).insertRecord.execute({
    id: input.id,
    resource: input.resource,
    patientId: input.patientId,
    data: input.fields,
    fieldChangedAt: Object.fromEntries(Object.keys(input.fields).map((field) => [field, at])),
    createdBy: input.createdBy,
  });
  const row = inserted[0];
  if (!row) throw new HttpError(409, input.existsMessage);
  return row;
}

/**
 * Applies the fields an edit changed. On a stale base (someone changed the record since the device saw
 * it), each field keeps whichever edit was made last; the answer says a merge happened. An edit never
 * brings a deleted record back: the delete wins.
 */
export async function updateRecord(
  tx: Transaction,
  current: RecordRow,
  input: {
    patch: Fields;
    baseVersion?: number | undefined;
    changedAt?: number | undefined;
    deletedMessage: string;
  },
  options: WriteOptions = {},
): Promise<{ row: RecordRow; merged: boolean }> {
  if (current.deletedAt) throw new HttpError(409, input.deletedMessage);
  let fresh: RecordRow | undefined = current;
  if (!options.versionLockHeld) {
    // `current` was read before the lock: a writer that drew an earlier version may have committed since.
    await takeVersionLock(tx);
    [fresh] = await tx.select().from(records).where(eq(records.id, current.id));
  }
  if (!fresh || fresh.deletedAt) throw new HttpError(409, input.deletedMessage);
  const stale = input.baseVersion !== undefined && input.baseVersion < fresh.version;
  const at = editTime(input.changedAt);
  const data = { ...fresh.data };
  const times = { ...fresh.fieldChangedAt };
  for (const [field, value] of Object.entries(input.patch)) {
    if (value === undefined) continue;
    if (stale && (times[field] ?? 0) > at) continue; // a later edit of this field already won
    data[field] = value;
    times[field] = at;
  }
  const [row] = await txStatements(tx).updateRecord.execute({
    id: current.id,
    data: JSON.stringify(data),
    fieldChangedAt: JSON.stringify(times),
    updatedAt: new Date().toISOString(),
  });
  if (!row) throw new HttpError(409, input.deletedMessage);
  return { row, merged: stale };
}

/** Deletes as a tombstone: the fields go, the id and a new version stay so every device hears of it. */
export async function deleteRecord(
  tx: Transaction,
  current: RecordRow,
  options: WriteOptions = {},
): Promise<RecordRow> {
  if (current.deletedAt) return current; // a delete wins, and deleting twice is still deleted
  if (!options.versionLockHeld) await takeVersionLock(tx);
  const [row] = await tx
    .update(records)
    .set({
      version: nextVersion,
      data: {},
      fieldChangedAt: {},
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(records.id, current.id))
    .returning();
  if (!row) throw new HttpError(404, 'Not found');
  return row;
}

const HORIZON_KEY = 'tombstone_horizon';

/** A short fingerprint of what the caller may see; it changes when a caregiver gains or loses access. */
export function scopeFingerprint(scope: ReadScope): string {
  const canonical = SYNCED_RESOURCES.map(
    (resource) => `${resource}:${[...scope[resource]].sort().join(',')}`,
  ).join(';');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/**
 * What a pull carries from one page to the next (opaque to the device): the version it has reached, the
 * cursor it started from (0 for a full pull) and the scope it started with. The horizon and the scope are
 * judged when the pull starts; a later page starts over only if they moved under it since then. It needs
 * no signature: it only chooses which of the caller's own visible rows come next.
 */
const pageTokenSchema = z.object({
  position: z.number().int().min(0),
  start: z.number().int().min(0),
  scope: z.string().max(64),
});
type PageToken = z.infer<typeof pageTokenSchema>;

const encodeToken = (token: PageToken) => Buffer.from(JSON.stringify(token)).toString('base64url');

function decodeToken(text: string): PageToken {
  try {
    return pageTokenSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw new HttpError(400, 'token is not valid.');
  }
}

/**
 * Every change the caller may see after `cursor`, oldest first, a page at a time, each page read in one
 * snapshot. Versions commit in order (see nextVersion), so paging by version over several requests misses
 * nothing: what commits meanwhile simply comes on a later page.
 *
 * The first page decides whether the device must start over (its cursor is older than the tombstone
 * horizon, or what it may see has changed); then that answer is already the first page from 0, marked
 * `reset`, so a reset is one pass. Later pages, asked with the previous page's token, start over only if
 * the caller's access changed during the pull, or tombstones this incremental pull still needed were purged.
 * On the last page the cursor moves to the newest version of anyone's (and at least to the horizon): a
 * quiet caller's cursor must not fall behind the horizon, or it would reset on every pull.
 */
export async function pullChanges(
  db: Database,
  scope: ReadScope,
  request: { cursor: number; limit: number; scope?: string | undefined; token?: string | undefined },
): Promise<PullResponse> {
  const { limit } = request;
  const fingerprint = scopeFingerprint(scope);
  const continued = request.token === undefined ? undefined : decodeToken(request.token);
  return db.transaction(
    async (tx) => {
      const [horizonRow] = await tx
        .select({ value: syncMeta.value })
        .from(syncMeta)
        .where(eq(syncMeta.key, HORIZON_KEY));
      const horizon = horizonRow?.value ?? 0;
      let reset: boolean;
      let from: number;
      let start: number;
      if (continued) {
        reset = continued.scope !== fingerprint || (continued.start > 0 && continued.start < horizon);
        from = reset ? 0 : continued.position;
        start = reset ? 0 : continued.start;
      } else {
        const scopeChanged = request.scope !== undefined && request.scope !== fingerprint;
        reset = request.cursor > 0 && (request.cursor < horizon || scopeChanged);
        from = reset ? 0 : request.cursor;
        start = from;
      }
      const visible: SQL[] = [];
      for (const resource of SYNCED_RESOURCES) {
        const patientIds = scope[resource];
        if (patientIds.length > 0)
          visible.push(and(eq(records.resource, resource), inArray(records.patientId, patientIds)) as SQL);
      }
      const rows =
        visible.length === 0
          ? []
          : await tx
              .select()
              .from(records)
              .where(and(gt(records.version, from), or(...visible)))
              .orderBy(asc(records.version))
              .limit(limit + 1);
      const page = rows.slice(0, limit);
      const more = rows.length > limit;
      const changes: Change[] = page.map((row) => ({
        resource: row.resource as SyncedResource,
        id: row.id,
        version: row.version,
        deleted: row.deletedAt !== null,
        data: row.deletedAt ? null : toWire(row),
      }));
      let next = page.at(-1)?.version ?? from;
      if (more)
        return {
          changes,
          cursor: next,
          more,
          reset,
          scope: fingerprint,
          token: encodeToken({ position: next, start, scope: fingerprint }),
        };
      const [newest] = await tx.select({ version: max(records.version) }).from(records);
      next = Math.max(next, newest?.version ?? 0, horizon);
      return { changes, cursor: next, more, reset, scope: fingerprint };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Removes tombstones older than `before`; a cursor older than the newest purged version must reset. */
export async function purgeTombstones(db: Database, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const condition = and(isNotNull(records.deletedAt), lt(records.deletedAt, before));
    const [newest] = await tx
      .select({ version: max(records.version) })
      .from(records)
      .where(condition);
    if (!newest?.version) return 0;
    const purged = await tx.delete(records).where(condition).returning({ id: records.id });
    await tx
      .insert(syncMeta)
      .values({ key: HORIZON_KEY, value: newest.version })
      .onConflictDoUpdate({
        target: syncMeta.key,
        set: { value: sql`greatest(${syncMeta.value}, ${newest.version})` },
      });
    return purged.length;
  });
}
