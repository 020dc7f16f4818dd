import { and, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import {
  CARE_MESSAGES,
  type ApprovedRequest,
  type ReceivedRequest,
  type SentRequest,
} from '../../domain/caregivers';
import type { Permission } from '../../domain/permissions';
import type { Database } from '../db/client';
import { caregivers, careLinks, careRequests, patients, users } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import { requireCaregiverAllowance } from './billing/plan-limits';
import { HttpError } from '../plugins/errors';
import { findAccountByEmail } from './accounts';
import { inviteExpiry, mintToken, type CareTokenHasher } from './care-invites';
import type { Queryable } from './transaction';

// Care requests: a patient invites a caregiver by e-mail ('sent'; 'received' on the caregiver's side),
// the caregiver approves (a care link is made with the request's permissions) or rejects, and either side
// deletes. Every change happens under a lock on the row it decides on, so two answers to one request, or
// two invitations of one e-mail, cannot both go through.
//
// Until the caregiver accepts, neither side learns anything the other has not shown: the patient gets the
// same answer and the same line under Sent for every e-mail (no account, a caregiver's, a patient's), and
// the invitee sees the patient's name and e-mail, not the patient's id.

export type InviteInput = {
  caregiverEmail: string;
  isFamily: boolean;
  relationship: string | null;
  permissions: Permission[];
  phoneNumber: string | null;
};

/**
 * Whom the invitation mail goes to and what it carries: a sign-in link for a caregiver's account, a
 * register link for an address without one, and for an account that is not a caregiver's (a patient's,
 * a doctor's) the news that it cannot accept with this address.
 */
export type SentInvite =
  | { kind: 'caregiver-account'; caregiverName: string; caregiverEmail: string }
  | { kind: 'other-account'; accountName: string; caregiverEmail: string }
  | { kind: 'new-person'; caregiverEmail: string; inviteToken: string };

const conflict = (message: string) => new HttpError(409, message);

/**
 * A patient invites a caregiver. The checks of the send-request route, then the request row. Whatever
 * account the e-mail has, the checks and the row are the same: only the mail differs. An invitation of an
 * account that is not a caregiver's waits under Sent like any unanswered one (nobody can accept it).
 */
export async function sendCareRequest(
  db: Database,
  hasher: CareTokenHasher,
  patient: { patientId: string; email: string },
  input: InviteInput,
): Promise<SentInvite> {
  if (input.caregiverEmail === patient.email.toLowerCase())
    throw new HttpError(400, CARE_MESSAGES.inviteSelf);
  const account = await findAccountByEmail(db, input.caregiverEmail);
  return db.transaction(async (tx) => {
    // One invitation at a time per patient: the checks below and the insert must not interleave with another.
    await tx
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.id, patient.patientId))
      .for('update');
    const caregiverId = account?.role === 'Caregiver' ? await caregiverIdOfUser(tx, account.id) : null;
    const [waiting] = await tx
      .select({ id: careRequests.id })
      .from(careRequests)
      .where(
        and(
          eq(careRequests.patientId, patient.patientId),
          eq(careRequests.caregiverEmail, input.caregiverEmail),
          eq(careRequests.status, 'sent'),
        ),
      )
      .limit(1);
    if (waiting) throw conflict(CARE_MESSAGES.alreadyInvited);
    if (caregiverId && (await findLinkBetween(tx, patient.patientId, caregiverId)))
      throw conflict(CARE_MESSAGES.alreadyLinked);
    await requireCaregiverAllowance(tx, patient.patientId);
    const row = {
      patientId: patient.patientId,
      caregiverEmail: input.caregiverEmail,
      caregiverId,
      isFamily: input.isFamily,
      relationship: input.relationship,
      permissions: input.permissions,
      phoneNumber: input.phoneNumber,
      status: 'sent' as const,
    };
    if (account) {
      await tx.insert(careRequests).values(row);
      return caregiverId
        ? { kind: 'caregiver-account', caregiverName: account.name, caregiverEmail: input.caregiverEmail }
        : { kind: 'other-account', accountName: account.name, caregiverEmail: input.caregiverEmail };
    }
    const inviteToken = mintToken();
    await tx
      .insert(careRequests)
      .values({ ...row, inviteTokenHash: hasher.invite(inviteToken), inviteExpiresAt: inviteExpiry() });
    return { kind: 'new-person', caregiverEmail: input.caregiverEmail, inviteToken };
  });
}

