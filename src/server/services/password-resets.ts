import { randomBytes, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { passwordResets } from '../db/schema';
import { deriveKey, keyedHash, safeEqualText } from './signing';
import type { Queryable } from './transaction';

// Password-reset codes, in the password_resets table: 6 digits, 10 minutes, 5 tries, single use.
// A 6-digit code has only a million values, so a plain hash would be reversed in a second: the table
// keeps an HMAC under a key derived from the server secret, which a leaked table does not contain.
// Asking for a new code retires the earlier ones, so at most one code per user is live.
// A verified code yields a reset token: random, single use, kept only as a keyed hash on the code's own
// row, so it is bound to that person and that code, and reset-password must present it.

export const RESET_CODE_TTL_MS = 10 * 60 * 1000;
export const RESET_CODE_MAX_TRIES = 5;
/** After verify-otp, the new password must be set within this window, with the token it answered. */
export const RESET_VERIFIED_WINDOW_MS = 10 * 60 * 1000;

export type CodeCheck = { result: 'verified'; resetToken: string } | { result: 'wrong' | 'too-many-tries' };

export function createResetCodes(db: Database, secret: string) {
  const key = deriveKey(secret, 'password-reset-codes');
  const hashOf = (userId: string, code: string) => keyedHash(key, `${userId}:${code}`);
  // A different prefix, so a code's hash can never pass for a token's and the other way round.
  const tokenHashOf = (userId: string, resetId: string, token: string) =>
    keyedHash(key, `reset-token:${userId}:${resetId}:${token}`);

  /** Retires the user's unused codes and stores a new one; returns the code to mail. */
  async function issue(userId: string): Promise<string> {
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    const now = new Date();
    await db.transaction(async (tx) => {
      await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
      await tx.insert(passwordResets).values({
        userId,
        otpHash: hashOf(userId, code),
        expiresAt: new Date(now.getTime() + RESET_CODE_TTL_MS),
      });
    });
    return code;
  }

  /**
   * Checks a code against the user's newest live code. The try is counted before the comparison (an
   * atomic increment guarded by the limit), so parallel guesses cannot get more than five comparisons.
   * A right code answers a fresh reset token (verifying the same code again replaces the token).
   */
  async function check(userId: string, code: string): Promise<CodeCheck> {
    const now = new Date();
    const [live] = await db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.userId, userId),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .orderBy(desc(passwordResets.createdAt))
      .limit(1);
    if (!live) return { result: 'wrong' };
    const [attempt] = await db
      .update(passwordResets)
      .set({ attempts: sql`${passwordResets.attempts} + 1` })
      .where(and(eq(passwordResets.id, live.id), lt(passwordResets.attempts, RESET_CODE_MAX_TRIES)))
      .returning({ otpHash: passwordResets.otpHash, attempts: passwordResets.attempts });
    if (!attempt) return { result: 'too-many-tries' };
    if (safeEqualText(attempt.otpHash, hashOf(userId, code))) {
      const resetToken = randomBytes(32).toString('base64url');
      await db
        .update(passwordResets)
        .set({ verifiedAt: now, resetTokenHash: tokenHashOf(userId, live.id, resetToken) })
        .where(eq(passwordResets.id, live.id));
      return { result: 'verified', resetToken };
    }
    return { result: attempt.attempts >= RESET_CODE_MAX_TRIES ? 'too-many-tries' : 'wrong' };
  }

  /** The user's unused code whose token this is, verified in the last 10 minutes; null otherwise. */
  async function findByToken(db: Queryable, userId: string, token: string): Promise<string | null> {
    const now = new Date();
    const rows = await db
      .select({ id: passwordResets.id, resetTokenHash: passwordResets.resetTokenHash })
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.userId, userId),
          isNull(passwordResets.usedAt),
          gt(passwordResets.verifiedAt, new Date(now.getTime() - RESET_VERIFIED_WINDOW_MS)),
        ),
      );
    const match = rows.find(
      (row) =>
        row.resetTokenHash !== null && safeEqualText(row.resetTokenHash, tokenHashOf(userId, row.id, token)),
    );
    return match?.id ?? null;
  }

  /**
   * Uses up the token: true only for the one caller that marks it used while it is still valid, so two
   * resets racing with one token cannot both succeed. Meant to run in the transaction that sets the password.
   */
  async function consumeToken(db: Queryable, userId: string, token: string): Promise<boolean> {
    const id = await findByToken(db, userId, token);
    if (!id) return false;
    const now = new Date();
    const used = await db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResets.id, id),
          isNull(passwordResets.usedAt),
          gt(passwordResets.verifiedAt, new Date(now.getTime() - RESET_VERIFIED_WINDOW_MS)),
        ),
      )
      .returning({ id: passwordResets.id });
    return used.length > 0;
  }

  return {
    issue,
    check,
    /** True when the token is valid now (reset-password checks it before spending time on a hash). */
    isValidToken: async (userId: string, token: string) => (await findByToken(db, userId, token)) !== null,
    consumeToken,
  };
}
