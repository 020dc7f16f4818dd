import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { passwordResets } from '../db/schema';
import { deriveKey, keyedHash, safeEqualText } from './signing';
import type { Queryable } from './transaction';

// Password-reset codes, in the password_resets table: 6 digits, 10 minutes, 5 tries, single use.
// A 6-digit code has only a million values, so a plain hash would be reversed in a second: the table
// keeps an HMAC under a key derived from the server secret, which a leaked table does not contain.
// Asking for a new code retires the earlier ones, so at most one code per user is live.

export const RESET_CODE_TTL_MS = 10 * 60 * 1000;
export const RESET_CODE_MAX_TRIES = 5;
/** After verify-otp, the new password must be set within this window. */
export const RESET_VERIFIED_WINDOW_MS = 10 * 60 * 1000;

export type CodeCheck = 'verified' | 'wrong' | 'too-many-tries';

export function createResetCodes(db: Database, secret: string) {
  const key = deriveKey(secret, 'password-reset-codes');
  const hashOf = (userId: string, code: string) => keyedHash(key, `${userId}:${code}`);

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
    if (!live) return 'wrong';
    const [attempt] = await db
      .update(passwordResets)
      .set({ attempts: sql`${passwordResets.attempts} + 1` })
      .where(and(eq(passwordResets.id, live.id), lt(passwordResets.attempts, RESET_CODE_MAX_TRIES)))
      .returning({ otpHash: passwordResets.otpHash, attempts: passwordResets.attempts });
    if (!attempt) return 'too-many-tries';
    if (safeEqualText(attempt.otpHash, hashOf(userId, code))) {
      await db.update(passwordResets).set({ verifiedAt: now }).where(eq(passwordResets.id, live.id));
      return 'verified';
    }
    return attempt.attempts >= RESET_CODE_MAX_TRIES ? 'too-many-tries' : 'wrong';
  }

  return { issue, check };
}

/** Uses up the user's code verified in the last 10 minutes; false when there is none. */
export async function consumeVerifiedResetCode(db: Queryable, userId: string): Promise<boolean> {
  const now = new Date();
  const used = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        isNotNull(passwordResets.verifiedAt),
        gt(passwordResets.verifiedAt, new Date(now.getTime() - RESET_VERIFIED_WINDOW_MS)),
      ),
    )
    .returning({ id: passwordResets.id });
  return used.length > 0;
}
