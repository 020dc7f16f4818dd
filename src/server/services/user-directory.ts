import { and, eq, or, type SQL } from 'drizzle-orm';
import type { PublicUser, UserInfo } from '../../domain/auth';
import { careLinks, caregivers, patients, users } from '../db/schema';
import type { Queryable } from './transaction';

// Looks people up for one another: by e-mail (a patient's own caregivers: id, name and role only) and
// by id, where only the person and the people linked to them through care_links may see a profile.
// Nobody learns from either whether an e-mail or an id belongs to someone they are not linked to.

async function findPublicUser(db: Queryable, where: SQL): Promise<PublicUser | null> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      patient_id: patients.id,
      caregiver_id: caregivers.id,
    })
    .from(users)
    .leftJoin(patients, eq(patients.userId, users.id))
    .leftJoin(caregivers, eq(caregivers.userId, users.id))
    .where(where)
    .limit(1);
  return row ?? null;
}

/**
 * The patient's linked caregiver with this e-mail (id, name, role: what the patient already sees of them
 * in their list of caregivers); null for any other e-mail, whether or not it has an account.
 */
export async function findLinkedCaregiverByEmail(
  db: Queryable,
  patientId: string,
  email: string,
): Promise<UserInfo | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(careLinks)
    .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
    .innerJoin(users, eq(users.id, caregivers.userId))
    .where(and(eq(careLinks.patientId, patientId), eq(users.email, email.toLowerCase())))
    .limit(1);
  return row ?? null;
}

export function findPublicUserById(db: Queryable, id: string): Promise<PublicUser | null> {
  return findPublicUser(db, eq(users.id, id));
}

/** True when a care link joins the two users, whichever of them is the patient. */
export async function areLinked(db: Queryable, userA: string, userB: string): Promise<boolean> {
  const [link] = await db
    .select({ id: careLinks.id })
    .from(careLinks)
    .innerJoin(patients, eq(patients.id, careLinks.patientId))
    .innerJoin(caregivers, eq(caregivers.id, careLinks.caregiverId))
    .where(
      or(
        and(eq(patients.userId, userA), eq(caregivers.userId, userB)),
        and(eq(patients.userId, userB), eq(caregivers.userId, userA)),
      ),
    )
    .limit(1);
  return link !== undefined;
}
