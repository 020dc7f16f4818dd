import type { SyncedResource } from '../domain/sync';
import type { OutboxEntry } from './db';
import type { TransportRequest } from './sync-transport';

// How each synced resource's queued changes become the REST calls of SPEC section 7. A later resource
// plugs in here with its path (and its view table in db.ts).

export const RESOURCE_PATHS: Record<SyncedResource, string> = {
  appointments: '/appointments',
};

export function requestFor(entry: OutboxEntry, baseVersion: number): TransportRequest {
  const path = RESOURCE_PATHS[entry.resource];
  const key = entry.idempotencyKey;
  if (entry.op === 'create') return { method: 'POST', url: path, body: { ...entry.payload, changed_at: entry.changedAt }, idempotencyKey: key };
  if (entry.op === 'update') {
    return { method: 'PUT', url: `${path}/${entry.entityId}`, body: { ...entry.payload, base_version: baseVersion, changed_at: entry.changedAt }, idempotencyKey: key };
  }
  return { method: 'DELETE', url: `${path}/${entry.entityId}`, idempotencyKey: key };
}
