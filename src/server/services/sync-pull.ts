import { createHash } from 'node:crypto';
import { z } from 'zod';
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { Change, PullResponse, SyncedResource } from '../../domain/sync';
import { SYNCED_RESOURCES } from '../../domain/sync';
import type { Database } from '../db/client';
import { records, syncMeta } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { ReadScope } from './access';
import { HORIZON_KEY, toWire, wireColumns, type Fields } from './records';

// The pull (GET /api/sync/pull): every change a caller may see, in pages, over the records that
// records.ts writes. It relies on records.ts's promise that versions become visible in the order they
// were handed out.

/**
 * What the caller sees of the records in their scope when that is less than the whole of some of them (a
 * check-in without the mood screening the patient does not share: services/mood-screening.ts). The pull
 * passes each record through `shown`; `key` names what is left out, and goes into the scope's fingerprint,
 * so when it changes the device pulls everything again and each record it holds is replaced by the record
 * as now shown. An empty key leaves the fingerprint as it was.
 */
export type PullView = {
  key: string;
  shown: (row: { resource: string; patientId: string }, record: Fields) => Fields;
};
const WHOLE: PullView = { key: '', shown: (_row, record) => record };

/**
 * A short fingerprint of what the caller may see; it changes when a caregiver gains or loses access, or
 * when what they see of the records changes (the view's key).
 */
export function scopeFingerprint(scope: ReadScope, view: PullView = WHOLE): string {
  let canonical = SYNCED_RESOURCES.map(
    (resource) => `${resource}:${[...scope[resource]].sort().join(',')}`,
  ).join(';');
  if (view.key) canonical += `;${view.key}`;
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

/** The placeholder of the patients whose records of `resource` the caller may see (comma-separated ids). */
const scopeParameter = (resource: SyncedResource) => `patients_${resource}`;

/**
 * One page of rows after `from`, with the tombstone horizon and the newest version of anyone's, read in
 * one statement, so in one snapshot (the page and the newest version must agree, see pullChanges) and
 * without a transaction around it: one round trip where a transaction took five. Built once per database
 * and prepared; the scope goes as one text parameter per resource, so any number of patients fits.
 */
function preparePage(db: Database) {
  const visible = SYNCED_RESOURCES.map((resource) => {
    const patientIds = sql.placeholder(scopeParameter(resource));
    return and(
      eq(records.resource, resource),
      sql`${records.patientId} = any(string_to_array(${patientIds}, ',')::uuid[])`,
    );
  });
  const page = db
    .select({ ...wireColumns, resource: records.resource, deletedAt: records.deletedAt })
    .from(records)
    .where(and(gt(records.version, sql.placeholder('from')), or(...visible)))
    .orderBy(asc(records.version))
    .limit(sql.placeholder('limit'))
    .as('page');
  // Always one row, with the horizon and the newest version, even when the page is empty (at the head).
  return db
    .select({
      horizon: sql<
        number | null
      >`(select ${syncMeta.value} from ${syncMeta} where ${syncMeta.key} = ${HORIZON_KEY})`.mapWith(Number),
      newest: sql<number | null>`(select max(${records.version}) from ${records})`.mapWith(Number),
      record: {
        id: page.id,
        resource: page.resource,
        patientId: page.patientId,
        version: page.version,
        data: page.data,
        deletedAt: page.deletedAt,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
      },
    })
    .from(sql`(select 1) as meta`)
    .leftJoinLateral(page, sql`true`)
    .orderBy(asc(page.version))
    .prepare('sync_pull_page');
}

const pageQueries = new WeakMap<Database, ReturnType<typeof preparePage>>();

async function readPage(db: Database, scope: ReadScope, from: number, limit: number) {
  let query = pageQueries.get(db);
  if (!query) {
    query = preparePage(db);
    pageQueries.set(db, query);
  }
  const rows = await query.execute({
    from,
    limit: limit + 1,
    ...Object.fromEntries(
      SYNCED_RESOURCES.map((resource) => [scopeParameter(resource), scope[resource].join(',')]),
    ),
  });
  const first = rows[0];
  return {
    horizon: first?.horizon ?? 0,
    newest: first?.newest ?? 0,
    rows: rows.flatMap(({ record }) => (record ? [record] : [])),
  };
}

/**
 * Every change the caller may see after `cursor`, oldest first, a page at a time, each page read in one
 * snapshot. Versions commit in order (see nextVersion in records.ts), so paging by version over several
 * requests misses nothing: what commits meanwhile simply comes on a later page.
 *
 * The first page decides whether the device must start over (its cursor is older than the tombstone
 * horizon, or what it may see has changed); then that answer is already the first page from 0, marked
 * `reset`, so a reset is one pass. Later pages, asked with the previous page's token, start over only if
 * the caller's access changed during the pull, or tombstones this incremental pull still needed were purged.
 * On the last page the cursor moves to the newest version of anyone's (and at least to the horizon): a
 * quiet caller's cursor must not fall behind the horizon, or it would reset on every pull.
 *
 * The page is read as if no reset were due, with the horizon of the same snapshot; when that horizon says
 * start over, the page is read again from 0 (a snapshot of its own: a full pull needs nothing older).
 */
export async function pullChanges(
  db: Database,
  scope: ReadScope,
  request: { cursor: number; limit: number; scope?: string | undefined; token?: string | undefined },
  view: PullView = WHOLE,
): Promise<PullResponse> {
  const { limit } = request;
  const fingerprint = scopeFingerprint(scope, view);
  const continued = request.token === undefined ? undefined : decodeToken(request.token);
  const position = continued ? continued.position : request.cursor;
  let snapshot = await readPage(db, scope, position, limit);
  const { horizon } = snapshot;
  let reset: boolean;
  let start: number;
  if (continued) {
    reset = continued.scope !== fingerprint || (continued.start > 0 && continued.start < horizon);
    start = reset ? 0 : continued.start;
  } else {
    const scopeChanged = request.scope !== undefined && request.scope !== fingerprint;
    reset = request.cursor > 0 && (request.cursor < horizon || scopeChanged);
    start = reset ? 0 : request.cursor;
  }
  const from = reset ? 0 : position;
  if (from !== position) snapshot = await readPage(db, scope, from, limit);
  const page = snapshot.rows.slice(0, limit);
  const more = snapshot.rows.length > limit;
  const changes: Change[] = page.map((row) => ({
    resource: row.resource as SyncedResource,
    id: row.id,
    version: row.version,
    deleted: row.deletedAt !== null,
    data: row.deletedAt ? null : view.shown(row, toWire(row)),
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
  next = Math.max(next, snapshot.newest, snapshot.horizon);
  return { changes, cursor: next, more, reset, scope: fingerprint };
}
