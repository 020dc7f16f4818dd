import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { INVITE_TTL_HOURS, ONBOARDING_TTL_MINUTES } from '../../domain/caregivers';
import type { Database } from '../db/client';
import { caregivers, careLinks, careRequests, patients, users } from '../db/schema';
import { deriveKey, keyedHash } from './signing';
import type { Queryable } from './transaction';

// The single-use tokens of invitations by e-mail (care_requests): the invite token in the mailed link to
// /invite/register/:token (INVITE_TTL_HOURS) and the onboarding token that registration answers, for the
// first sign-in at /onboarding/:token (ONBOARDING_TTL_MINUTES). Both are 32 random bytes; the table keeps
// only an HMAC of each under a key derived from the server secret, so a leaked table opens no account.

const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** A fresh token: 32 random bytes, base64url (43 characters, as inviteTokenSchema expects). */
export const mintToken = () => randomBytes(32).toString('base64url');

/**
 * The keyed hashes of the two kinds of token, under a sub-key of their own (signing.ts); the prefixes keep an invite token's hash from
 * ever passing for an onboarding token's.
 */
export function careTokenHasher(secret: string) {
  const key = deriveKey(secret, 'care-invites');
  return {
    invite: (token: string) => keyedHash(key, `invite:${token}`),
    onboarding: (token: string) => keyedHash(key, `onboarding:${token}`),
  };
}
export type CareTokenHasher = ReturnType<typeof careTokenHasher>;

export const inviteExpiry = (now = new Date()) => new Date(now.getTime() + INVITE_TTL_HOURS * HOUR_MS);
export const onboardingExpiry = (now = new Date()) =>
  new Date(now.getTime() + ONBOARDING_TTL_MINUTES * MINUTE_MS);

/** A waiting invitation whose token still works: what the registration page shows and registers against. */
export type LiveInvite = {
  id: string;
  patientId: string;
  caregiverEmail: string;
  patientName: string;
  permissions: string[];
  isFamily: boolean;
  relationship: string | null;
  phoneNumber: string | null;
};

/** The live invitation of this token (unused, unexpired, still waiting); `lock` holds its row to the end. */
export async function findLiveInvite(
  db: Queryable,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<LiveInvite | null> {
  const query = db
    .select({
      id: careRequests.id,
      patientId: careRequests.patientId,
      caregiverEmail: careRequests.caregiverEmail,
      patientName: users.name,
      permissions: careRequests.permissions,
      isFamily: careRequests.isFamily,
      relationship: careRequests.relationship,
      phoneNumber: careRequests.phoneNumber,
    })
    .from(careRequests)
    .innerJoin(patients, eq(patients.id, careRequests.patientId))
    .innerJoin(users, eq(users.id, patients.userId))
    .where(
      and(
        eq(careRequests.inviteTokenHash, tokenHash),
        eq(careRequests.status, 'sent'),
        isNull(careRequests.inviteUsedAt),
        gt(careRequests.inviteExpiresAt, new Date()),
      ),
    )
    .limit(1);
  const [row] = options.lock ? await query.for('update', { of: careRequests }) : await query;
  return row ?? null;
}

export type InviteRegistration = { name: string; passwordHash: string; zipCode: string };

/**
 * Registers the invited person: a verified Caregiver account with the invitation's e-mail (the link
 * proves the mailbox), linked to the patient with the invitation's permissions; the invitation is
 * approved and used, and an onboarding token is minted. All or nothing, in one transaction.
 * 'invalid' when the token no longer works; 'taken' when an account with the e-mail appeared meanwhile.
 */
export async function registerThroughInvite(
  db: Database,
  hasher: CareTokenHasher,
  inviteToken: string,
  registration: InviteRegistration,
): Promise<{ onboardingToken: string } | 'invalid' | 'taken'> {
  return db.transaction(async (tx) => {
    const invite = await findLiveInvite(tx, hasher.invite(inviteToken), { lock: true });
    if (!invite) return 'invalid';
    const now = new Date();
    const [user] = await tx
      .insert(users)
      .values({
        email: invite.caregiverEmail,
        name: registration.name,
        passwordHash: registration.passwordHash,
        role: 'Caregiver',
        zipCode: registration.zipCode,
        emailVerifiedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!user) return 'taken';
    const [caregiver] = await tx
      .insert(caregivers)
      .values({ userId: user.id })
      .returning({ id: caregivers.id });
    if (!caregiver) throw new Error('the caregiver row was not created');
    await tx.insert(careLinks).values({
      patientId: invite.patientId,
      caregiverId: caregiver.id,
      permissions: invite.permissions,
      isFamily: invite.isFamily,
      relationship: invite.relationship,
      phoneNumber: invite.phoneNumber,
      requestId: invite.id,
    });
    const onboardingToken = mintToken();
    await tx
      .update(careRequests)
      .set({
        status: 'approved',
        caregiverId: caregiver.id,
        inviteUsedAt: now,
        decidedAt: now,
        onboardingTokenHash: hasher.onboarding(onboardingToken),
        onboardingExpiresAt: onboardingExpiry(now),
        updatedAt: now,
      })
      .where(eq(careRequests.id, invite.id));
    // Other patients may have invited the same e-mail before it had an account: those become received
    // requests of the new caregiver.
    await tx
      .update(careRequests)
      .set({ caregiverId: caregiver.id, updatedAt: now })
      .where(
        and(
          eq(careRequests.caregiverEmail, invite.caregiverEmail),
          eq(careRequests.status, 'sent'),
          isNull(careRequests.caregiverId),
        ),
      );
    return { onboardingToken };
  });
}

/**
 * Uses up an onboarding token: the user id of the caregiver it signs in, for the one caller that marks it
 * used while it is unused and unexpired; null otherwise.
 */
export async function consumeOnboardingToken(db: Queryable, tokenHash: string): Promise<string | null> {
  const now = new Date();
  const [used] = await db
    .update(careRequests)
    .set({ onboardingUsedAt: now, updatedAt: now })
    .where(
      and(
        eq(careRequests.onboardingTokenHash, tokenHash),
        isNull(careRequests.onboardingUsedAt),
        gt(careRequests.onboardingExpiresAt, now),
      ),
    )
    .returning({ caregiverId: careRequests.caregiverId });
  if (!used?.caregiverId) return null;
  const [caregiver] = await db
    .select({ userId: caregivers.userId })
    .from(caregivers)
    .where(eq(caregivers.id, used.caregiverId))
    .limit(1);
  return caregiver?.userId ?? null;
}
