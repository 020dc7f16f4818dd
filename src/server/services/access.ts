import { and, eq } from 'drizzle-orm';
import { BETA_POLICY_MESSAGES, BETA_POLICY_NOT_ACCEPTED } from '../../domain/auth';
import { CARE_MESSAGES } from '../../domain/caregivers';
import type { Permission } from '../../domain/permissions';
import { RESOURCE_READ_PERMISSION } from '../../domain/permissions';
import { SYNCED_RESOURCES, type SyncedResource } from '../../domain/sync';
import type { Database } from '../db/client';
import { careLinks, users } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import { HttpError, TransientRefusal } from '../plugins/errors';
import type { Queryable } from './transaction';

// Who may act on which patient's records. A patient may do everything on their own records; a
// caregiver may do an action only when the patient granted the matching permission (src/domain/README.md).

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

/** The refusal of a call on a patient the caller may not act on (for a record of theirs: 404, see callers). */
export const notAllowed = () => new HttpError(403, 'You do not have permission to do this for this patient.');

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
    throw notAllowed();
  }
  return patientId;
}

/**
 * Writes need the beta-user policy accepted: the app asks before anything else, and the
 * server holds to it for any client, so nobody stores health data without having read what the beta means.
 */
export async function hasAcceptedBetaPolicy(db: Queryable, userId: string): Promise<boolean> {
  const [user] = await db
    .select({ acceptedAt: users.betaPolicyAcceptedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return Boolean(user?.acceptedAt);
}

/**
 * The refusal of a write from an account that has not accepted the beta policy. Transient: once the
 * policy is accepted, the same change sent again (same Idempotency-Key, from the device's queue) is let in.
 */
export const betaPolicyRefusal = () =>
  new TransientRefusal(403, BETA_POLICY_MESSAGES.notAccepted, BETA_POLICY_NOT_ACCEPTED);

/** 403 unless the caller accepted the beta policy. */
export async function requireBetaPolicyAccepted(db: Queryable, userId: string): Promise<void> {
  if (!(await hasAcceptedBetaPolicy(db, userId))) throw betaPolicyRefusal();
}

/** The caller's patient id; 403 for anyone but a patient (the /request calls a patient makes). */
export function requirePatient(auth: AuthUser): string {
  if (!auth.patientId) throw new HttpError(403, CARE_MESSAGES.patientOnly);
  return auth.patientId;
}

/** The caller's caregiver id; 403 for anyone but a caregiver (the /request calls a caregiver makes). */
export function requireCaregiver(auth: AuthUser): string {
  if (!auth.caregiverId) throw new HttpError(403, CARE_MESSAGES.caregiverOnly);
  return auth.caregiverId;
}

/** Which side of a care link the caller is on; 403 for Admin and Doctor, who have neither. */
export function careSideOf(
  auth: AuthUser,
): { side: 'patient'; patientId: string } | { side: 'caregiver'; caregiverId: string } {
  if (auth.patientId) return { side: 'patient', patientId: auth.patientId };
  if (auth.caregiverId) return { side: 'caregiver', caregiverId: auth.caregiverId };
  throw new HttpError(403, CARE_MESSAGES.patientOrCaregiverOnly);
}
