import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Keyed hashes derived from the one server secret (config.jwtSecret). Each use gets its own sub-key,
// an HMAC of a purpose label, so a value made for one purpose (a file-link signature) can never pass
// for another (a password-reset code hash), and the JWT key itself never signs anything else.

export type SigningPurpose =
  | 'file-links'
  | 'password-reset-codes'
  | 'care-invites'
  | 'subscribe-tokens'
  | 'test-billing-webhooks'
  | 'fitbit-tokens';

export function deriveKey(secret: string, purpose: SigningPurpose): Buffer {
  return createHmac('sha256', secret).update(`kincare:${purpose}`).digest();
}

/** HMAC-SHA256 of `data` under `key`, base64url. */
export function keyedHash(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

/** Plain SHA-256, base64url: enough for long random tokens, which cannot be guessed from their hash. */
export function sha256(data: string): string {
  return createHash('sha256').update(data).digest('base64url');
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqualText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
