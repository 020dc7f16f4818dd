import { BLOB_REFERENCE_PREFIX, type SyncedResource } from '../domain/sync';
import type { OutboxEntry } from './db';
import type { TransportRequest } from './sync-transport';

// How each synced resource's queued changes become the REST calls of SPEC section 7. A later resource
// plugs in here with its path (and its view table in db.ts).

export const RESOURCE_PATHS: Record<SyncedResource, string> = {
  appointments: '/appointments',
};

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

/** The field that names a record to a person, per resource. */
export const RESOURCE_TITLE_FIELD: Record<SyncedResource, string> = {
  appointments: 'appointment_title',
};

export function requestFor(
  entry: OutboxEntry,
  baseVersion: number,
  keys: ReadonlyMap<string, string> = new Map(),
): TransportRequest {
  const path = RESOURCE_PATHS[entry.resource];
  const key = entry.idempotencyKey;
  const payload = withFileKeys(entry.payload, keys);
  if (entry.op === 'create')
    return {
      method: 'POST',
      url: path,
      body: { ...payload, changed_at: entry.changedAt },
      idempotencyKey: key,
    };
  if (entry.op === 'update') {
    return {
      method: 'PUT',
      url: `${path}/${entry.entityId}`,
      body: { ...payload, base_version: baseVersion, changed_at: entry.changedAt },
      idempotencyKey: key,
    };
  }
  return { method: 'DELETE', url: `${path}/${entry.entityId}`, idempotencyKey: key };
}
