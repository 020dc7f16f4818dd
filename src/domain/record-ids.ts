// Ids of records that any device must be able to name before the server has them (a dose's mark, a day's
// check-in, a patient's medical history): name-based UUIDs made from what identifies the record.

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
