import { and, eq } from 'drizzle-orm';
import type { Permission } from '../../domain/permissions';
import { RESOURCE_READ_PERMISSION } from '../../domain/permissions';
import { SYNCED_RESOURCES, type SyncedResource } from '../../domain/sync';
import type { Database } from '../db/client';
import { careLinks } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';

// Who may act on which patient's records. A patient may do everything on their own records; a
// caregiver may do an action only when the patient granted the matching permission (SPEC section 6).

/** The patients whose records of each resource the caller may read: the filter of every pull. */
export type ReadScope = Record<SyncedResource, string[]>;

export async function readScopeOf(db: Database, auth: AuthUser): Promise<ReadScope> {
  const scope = Object.fromEntries(
    SYNCED_RESOURCES.map((resource) => [resource, [] as string[]]),
  ) as ReadScope;
  if (auth.patientId) {
    for (const resource of SYNCED_RESOURCES) scope[resource].push(auth.patientId);
  }
  if (auth.caregiverId) {
    const links = await db
      .select({ patientId: careLinks.patientId, permissions: careLinks.permissions })
      .from(careLinks)
      .where(eq(careLinks.caregiverId, auth.caregiverId));
    for (const link of links) {
      for (const resource of SYNCED_RESOURCES) {
        if (link.permissions.includes(RESOURCE_READ_PERMISSION[resource]))
          scope[resource].push(link.patientId);
      }
    }
  }
  return scope;
}

/** Whether the caller may do `permission` on this patient's records. */
export async function mayActOn(
  db: Database,
  auth: AuthUser,
  patientId: string,
  permission: Permission,
): Promise<boolean> {
  if (auth.patientId === patientId) return true;
  if (!auth.caregiverId) return false;
  const [link] = await db
    .select({ permissions: careLinks.permissions })
    .from(careLinks)
    .where(and(eq(careLinks.caregiverId, auth.caregiverId), eq(careLinks.patientId, patientId)))
    .limit(1);
  return Boolean(link?.permissions.includes(permission));
}

/**
 * The patient a call acts on: the one named (a caregiver must name one), else the caller's own record.
 * 403 when the caller may not do `permission` there.
 */
export async function patientForCall(
  db: Database,
  auth: AuthUser,
  named: string | undefined,
  permission: Permission,
): Promise<string> {
  const patientId = named ?? auth.patientId;
  if (!patientId) throw new HttpError(400, 'Please select patient.');
  if (!(await mayActOn(db, auth, patientId, permission))) {
    throw new HttpError(403, 'You do not have permission to do this for this patient.');
  }
  return patientId;
}
