import type { InjectOptions } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { Role } from '../../src/domain/roles';
import { careLinks, records } from '../../src/server/db/schema';
import { insertCareLink, insertPerson, type Person } from '../fixtures/people';
import type { TestContext } from './helpers';

export type { Person };

export function makePerson(
  ctx: TestContext,
  role: Role,
  name: string = role,
  options: { acceptedBetaPolicy?: boolean } = {},
): Promise<Person> {
  return insertPerson(ctx.database.db, ctx.app, role, name, options);
}

/** Grants a caregiver these permissions on a patient's records; answers the link's id (a permission_id). */
export async function link(
  ctx: TestContext,
  patient: Person,
  caregiver: Person,
  permissions: string[],
): Promise<string> {
  await insertCareLink(ctx.database.db, patient, caregiver, permissions);
  const [row] = await ctx.database.db
    .select({ id: careLinks.id })
    .from(careLinks)
    .where(
      and(
        eq(careLinks.patientId, patient.patientId ?? ''),
        eq(careLinks.caregiverId, caregiver.caregiverId ?? ''),
      ),
    );
  if (!row) throw new Error('no link');
  return row.id;
}

/** inject() as this person. */
export function as(ctx: TestContext, person: Pick<Person, 'token'>, options: InjectOptions) {
  return ctx.app.inject({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${person.token}` },
  });
}

/**
 * Says a record was added to Kincare at `addedAt`: a test that sweeps a fixed day's doses needs its
 * prescription to have existed then (a dose due before its prescription was added is never reminded).
 */
export async function addedAt(ctx: TestContext, id: string, when: Date): Promise<void> {
  await ctx.database.db.update(records).set({ createdAt: when }).where(eq(records.id, id));
}
