import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Fitbit's tokens at rest: AES-256-GCM under the key of config.fitbit.tokenKey, each with its own random
// 96-bit nonce. The patient's id is bound in as associated data, so a box copied onto another patient's
// row does not open. Stored as 'v1.' + base64url(nonce | tag | ciphertext).

const VERSION = 'v1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function sealToken(key: Buffer, token: string, patientId: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(patientId));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** The token, or null when the box cannot be opened (another key, another row, damaged). */
export function openToken(key: Buffer, box: string, patientId: string): string | null {
  if (!box.startsWith(VERSION)) return null;
  const bytes = Buffer.from(box.slice(VERSION.length), 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(patientId));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}

/** RFC 7636: a 43-character verifier (32 random bytes) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
