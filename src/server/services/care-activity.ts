import { and, desc, eq, sql } from 'drizzle-orm';
import type { ActivityEntry } from '../../domain/caregivers';
import { readPermissionOf, RESOURCE_READ_PERMISSION, type Permission } from '../../domain/permissions';
import type { Change } from '../../domain/sync';
import { careActivity } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import type { Queryable } from './transaction';

// What caregivers did with a patient's records, in care_activity, for the patient to see on /care-giver:
// each write a caregiver made (recorded in the write's own transaction, so a write rolled back leaves no
// line and a replayed answer, which writes nothing, adds none) and the deliveries of the patient's records
// to a caregiver's device (a page of a pull, a REST list), counted per caregiver, resource and day. A
// patient's own actions are not recorded.
//
// Reads must not hide writes: a caregiver who reads a list hundreds of times adds to one day's count, not
// hundreds of lines, and the log lists the newest writes and the newest delivery lines each up to the
// limit, so no number of reads pushes a write out of what the patient sees.

type WriteOp = 'create' | 'update' | 'delete';

/** The resource whose records `permission` acts on (EditAppointment -> appointments), if it is a synced one. */
function resourceOf(permission: Permission): string | undefined {
  const read = readPermissionOf(permission);
  return Object.entries(RESOURCE_READ_PERMISSION).find(([, needed]) => needed === read)?.[0];
}

/** The kind of write a permission allows: the catalogue names them Add..., Edit..., Delete.... */
function opOf(permission: Permission): WriteOp {
  if (permission.startsWith('Add')) return 'create';
  if (permission.startsWith('Delete')) return 'delete';
  return 'update';
}

/** The id of the record an answer is about ({ data: { id } }), or null. */
function recordIdOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('data' in body)) return null;
  const { data } = body;
  if (typeof data !== 'object' || data === null || !('id' in data)) return null;
  return typeof data.id === 'string' ? data.id : null;
}

/**
 * Records a successful write by a caregiver on a patient's records: `permission` is the one the write
 * needed (it says what was done to which resource), `body` the answer (it names the record).
 * Nothing for the patient's own writes.
 */
export async function recordWrite(
  tx: Queryable,
  auth: AuthUser,
  write: { patientId: string; permission: Permission; body: unknown },
): Promise<void> {
  if (auth.patientId === write.patientId) return;
  const resource = resourceOf(write.permission);
  if (!resource) return;
  await tx.insert(careActivity).values({
    patientId: write.patientId,
    actorUserId: auth.userId,
    actorName: auth.name,
    kind: 'write',
    resource,
    op: opOf(write.permission),
    recordId: recordIdOf(write.body),
  });
}

type Delivery = { patientId: string; resource: string; count: number };

/**
 * Adds deliveries to their caregiver's line of today (UTC) for each patient and resource, creating it
 * the first time: `count` grows by the records delivered, `at` becomes the latest delivery's time.
 */
async function countDeliveries(db: Queryable, auth: AuthUser, deliveries: Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insert(careActivity)
    .values(
      deliveries.map((delivery) => ({
        ...delivery,
        actorUserId: auth.userId,
        actorName: auth.name,
        kind: 'delivery' as const,
        day: sql`(now() at time zone 'UTC')::date`,
      })),
    )
    .onConflictDoUpdate({
      target: [careActivity.patientId, careActivity.actorUserId, careActivity.resource, careActivity.day],
      targetWhere: sql`kind = 'delivery'`,
      set: {
        count: sql`${careActivity.count} + excluded.count`,
        at: sql`greatest(${careActivity.at}, excluded.at)`,
        actorName: sql`excluded.actor_name`,
      },
    });
}

/** Records that `count` of a patient's `resource` records reached a caregiver (nothing for 0 or a patient). */
export async function recordDelivery(db: Queryable, auth: AuthUser, delivery: Delivery): Promise<void> {
  if (!auth.caregiverId || auth.patientId === delivery.patientId || delivery.count <= 0) return;
  await countDeliveries(db, auth, [delivery]);
}

/**
 * Records the deliveries of one page of a pull: for each patient and resource, the number of that
 * patient's records the page carried. Tombstones carry no data, so they are not counted.
 */
export async function recordPulledPage(db: Queryable, auth: AuthUser, changes: readonly Change[]) {
  if (!auth.caregiverId) return;
  const counts = new Map<string, Delivery>();
  for (const change of changes) {
    const patientId = change.data?.patient_id;
    if (typeof patientId !== 'string' || patientId === auth.patientId) continue;
    const key = `${patientId} ${change.resource}`;
    const entry = counts.get(key) ?? { patientId, resource: change.resource, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  await countDeliveries(db, auth, [...counts.values()]);
}

/**
 * The patient's activity, newest first: their caregivers' newest `limit` writes and newest `limit`
 * delivery lines (each a caregiver's day with one kind of record), so the one never crowds out the other.
 */
export async function listActivity(
  db: Queryable,
  patientId: string,
  limit: number,
): Promise<ActivityEntry[]> {
  const newest = (kind: 'write' | 'delivery') =>
    db
      .select()
      .from(careActivity)
      .where(and(eq(careActivity.patientId, patientId), eq(careActivity.kind, kind)))
      .orderBy(desc(careActivity.at), desc(careActivity.id))
      .limit(limit);
  const [writes, deliveries] = [await newest('write'), await newest('delivery')];
  const rows = [...writes, ...deliveries].sort(
    (a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor_name: row.actorName,
    kind: row.kind,
    resource: row.resource,
    op: row.op,
    record_id: row.recordId,
    count: row.count,
  }));
}
