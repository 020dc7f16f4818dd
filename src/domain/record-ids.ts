import { RESOURCES, type SyncedResource } from './resources/list';

// Ids of records that any device must be able to name before the server has them (a dose's mark, a day's
// check-in, a patient's medical history): name-based UUIDs made from what identifies the record. Anyone
// who knows what a name is made of (a patient's id, which a caregiver sees) can work such an id out, so it
// belongs to its record alone: the server makes it itself from the record's patient (and day, or dose) and
// takes no other id for that record, and it refuses an id of this layout for a record of any other kind
// (isNameBasedId), whether or not the record it would name exists yet.

/** The resources whose ids are made from a name (their declarations say so); every other record's is random. */
export const NAME_BASED_ID_RESOURCES: ReadonlySet<SyncedResource> = new Set<SyncedResource>(
  RESOURCES.filter((resource) => resource.ids === 'name-based').map((resource) => resource.key),
);

export const RECORD_ID_MESSAGES = {
  nameBased: 'This id is kept for a record the app names itself. Create the record with a new random id.',
} as const;

/** A name-based UUID (version 5 layout) from the SHA-1 digest of its name. */
export function uuidFromDigest(digest: Uint8Array): string {
  const bytes = Array.from(digest.slice(0, 16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The name-based UUID of `name`, through Web Crypto (the browser, the service worker and Node 20 have it). */
export async function uuidFromName(name: string): Promise<string> {
  const bytes = new TextEncoder().encode(name);
  return uuidFromDigest(new Uint8Array(await crypto.subtle.digest('SHA-1', bytes)));
}

/** Whether `id` has the layout uuidFromDigest gives (version 5), as no random id has. */
export function isNameBasedId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-5/i.test(id);
}
