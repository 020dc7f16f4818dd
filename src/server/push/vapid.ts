import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webPush from 'web-push';
import { ConfigError } from '../config';

// The server's VAPID key pair (RFC 8292): the private key signs every push request, the public key is
// what the browser gets as applicationServerKey when it subscribes. A push service ties each subscription
// to that public key, so changing the pair silently breaks every subscription there is: the pair is made
// once and kept, like the JWT secret (config.ts), or given by the operator for several servers to share.

export type VapidKeys = { publicKey: string; privateKey: string };

export type VapidKeyOptions = {
  dataDir: string;
  /** VAPID_PUBLIC_KEY: the uncompressed P-256 point (65 bytes), base64url, as web-push makes it. */
  publicKey?: string | undefined;
  /** VAPID_PRIVATE_KEY: the 32-byte P-256 private key, base64url. */
  privateKey?: string | undefined;
};

export const VAPID_KEYS_FILE = 'vapid-keys.json';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The key pair to sign push requests with: the one given in VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY
 * (checked to be one P-256 pair), else the one kept in DATA_DIR/vapid-keys.json, made on first start.
 * Throws ConfigError naming the setting (or the file) that is wrong.
 */
export function loadVapidKeys(options: VapidKeyOptions): VapidKeys {
  const publicKey = options.publicKey === '' ? undefined : options.publicKey;
  const privateKey = options.privateKey === '' ? undefined : options.privateKey;
  if (publicKey !== undefined && privateKey !== undefined) {
    const problem = vapidPairProblem(publicKey, privateKey);
    if (problem) throw new ConfigError(`Kincare cannot start: invalid configuration\n  ${problem}`);
    return { publicKey, privateKey };
  }
  if (publicKey !== undefined || privateKey !== undefined) {
    const missing = publicKey === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY';
    const given = publicKey === undefined ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
    throw new ConfigError(
      `Kincare cannot start: invalid configuration\n  ${missing}: must be set together with ${given} (set both, or neither to have a pair made and kept in DATA_DIR)`,
    );
  }
  return persistedVapidKeys(options.dataDir);
}

/**
 * Why `publicKey` and `privateKey` are not one P-256 key pair in web-push's encoding, naming the setting
 * at fault, or null. The public key is derived from the private one and compared, so a pair whose halves
 * come from two different generations is caught here rather than as every push being refused later.
 */
export function vapidPairProblem(publicKey: string, privateKey: string): string | null {
  if (!BASE64URL.test(privateKey))
    return 'VAPID_PRIVATE_KEY: must be base64url (A-Z a-z 0-9 - _, no padding)';
  if (!BASE64URL.test(publicKey)) return 'VAPID_PUBLIC_KEY: must be base64url (A-Z a-z 0-9 - _, no padding)';
  const privateBytes = Buffer.from(privateKey, 'base64url');
  if (privateBytes.length !== 32) return 'VAPID_PRIVATE_KEY: must decode to 32 bytes (a P-256 private key)';
  const publicBytes = Buffer.from(publicKey, 'base64url');
  if (publicBytes.length !== 65 || publicBytes[0] !== 0x04) {
    return 'VAPID_PUBLIC_KEY: must decode to 65 bytes starting with 0x04 (an uncompressed P-256 public key)';
  }
  let derived: Buffer;
  try {
    const curve = createECDH('prime256v1');
    curve.setPrivateKey(privateBytes);
    derived = curve.getPublicKey();
  } catch {
    // Zero, or not below the curve's order: no key at all.
    return 'VAPID_PRIVATE_KEY: is not a valid P-256 private key';
  }
  if (!derived.equals(publicBytes)) {
    return 'VAPID_PUBLIC_KEY: does not belong to VAPID_PRIVATE_KEY (the two must be one pair, e.g. from `npx web-push generate-vapid-keys`)';
  }
  return null;
}

function persistedVapidKeys(dataDir: string): VapidKeys {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, VAPID_KEYS_FILE);
  if (!existsSync(file)) {
    // Written whole to a temporary file and linked into place: a crash never leaves half a file, and of
    // two servers starting at once on one DATA_DIR exactly one link succeeds; the other reads the winner's.
    const made = webPush.generateVAPIDKeys();
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(made)}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, file);
    } catch (error) {
      // EEXIST: another server made it first, use theirs. Anything else (a read-only DATA_DIR) is real.
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  return readKeptKeys(file);
}

function readKeptKeys(file: string): VapidKeys {
  const damaged = (why: string) =>
    new ConfigError(
      `Kincare cannot start: ${file} is damaged (${why}). Restore it from a backup, or delete it to have a new pair made (every device then has to turn reminders on again), or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.`,
    );
  let kept: unknown;
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw damaged('not JSON');
  }
  if (
    typeof kept !== 'object' ||
    kept === null ||
    !('publicKey' in kept) ||
    !('privateKey' in kept) ||
    typeof kept.publicKey !== 'string' ||
    typeof kept.privateKey !== 'string'
  ) {
    throw damaged('no publicKey and privateKey');
  }
  const problem = vapidPairProblem(kept.publicKey, kept.privateKey);
  if (problem) throw damaged(problem.replace(/VAPID_(PUBLIC|PRIVATE)_KEY/g, (name) => nameInFile(name)));
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

function nameInFile(settingName: string): string {
  return settingName === 'VAPID_PUBLIC_KEY' ? 'publicKey' : 'privateKey';
}
