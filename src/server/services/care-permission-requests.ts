import { and, desc, eq } from 'drizzle-orm';
import { CARE_MESSAGES, type PermissionRequestEntry } from '../../domain/caregivers';
import type { Permission } from '../../domain/permissions';
import type { Database } from '../db/client';
import { caregivers, careLinks, patients, permissionRequests, users } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { notAllowed } from './access';
import type { Queryable } from './transaction';

// Permission requests (README.md beside this file): a linked caregiver asks the patient for more permissions
// ('pending'); the patient accepts (the permissions are merged into the link) or declines. Only what the
// link does not already grant is asked for, and a link has at most one request waiting at a time (the
// link's row is locked while that is checked, so two requests sent at once cannot both be stored).

const notFound = () => new HttpError(404, CARE_MESSAGES.requestNotFound);
const notWaiting = () => new HttpError(409, CARE_MESSAGES.requestNotWaiting);

/** The requests of one side, newest first: a patient sees the caregiver's name, a caregiver the patient's. */
export async function listPermissionRequests(
  db: Queryable,
  side: { side: 'patient'; patientId: string } | { side: 'caregiver'; caregiverId: string },
): Promise<PermissionRequestEntry[]> {
  const other =
    side.side === 'patient'
      ? {
          table: caregivers,
          join: eq(caregivers.id, permissionRequests.caregiverId),
          userOf: caregivers.userId,
        }
      : { table: patients, join: eq(patients.id, permissionRequests.patientId), userOf: patients.userId };
  const rows = await db
    .select({ request: permissionRequests, name: users.name })
    .from(permissionRequests)
    .innerJoin(other.table, other.join)
    .innerJoin(users, eq(users.id, other.userOf))
    .where(
      side.side === 'patient'
        ? eq(permissionRequests.patientId, side.patientId)
        : eq(permissionRequests.caregiverId, side.caregiverId),
    )
    .orderBy(desc(permissionRequests.requestedAt), desc(permissionRequests.id));
  return rows.map(({ request, name }) => ({
    id: request.id,
    requested_at: request.requestedAt.toISOString(),
    name,
    permissions: request.requestedPermissions,
    status: request.status,
    patient_id: request.patientId,
    caregiver_id: request.caregiverId,
  }));
}

/**
 * A caregiver asks for more on a patient they are linked to (403 without a link). `linkId`, when the
 * client names it, must be that link.
 */
export async function requestPermissions(
  db: Database,
  caregiverId: string,
  request: { patientId: string; linkId: string | null; permissions: Permission[] },
): Promise<AskedForMore> {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .select({ id: careLinks.id, permissions: careLinks.permissions })
      .from(careLinks)
      .where(and(eq(careLinks.caregiverId, caregiverId), eq(careLinks.patientId, request.patientId)))
      .for('update');
    if (!link) throw notAllowed();
    if (request.linkId && request.linkId !== link.id) throw new HttpError(404, CARE_MESSAGES.linkNotFound);
    const wanted = request.permissions.filter((permission) => !link.permissions.includes(permission));
    if (wanted.length === 0) throw new HttpError(400, CARE_MESSAGES.nothingNew);
    const [waiting] = await tx
      .select({ id: permissionRequests.id })
      .from(permissionRequests)
      .where(and(eq(permissionRequests.linkId, link.id), eq(permissionRequests.status, 'pending')))
      .limit(1);
    if (waiting) throw new HttpError(409, CARE_MESSAGES.permissionRequestWaiting);
    await tx.insert(permissionRequests).values({
      linkId: link.id,
      patientId: request.patientId,
      caregiverId,
      requestedPermissions: wanted,
      status: 'pending',
    });
    const [patient] = await tx
      .select({ name: users.name, email: users.email })
      .from(patients)
      .innerJoin(users, eq(users.id, patients.userId))
      .where(eq(patients.id, request.patientId));
    const [caregiver] = await tx
      .select({ name: users.name })
      .from(caregivers)
      .innerJoin(users, eq(users.id, caregivers.userId))
      .where(eq(caregivers.id, caregiverId));
    return {
      patient: { name: patient?.name ?? '', email: patient?.email ?? '' },
      caregiverName: caregiver?.name ?? '',
      permissions: wanted,
    };
  });
}

/** Who is to hear of a new permission request, and what it asks for (the patient is told by e-mail). */
export type AskedForMore = {
  patient: { name: string; email: string };
  caregiverName: string;
  permissions: Permission[];
};

/**
 * The patient answers a pending request: 'approved' merges its permissions into the link. 404 when the
 * request is not theirs, 409 when it was answered already.
 */
export async function answerPermissionRequest(
  db: Database,
  patientId: string,
  requestId: string,
  answer: 'approved' | 'rejected',
): Promise<void> {
  await db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(permissionRequests)
      .where(and(eq(permissionRequests.id, requestId), eq(permissionRequests.patientId, patientId)))
      .for('update');
    if (!request) throw notFound();
    if (request.status !== 'pending') throw notWaiting();
    const now = new Date();
    if (answer === 'approved') {
      const [link] = await tx
        .select({ permissions: careLinks.permissions })
        .from(careLinks)
        .where(eq(careLinks.id, request.linkId))
        .for('update');
      if (!link) throw notFound(); // the link went (and its requests with it) while we looked: nothing to grant
      const merged = [...new Set([...link.permissions, ...request.requestedPermissions])];
      await tx
        .update(careLinks)
        .set({ permissions: merged, updatedAt: now })
        .where(eq(careLinks.id, request.linkId));
    }
    await tx
      .update(permissionRequests)
      .set({ status: answer, decidedAt: now })
      .where(eq(permissionRequests.id, request.id));
  });
}
