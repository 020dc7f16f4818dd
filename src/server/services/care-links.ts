import { and, eq, or, type SQL } from 'drizzle-orm';
import { CARE_MESSAGES, type CareRequestStatus, type RequestType } from '../../domain/caregivers';
import type { Permission } from '../../domain/permissions';
import type { Database } from '../db/client';
import { careLinks, careRequests } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { addressedTo, type CaregiverAddress } from './care-requests';
import type { Queryable } from './transaction';

// Removing care requests and links (POST /request/delete) and changing what a linked caregiver may do
// (PUT /request/update-permission). Deleting an approved request deletes its care link: the caregiver
// loses access at once (every check reads the links), their next pull starts over without the patient's
// records, and the link's permission requests go with it (a foreign key that cascades).

export type CareSide =
  { side: 'patient'; patientId: string } | { side: 'caregiver'; caregiver: CaregiverAddress };

export type DeleteInput = { requestId: string; status: CareRequestStatus; requestType: RequestType };

const notFound = () => new HttpError(404, CARE_MESSAGES.requestNotFound);
const notWaiting = () => new HttpError(409, CARE_MESSAGES.requestNotWaiting);

/** The status a list shows for a request row, on this side ('received' is the caregiver's name for 'sent'). */
function shownStatus(side: CareSide, status: 'sent' | 'approved' | 'rejected'): CareRequestStatus {
  return side.side === 'caregiver' && status === 'sent' ? 'received' : status;
}

/**
 * Deletes a request from the list it is shown in. The `status` sent must be the one the request has now,
 * so that a screen that is out of date (the caregiver answered meanwhile) cannot delete something else.
 */
export async function deleteCareRequest(db: Database, side: CareSide, input: DeleteInput): Promise<void> {
  await db.transaction(async (tx) => {
    if (input.requestType === 'approved') return deleteLink(tx, side, input);
    const owner: SQL | undefined =
      side.side === 'patient' && input.requestType === 'sent'
        ? eq(careRequests.patientId, side.patientId)
        : side.side === 'caregiver' && input.requestType === 'received'
          ? addressedTo(side.caregiver)
          : undefined;
    if (!owner) throw notFound();
    const [request] = await tx
      .select({ id: careRequests.id, status: careRequests.status })
      .from(careRequests)
      .where(and(eq(careRequests.id, input.requestId), owner))
      .for('update');
    if (!request) throw notFound();
    const shown = shownStatus(side, request.status);
    const listedThere = input.requestType === 'sent' ? shown !== 'approved' : shown === 'received';
    if (!listedThere || shown !== input.status) throw notWaiting();
    await tx.delete(careRequests).where(eq(careRequests.id, request.id));
  });
}

/** An approved request: its link (named by the request's id, or by the link's own id for older links). */
async function deleteLink(tx: Queryable, side: CareSide, input: DeleteInput): Promise<void> {
  const owner =
    side.side === 'patient'
      ? eq(careLinks.patientId, side.patientId)
      : eq(careLinks.caregiverId, side.caregiver.caregiverId);
  const [link] = await tx
    .select({ id: careLinks.id, requestId: careLinks.requestId })
    .from(careLinks)
    .where(and(owner, or(eq(careLinks.requestId, input.requestId), eq(careLinks.id, input.requestId))))
    .for('update');
  if (!link) throw notFound();
  if (input.status !== 'approved') throw notWaiting();
  await tx.delete(careLinks).where(eq(careLinks.id, link.id));
  if (link.requestId) await tx.delete(careRequests).where(eq(careRequests.id, link.requestId));
}

/** The patient replaces a linked caregiver's permissions and phone number; 404 unless the link is theirs. */
export async function updateLinkPermissions(
  db: Queryable,
  patientId: string,
  update: { linkId: string; permissions: Permission[]; phoneNumber: string | null },
): Promise<void> {
  const updated = await db
    .update(careLinks)
    .set({ permissions: update.permissions, phoneNumber: update.phoneNumber, updatedAt: new Date() })
    .where(and(eq(careLinks.id, update.linkId), eq(careLinks.patientId, patientId)))
    .returning({ id: careLinks.id });
  if (updated.length === 0) throw new HttpError(404, CARE_MESSAGES.linkNotFound);
}
