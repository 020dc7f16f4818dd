import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { caregivers, careLinks, patients, users } from '../../src/server/db/schema';
import type { TestContext } from './helpers';

// People for tests of record routes, written straight to the database (the /auth routes have tests
// of their own; these tests need many people quickly). Tokens come from the app's own issuer.

export type Person = { userId: string; token: string; patientId: string | null; caregiverId: string | null };

export async function makePerson(
  ctx: TestContext,
  role: 'Patient' | 'Caregiver',
  name = role,
): Promise<Person> {
  const db = ctx.database.db;
  const [user] = await db
    .insert(users)
    .values({
      email: `${randomUUID()}@example.com`,
      name,
      passwordHash: 'not-used',
      role,
      zipCode: '10001',
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error('no user');
  let patientId: string | null = null;
  let caregiverId: string | null = null;
  if (role === 'Patient')
    patientId = (await db.insert(patients).values({ userId: user.id }).returning())[0]?.id ?? null;
  else caregiverId = (await db.insert(caregivers).values({ userId: user.id }).returning())[0]?.id ?? null;
  return {
    userId: user.id,
    token: ctx.app.issueToken({ id: user.id, tokenVersion: 0 }),
    patientId,
    caregiverId,
  };
}

export async function link(ctx: TestContext, patient: Person, caregiver: Person, permissions: string[]) {
  if (!patient.patientId || !caregiver.caregiverId) throw new Error('link needs a patient and a caregiver');
  await ctx.database.db
    .insert(careLinks)
    .values({ patientId: patient.patientId, caregiverId: caregiver.caregiverId, permissions });
}

/** inject() as this person. */
export function as(ctx: TestContext, person: Person, options: InjectOptions) {
  return ctx.app.inject({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${person.token}` },
  });
}
