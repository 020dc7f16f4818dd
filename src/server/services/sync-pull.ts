import { createHash } from 'node:crypto';
import { z } from 'zod';
import { and, asc, eq, gt, inArray, max, or, type SQL } from 'drizzle-orm';
import type { Change, PullResponse, SyncedResource } from '../../domain/sync';
import { SYNCED_RESOURCES } from '../../domain/sync';
import type { Database } from '../db/client';
import { records, syncMeta } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { ReadScope } from './access';
import { HORIZON_KEY, toWire } from './records';

// The pull (GET /api/sync/pull): every change a caller may see, in pages, over the records that
// records.ts writes. It relies on records.ts's promise that versions become visible in the order they
// were handed out.

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
 * snapshot. Versions commit in order (see nextVersion in records.ts), so paging by version over several
 * requests misses nothing: what commits meanwhile simply comes on a later page.
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
