import { RESOURCES } from '../domain/resources/list';
import { BLOB_REFERENCE_PREFIX, type PushChange, type SyncedResource } from '../domain/sync';
import type { OutboxEntry } from './db';

// How each synced resource's queued changes go to the server: as items of a batched replay, each the same
// change as the resource's REST call. Nothing here names a resource: what differs between them comes from
// their declarations (src/domain/resources).

/** The payload with each `blob:<id>` reference replaced by the uploaded file's key. */
function withFileKeys(
  payload: Record<string, unknown>,
  keys: ReadonlyMap<string, string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([field, value]) => [
      field,
      typeof value === 'string' && value.startsWith(BLOB_REFERENCE_PREFIX)
        ? (keys.get(value.slice(BLOB_REFERENCE_PREFIX.length)) ?? value)
        : value,
    ]),
  );
}

/** The field that names a record to a person, per resource (its declaration's title field). */
export const RESOURCE_TITLE_FIELD = Object.fromEntries(
  RESOURCES.map((resource) => [resource.key, resource.titleField]),
) as Record<SyncedResource, string>;

/** How each resource's ids are made, per resource (its declaration's `ids`). */
export const RESOURCE_ID_KIND = Object.fromEntries(
  RESOURCES.map((resource) => [resource.key, resource.ids]),
) as Record<SyncedResource, 'random' | 'name-based'>;

/**
 * A queued change as an item of `POST /api/sync/push`: the same change its REST call would make. The
 * payload's file references become the uploaded files' keys; the edit time goes along for the merge.
 */
export function pushChangeFor(entry: OutboxEntry, keys: ReadonlyMap<string, string> = new Map()): PushChange {
  const item: PushChange = {
    idempotency_key: entry.idempotencyKey,
    resource: entry.resource,
    op: entry.op,
    id: entry.entityId,
  };
  if (entry.op === 'delete') return item;
  if (entry.op === 'update' && entry.baseVersion !== undefined) item.base_version = entry.baseVersion;
  item.payload = { ...withFileKeys(entry.payload, keys), changed_at: entry.changedAt };
  return item;
}