async function caregiverIdOfUser(db: Queryable, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: caregivers.id }).from(caregivers).where(eq(caregivers.userId, userId));
  return row?.id ?? null;
}

async function findLinkBetween(db: Queryable, patientId: string, caregiverId: string) {
  const [row] = await db
    .select({ id: careLinks.id })
    .from(careLinks)
    .where(and(eq(careLinks.patientId, patientId), eq(careLinks.caregiverId, caregiverId)))
    .limit(1);
  return row ?? null;
}

/**
 * The requests addressed to a caregiver: named by their caregiver id, or by their e-mail while no account
 * was known for it (an invitation sent before they signed up the ordinary way; signing in proved the e-mail).
 */
export function addressedTo(caregiver: CaregiverAddress): SQL {
  return or(
    eq(careRequests.caregiverId, caregiver.caregiverId),
    and(isNull(careRequests.caregiverId), eq(careRequests.caregiverEmail, caregiver.email.toLowerCase())),
  ) as SQL;
}

/** A caregiver as the requests name them: by caregiver id, or by the e-mail an invitation went to. */
export type CaregiverAddress = { caregiverId: string; email: string };

export function caregiverAddressOf(auth: AuthUser, caregiverId: string): CaregiverAddress {
  return { caregiverId, email: auth.email };
}

// ---- Lists ----

/**
 * The patient's invitations not yet accepted. No name: whether the e-mail has an account, and whose, is
 * the invitee's to tell by accepting (GET /request/approved then names them).
 */
export async function listSent(db: Queryable, patientId: string): Promise<SentRequest[]> {
  const rows = await db
    .select()
    .from(careRequests)
    .where(and(eq(careRequests.patientId, patientId), inArray(careRequests.status, ['sent', 'rejected'])))
    .orderBy(desc(careRequests.createdAt), desc(careRequests.id));
  return rows.flatMap((request) =>
    request.status === 'approved'
      ? []
      : [
          {
            request_id: request.id,
            caregiver_email: request.caregiverEmail,
            name: null,
            is_family: request.isFamily,
            relationship: request.relationship,
            permissions: request.permissions,
            phone_number: request.phoneNumber,
            status: request.status,
            created_at: request.createdAt.toISOString(),
          },
        ],
  );
}

/** The invitations waiting for this caregiver: who invited them (name, e-mail), not the patient's id. */
export async function listReceived(db: Queryable, caregiver: CaregiverAddress): Promise<ReceivedRequest[]> {
  const rows = await db
    .select({ request: careRequests, name: users.name, email: users.email })
    .from(careRequests)
    .innerJoin(patients, eq(patients.id, careRequests.patientId))
    .innerJoin(users, eq(users.id, patients.userId))
    .where(and(addressedTo(caregiver), eq(careRequests.status, 'sent')))
    .orderBy(desc(careRequests.createdAt), desc(careRequests.id));
  return rows.map(({ request, name, email }) => ({
    request_id: request.id,
    name,
    email,
    is_family: request.isFamily,
    relationship: request.relationship,
    permissions: request.permissions,
    status: 'received' as const,
    created_at: request.createdAt.toISOString(),
  }));
}

