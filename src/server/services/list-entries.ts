import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Permission } from '../../domain/permissions';
import type { SyncedResource } from '../../domain/sync';
import { records } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { AccessChecks } from './record-mutations';
import { notAllowed } from './access';
import { findRecord, type RecordRow } from './records';
import type { Queryable } from './transaction';

// What a patient's lists of directory entries (my doctors, my pharmacies) share: finding an entry for a
// caller, and knowing whether a directory id is listed already (a second entry would show it twice).

/**
 * The entry if it exists and the caller may do `permission` on it (`mayChange`): 404 for a caller who may
 * not even read it (never reveal that it exists), 403 for one who may read it but not do this.
 */
export async function listEntryFor(
  db: Queryable,
  access: AccessChecks,
  entry: { resource: SyncedResource; id: string; notFound: string; read: Permission },
  mayChange: (row: RecordRow) => Promise<boolean>,
  allowDeleted = false,
): Promise<RecordRow> {
  const row = await findRecord(db, entry.resource, entry.id);
  if (!row || (row.deletedAt && !allowDeleted)) throw new HttpError(404, entry.notFound);
  if (await mayChange(row)) return row;
  if (await access.mayActOn(db, row.patientId, entry.read)) throw notAllowed();
  throw new HttpError(404, entry.notFound);
}

/** The live entries of the patient's list whose `field` holds `value`. */
export async function listedEntries(
  db: Queryable,
  resource: SyncedResource,
  patientId: string,
  match: { field: string; value: string | boolean },
): Promise<RecordRow[]> {
  return db
    .select()
    .from(records)
    .where(
      and(
        eq(records.resource, resource),
        eq(records.patientId, patientId),
        isNull(records.deletedAt),
        typeof match.value === 'boolean'
          ? sql`(${records.data}->>${match.field})::boolean = ${match.value}`
          : sql`${records.data}->>${match.field} = ${match.value}`,
      ),
    );
}
