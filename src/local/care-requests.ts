import {
  inviteRegisterResponseSchema,
  loginResponseSchema,
  messageResponseSchema,
  type InviteRegisterBody,
  type Profile,
} from '../domain/auth';
import {
  inviteInfoResponseSchema,
  type DeleteRequestBody,
  type InviteBody,
  type PermissionRequestBody,
  type UpdatePermissionBody,
} from '../domain/caregivers';
import { refreshCare } from './care-sync';
import { hasUserDb, userDb } from './db';
import { http } from './http';
import { readSession } from './session';
import { syncNow } from './sync-trigger';
import { createTransport } from './sync-transport';
import { completeSignIn, type ConfirmDeletingOthersChanges } from './account';

// Caregiver requests and permission requests (src/server/services/README.md): each answer changes what
// another person sees, so these calls are online-only and go straight to the server (a failure says why, the
// offline text included). After each, the replica's copy of the lists is refreshed (care-sync.ts), and when
// access changed, a sync brings in or takes out the records it covers.

/** The lists again from the server, now (the screens read them from the replica). */
export async function refreshCareNow(): Promise<void> {
  if (!hasUserDb()) return;
  const transport = createTransport({ baseURL: '/api', getToken: () => readSession()?.token ?? null });
  await refreshCare(userDb(), transport);
}

async function afterAccessChanged(): Promise<void> {
  await refreshCareNow();
  // The pull sees the new scope and brings in (or removes) the patient's records.
  void syncNow();
}

const messageOf = (data: unknown) => messageResponseSchema.parse(data).message;

/** Patient: invite a caregiver by e-mail ('Request sent successfully'). */
export async function sendCareRequest(body: InviteBody): Promise<string> {
  const response = await http.post('/request/send-request', body, { quiet: true });
  await refreshCareNow();
  return messageOf(response.data);
}

/** Caregiver: accept a received request; the patient's records start to arrive. */
export async function approveCareRequest(requestId: string): Promise<string> {
  const response = await http.post('/request/approve', { request_id: requestId }, { quiet: true });
  await afterAccessChanged();
  return messageOf(response.data);
}

/** Caregiver: decline a received request. */
export async function rejectCareRequest(requestId: string): Promise<string> {
  const response = await http.patch('/request/reject', { request_id: requestId }, { quiet: true });
  await refreshCareNow();
  return messageOf(response.data);
}

/** Either side: delete a request, or end an approved link (the caregiver loses access at once). */
export async function deleteCareRequest(body: DeleteRequestBody): Promise<string> {
  const response = await http.post('/request/delete', body, { quiet: true });
  await afterAccessChanged();
  return messageOf(response.data);
}

/** Patient: change what a linked caregiver may do. */
export async function updateCaregiverPermissions(body: UpdatePermissionBody): Promise<string> {
  const response = await http.put('/request/update-permission', body, { quiet: true });
  await afterAccessChanged();
  return messageOf(response.data);
}

/** Caregiver: ask the selected patient for more permissions. */
export async function requestMorePermissions(body: PermissionRequestBody): Promise<string> {
  const response = await http.post('/request/permission-requests', body, { quiet: true });
  await refreshCareNow();
  return messageOf(response.data);
}

/** Patient: grant a caregiver's permission request. */
export async function approvePermissionRequest(requestId: string): Promise<string> {
  const response = await http.put('/request/permission-requests', { request_id: requestId }, { quiet: true });
  await afterAccessChanged();
  return messageOf(response.data);
}

/** Patient: decline a caregiver's permission request. */
export async function rejectPermissionRequest(requestId: string): Promise<string> {
  const response = await http.put('/request/reject-permission', { request_id: requestId }, { quiet: true });
  await refreshCareNow();
  return messageOf(response.data);
}

// ---- Invitation links (public pages) ----

/** What /invite/register/:token shows before the person signs up: the e-mail and who invited them. */
export async function inviteInfo(token: string) {
  const response = await http.get(`/auth/invite/${encodeURIComponent(token)}`, { quiet: true });
  return inviteInfoResponseSchema.parse(response.data).data;
}

/** Registers the invited caregiver; answers the token of /onboarding/:token (their first sign-in). */
export async function registerInvitedCaregiver(body: InviteRegisterBody): Promise<string> {
  const response = await http.post('/auth/invite-register', body, { quiet: true });
  return inviteRegisterResponseSchema.parse(response.data).onboardingToken;
}

/** /onboarding/:token: exchanges the single-use token for a session, as a sign-in does. */
export async function completeOnboarding(
  token: string,
  confirmDeletingOthersChanges: ConfirmDeletingOthersChanges,
): Promise<Profile | null> {
  const response = await http.post('/auth/onboarding', { token }, { quiet: true });
  return completeSignIn(loginResponseSchema.parse(response.data), confirmDeletingOthersChanges);
}
