import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailVerifications, users } from '../db/schema';
import { sha256 } from './signing';
import type { Queryable } from './transaction';

// E-mail verification links, in the email_verifications table. Only a SHA-256 of each token is kept:
// a leaked table cannot verify anyone. A link works once, for 24 hours.

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Sign-in re-sends a link to an unverified account, at most this often. */
const RESEND_INTERVAL_MS = 5 * 60 * 1000;

export async function createVerificationToken(db: Queryable, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insert(emailVerifications)
    .values({ tokenHash: sha256(token), userId, expiresAt: new Date(Date.now() + VERIFICATION_TTL_MS) });
  return token;
}

/** Marks the token used and its user verified; false when the token is unknown, used or expired. */
export async function consumeVerificationToken(db: Database, token: string): Promise<boolean> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailVerifications.tokenHash, sha256(token)),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, now),
        ),
      )
      .returning({ userId: emailVerifications.userId });
    if (!link) return false;
    await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, link.userId), isNull(users.emailVerifiedAt)));
    return true;
  });
}

/** True when a link went out in the last few minutes (its expiry is more than TTL - interval away). */
export async function hasRecentVerificationLink(db: Database, userId: string): Promise<boolean> {
  const recentExpiry = new Date(Date.now() + VERIFICATION_TTL_MS - RESEND_INTERVAL_MS);
  const [recent] = await db
    .select({ userId: emailVerifications.userId })
    .from(emailVerifications)
    .where(
      and(
        eq(emailVerifications.userId, userId),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, recentExpiry),
      ),
    )
    .limit(1);
  return recent !== undefined;
}
