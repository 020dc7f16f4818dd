import { deriveKey, keyedHash, safeEqualText } from '../signing';

// The short-lived token of the login's 403 SUBSCRIPTION_REQUIRED (README.md beside this file): it lets
// that person, and only them, choose a plan before they can sign in. It names the user and its expiry and
// is signed with a key of its own, so it cannot pass for a session token or for anything else the server
// signs.

export const SUBSCRIBE_TOKEN_TTL_SECONDS = 30 * 60;

export function issueSubscribeToken(secret: string, userId: string, now = new Date()): string {
  const expires = Math.floor(now.getTime() / 1000) + SUBSCRIBE_TOKEN_TTL_SECONDS;
  const claims = `${userId}.${expires}`;
  return `${claims}.${keyedHash(deriveKey(secret, 'subscribe-tokens'), claims)}`;
}

/** Whether `token` is a live subscribe token of `userId`. */
export function isSubscribeTokenOf(secret: string, token: string, userId: string, now = new Date()): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [tokenUser = '', expiresText = '', signature = ''] = parts;
  const expected = keyedHash(deriveKey(secret, 'subscribe-tokens'), `${tokenUser}.${expiresText}`);
  if (!safeEqualText(signature, expected)) return false;
  const expires = Number(expiresText);
  return tokenUser === userId && Number.isInteger(expires) && expires * 1000 > now.getTime();
}