/** The care links seen from one side: the other person's name and e-mail. */
export async function listApproved(
  db: Queryable,
  side: { side: 'patient'; patientId: string } | { side: 'caregiver'; caregiverId: string },
): Promise<ApprovedRequest[]> {
  const other =
    side.side === 'patient'
      ? { table: caregivers, join: eq(caregivers.id, careLinks.caregiverId), userOf: caregivers.userId }
      : { table: patients, join: eq(patients.id, careLinks.patientId), userOf: patients.userId };
  const rows = await db
    .select({ link: careLinks, name: users.name, email: users.email })
    .from(careLinks)
    .innerJoin(other.table, other.join)
    .innerJoin(users, eq(users.id, other.userOf))
    .where(
      side.side === 'patient'
        ? eq(careLinks.patientId, side.patientId)
        : eq(careLinks.caregiverId, side.caregiverId),
    )
    .orderBy(desc(careLinks.createdAt), desc(careLinks.id));
  return rows.map(({ link, name, email }) => ({
    request_id: link.requestId ?? link.id,
    permission_id: link.id,
    patient_id: link.patientId,
    caregiver_id: link.caregiverId,
    name,
    email,
    is_family: link.isFamily,
    relationship: link.relationship,
    permissions: link.permissions,
    phone_number: link.phoneNumber,
    status: 'approved' as const,
    approved_at: link.createdAt.toISOString(),
  }));
}

/** GET /request/associate-patients: the caregiver's patients, with the patient's user id. */
export async function listAssociatedPatients(db: Queryable, caregiverId: string) {
  const rows = await db
    .select({ link: careLinks, userId: users.id, name: users.name, email: users.email })
    .from(careLinks)
    .innerJoin(patients, eq(patients.id, careLinks.patientId))
    .innerJoin(users, eq(users.id, patients.userId))
    .where(eq(careLinks.caregiverId, caregiverId))
    .orderBy(users.name, careLinks.id);
  return rows.map(({ link, userId, name, email }) => ({
    user_id: userId,
    patient_id: link.patientId,
    name,
    email,
    permissions: link.permissions,
    permission_id: link.id,
  }));
}

// ---- Answers ----

/** The waiting request addressed to this caregiver, locked; 404 when it is not theirs, 409 when answered. */
async function waitingRequestFor(tx: Queryable, caregiver: CaregiverAddress, requestId: string) {
  const [request] = await tx
    .select()
    .from(careRequests)
    .where(and(eq(careRequests.id, requestId), addressedTo(caregiver)))
    .for('update');
  if (!request) throw new HttpError(404, CARE_MESSAGES.requestNotFound);
  if (request.status !== 'sent') throw conflict(CARE_MESSAGES.requestNotWaiting);
  return request;
}

/** The caregiver accepts: a care link with the request's permissions, and the request approved. */
export async function approveRequest(
  db: Database,
  caregiver: CaregiverAddress,
  requestId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await waitingRequestFor(tx, caregiver, requestId);
    const now = new Date();
    const [created] = await tx
      .insert(careLinks)
      .values({
        patientId: request.patientId,
        caregiverId: caregiver.caregiverId,
        permissions: request.permissions,
        isFamily: request.isFamily,
        relationship: request.relationship,
        phoneNumber: request.phoneNumber,
        requestId: request.id,
      })
      .onConflictDoNothing({ target: [careLinks.patientId, careLinks.caregiverId] })
      .returning({ id: careLinks.id });
    if (!created) throw conflict(CARE_MESSAGES.alreadyLinked);
    await tx
      .update(careRequests)
      .set({ status: 'approved', caregiverId: caregiver.caregiverId, decidedAt: now, updatedAt: now })
      .where(eq(careRequests.id, request.id));
  });
}

export async function rejectRequest(
  db: Database,
  caregiver: CaregiverAddress,
  requestId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await waitingRequestFor(tx, caregiver, requestId);
    const now = new Date();
    await tx
      .update(careRequests)
      .set({ status: 'rejected', caregiverId: caregiver.caregiverId, decidedAt: now, updatedAt: now })
      .where(eq(careRequests.id, request.id));
  });
}
