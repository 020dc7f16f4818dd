import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, lt, max, or, sql, asc, type SQL } from 'drizzle-orm';
import type { SyncedResource, Change, PullResponse } from '../../domain/sync';
import { SYNCED_RESOURCES } from '../../domain/sync';
import type { Database } from '../db/client';
import { records, syncMeta } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { ReadScope } from './access';
import type { Transaction } from './idempotency';

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

async function nextVersion(tx: Transaction): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${VERSION_LOCK})`);
  const result = (await tx.execute(sql`select nextval('change_version_seq') as v`)) as {
    rows: { v: string | number }[];
  };
  return Number(result.rows[0]?.v);
}

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

export async function findRecord(
  db: Database | Transaction,
  resource: SyncedResource,
  id: string,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.resource, resource)))
    .limit(1);
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
  },
): Promise<RecordRow> {
  const version = await nextVersion(tx);
  const at = editTime(input.changedAt);
  const inserted = await tx
    .insert(records)
    .values({
      id: input.id,
      resource: input.resource,
      patientId: input.patientId,
      version,
      data: input.fields,
      fieldChangedAt: Object.fromEntries(Object.keys(input.fields).map((field) => [field, at])),
      createdBy: input.createdBy,
    })
    .onConflictDoNothing()
    .returning();
  const row = inserted[0];
  if (!row) throw new HttpError(409, 'A record with this id already exists.');
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
): Promise<{ row: RecordRow; merged: boolean }> {
  if (current.deletedAt) throw new HttpError(409, input.deletedMessage);
  const version = await nextVersion(tx);
  const [fresh] = await tx.select().from(records).where(eq(records.id, current.id));
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
  const [row] = await tx
    .update(records)
    .set({ version, data, fieldChangedAt: times, updatedAt: new Date() })
    .where(eq(records.id, current.id))
    .returning();
  if (!row) throw new HttpError(409, input.deletedMessage);
  return { row, merged: stale };
}

/** Deletes as a tombstone: the fields go, the id and a new version stay so every device hears of it. */
export async function deleteRecord(tx: Transaction, current: RecordRow): Promise<RecordRow> {
  if (current.deletedAt) return current; // a delete wins, and deleting twice is still deleted
  const version = await nextVersion(tx);
  const [row] = await tx
    .update(records)
    .set({ version, data: {}, fieldChangedAt: {}, deletedAt: new Date(), updatedAt: new Date() })
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
 * Every change the caller may see after `cursor`, oldest first, a page at a time, read in one snapshot.
 * On the last page the cursor moves to the newest version of anyone's (and at least to the tombstone
 * horizon): a quiet caller's cursor must not fall behind the horizon, or it would reset on every pull.
 */
export async function pullChanges(
  db: Database,
  scope: ReadScope,
  request: { cursor: number; limit: number; scope?: string | undefined },
): Promise<PullResponse> {
  const { cursor, limit } = request;
  const fingerprint = scopeFingerprint(scope);
  return db.transaction(
    async (tx) => {
      const [horizonRow] = await tx
        .select({ value: syncMeta.value })
        .from(syncMeta)
        .where(eq(syncMeta.key, HORIZON_KEY));
      const horizon = horizonRow?.value ?? 0;
      const scopeChanged = request.scope !== undefined && request.scope !== fingerprint;
      if (cursor > 0 && (cursor < horizon || scopeChanged))
        return { changes: [], cursor: 0, more: true, reset: true, scope: fingerprint };
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
              .where(and(gt(records.version, cursor), or(...visible)))
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
      let next = page.at(-1)?.version ?? cursor;
      if (!more) {
        const [newest] = await tx.select({ version: max(records.version) }).from(records);
        next = Math.max(next, newest?.version ?? 0, horizon);
      }
      return { changes, cursor: next, more, reset: false, scope: fingerprint };
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
