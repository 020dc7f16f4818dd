import type { InjectOptions } from 'fastify';
import { insertCareLink, insertPerson, type Person } from '../fixtures/people';
import type { TestContext } from './helpers';

export type { Person };

export function makePerson(
  ctx: TestContext,
  role: 'Patient' | 'Caregiver',
  name: string = role,
): Promise<Person> {
  return insertPerson(ctx.database.db, ctx.app, role, name);
}

export function link(
  ctx: TestContext,
  patient: Person,
  caregiver: Person,
  permissions: string[],
): Promise<void> {
  return insertCareLink(ctx.database.db, patient, caregiver, permissions);
}

/** inject() as this person. */
export function as(ctx: TestContext, person: Person, options: InjectOptions) {
  return ctx.app.inject({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${person.token}` },
  });
}
