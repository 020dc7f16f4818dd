import type { SyncedResource, RESOURCES } from './list';
import type { RecordsOf } from './records-of';
import { vitalsRecords } from './vitals-records';

// The fields, checks and messages of each resource served from its declaration alone (`servedFrom:
// 'records'` in declare.ts), by key: the server's routes and checks (src/server/services/record-resource.ts)
// and the device's write path (src/local/record-writes.ts) read them here. Apart from the declarations
// because the schemas need the schema library, which the first paint does without. The type check
// refuses a declared resource missing here, and a key here that is not declared so.

/** The keys of the resources served from their records. */
export type RecordsResource = Extract<(typeof RESOURCES)[number], { servedFrom: 'records' }>['key'];

export const DECLARED_RECORDS = {
  vitals: vitalsRecords,
} as const satisfies Record<RecordsResource, RecordsOf>;

export function recordsOfResource(key: RecordsResource): RecordsOf {
  return DECLARED_RECORDS[key];
}

/** Whether a resource is served from its records (a resource with code of its own is not). */
export function isRecordsResource(key: SyncedResource): key is RecordsResource {
  return Object.hasOwn(DECLARED_RECORDS, key);
}
