import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';
import {
  judgePassword,
  loadPasswordStrength,
  passwordRefusal,
  type PasswordOwner,
} from '../../domain/password';
import { HttpError } from '../plugins/errors';

// Password hashing: Argon2id with the library defaults (19 MiB, 2 passes, 1 lane), which is OWASP's
// recommended minimum. `Algorithm` is an ambient const enum that isolatedModules cannot read, hence the 2.
const ARGON2ID = { algorithm: 2 } satisfies Options;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/** False (never a throw) for a wrong password or a hash that cannot be parsed. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no account, so that how long sign-in takes does
 * not tell whether an e-mail address is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}

/**
 * 400, on the body's `field`, when the new password is guessable for its owner: built on their name or
 * e-mail address (which the server knows where the body does not name them), or on the product's name.
 * The body's schema judged it already with what the body itself says.
 */
export async function requireUnguessablePassword(
  password: string,
  owner: PasswordOwner,
  field: string,
): Promise<void> {
  await loadPasswordStrength();
  const message = passwordRefusal(judgePassword(password, owner));
  if (message) throw new HttpError(400, message, undefined, { errors: [{ msg: message, path: field }] });
}
