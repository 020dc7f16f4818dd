import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { caregivers, patients, users } from '../db/schema';
import type { Role } from '../../domain/roles';
import { createVerificationToken } from './email-verifications';
import type { Queryable } from './transaction';

// Accounts in the users table, with the patients or caregivers row that the role needs (created in
// the same transaction, so there is never a Patient without a patient id). E-mails are stored
// lower-case, which makes the unique index case-insensitive.

export type NewAccount = {
  name: string;
  email: string;
  passwordHash: string;
  role: Extract<Role, 'Patient' | 'Caregiver'>;
  zipCode: string;
  /** The plan a corporate sign-up (/signup/:plan) chose: offered first when the patient picks a plan. */
  signupPlanId?: string | null;
};

export type Account = {
  id: string;
  name: string;
  email: string;
  role: Role;
  passwordHash: string;
  emailVerifiedAt: Date | null;
  signupPlanId: string | null;
};

/** Creates the account and its first verification token; null when the e-mail is taken. */
export async function createAccount(
  db: Database,
  account: NewAccount,
): Promise<{ userId: string; verificationToken: string } | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ ...account, email: account.email.toLowerCase() })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!user) return null;
    const roleTable = account.role === 'Patient' ? patients : caregivers;
    await tx.insert(roleTable).values({ userId: user.id });
    return { userId: user.id, verificationToken: await createVerificationToken(tx, user.id) };
  });
}

const accountColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  passwordHash: users.passwordHash,
  emailVerifiedAt: users.emailVerifiedAt,
  signupPlanId: users.signupPlanId,
};

export async function findAccountByEmail(db: Queryable, email: string): Promise<Account | null> {
  const [row] = await db
    .select(accountColumns)
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function findAccountById(db: Queryable, id: string): Promise<Account | null> {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * Stores a new password hash; null when the account is gone. Ending the sessions that the old password
 * opened is the caller's part (services/sessions.ts), in the same transaction.
 */
export async function replacePassword(
  db: Queryable,
  userId: string,
  passwordHash: string,
  options: { markEmailVerified?: boolean } = {},
): Promise<{ id: string } | null> {
  const now = new Date();
  const [updated] = await db
    .update(users)
    .set({
      passwordHash,
      updatedAt: now,
      // Receiving the reset code proves the mailbox as well as a verification link would.
      ...(options.markEmailVerified
        ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` }
        : {}),
    })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated ?? null;
}
