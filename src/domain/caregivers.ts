import { z } from 'zod';
import { isPermission, type Permission } from './permissions';
import { safeText } from './text';
import { RESOURCES } from './resources/list';

// The /request contract (caregiver requests and permission requests) and the patient's
// activity log, shared by the server's route schemas and the client so both say the same thing.
//
// A care request is how a patient invites a caregiver: 'sent' on the patient's side, 'received' on the
// caregiver's, then 'approved' (the caregiver accepted: a care link with the granted permissions exists),
// 'rejected' (the caregiver declined) or deleted by either side. A permission request is a
// linked caregiver asking for more: 'pending', then 'approved' (merged into the link) or 'rejected'.

export const CARE_MESSAGES = {
  requestSent: 'Request sent successfully',
  requestApproved: 'Request accepted. You can now select this patient from the header.',
  requestRejected: 'Request declined.',
  requestDeleted: 'Request deleted.',
  permissionsUpdated: 'Permissions updated.',
  permissionRequestSent: 'Request sent successfully',
  permissionRequestApproved: 'Permissions granted.',
  permissionRequestRejected: 'Request declined.',
  selectPatient: 'Please select patient.',
  selectPatientWarning:
    "Start by selecting a patient from the header. Once a patient is selected, use the permissions section below to choose the access you'd like to request.",
  noCaregiverPermissions: 'No caregiver permissions',
  emailRequired: 'Caregiver email is required.',
  emailInvalid: 'Enter a valid email address.',
  inviteSelf: 'You cannot invite yourself.',
  alreadyInvited: 'A request to this caregiver is already waiting for an answer.',
  alreadyLinked: 'This caregiver already has access. Change their permissions instead.',
  relationshipTooLong: 'Relationship must be at most 100 characters.',
  phoneInvalid: 'Enter a valid phone number (10 to 15 digits).',
  permissionsInvalid: 'Choose permissions from the list.',
  permissionsRequired: 'Choose at least one permission.',
  requestIdInvalid: 'The request id is not valid.',
  requestNotFound: 'Request not found.',
  requestNotWaiting: 'This request has already been answered.',
  linkNotFound: 'This caregiver no longer has access.',
  nothingNew: 'You already have every permission you asked for.',
  permissionRequestWaiting: 'A request of yours is already waiting for the patient to answer.',
  inviteInvalid:
    'This invitation link is invalid, has expired or was already used. Ask the patient to invite you again.',
  onboardingInvalid:
    'This sign-in link is invalid, has expired or was already used. Sign in with your e-mail and password.',
  patientOnly: 'Only a patient can do this.',
  caregiverOnly: 'Only a caregiver can do this.',
  patientOrCaregiverOnly: 'Only a patient or a caregiver can do this.',
  inviteRegistered: 'Your account is ready and linked to the patient who invited you.',
} as const;

/** Invitations (links to /invite/register/:token) last this long and work once. */
export const INVITE_TTL_HOURS = 72;
/** The link from invite registration to /onboarding/:token: a first sign-in, minutes, once. */
export const ONBOARDING_TTL_MINUTES = 15;

export const permissionListSchema = z
  .array(z.string(), { error: CARE_MESSAGES.permissionsInvalid })
  .max(64, CARE_MESSAGES.permissionsInvalid)
  .refine((values) => values.every(isPermission), CARE_MESSAGES.permissionsInvalid)
  .transform((values) => [...new Set(values)] as Permission[]);

const requestId = z.uuid({ error: CARE_MESSAGES.requestIdInvalid });

const email = z
  .string({ error: CARE_MESSAGES.emailRequired })
  .trim()
  .min(1, CARE_MESSAGES.emailRequired)
  .max(254, CARE_MESSAGES.emailInvalid)
  .pipe(z.email({ error: CARE_MESSAGES.emailInvalid }))
  .transform((value) => value.toLowerCase());

const phoneNumber = z
  .string({ error: CARE_MESSAGES.phoneInvalid })
  .trim()
  .refine((value) => value === '' || /^\+?[0-9 ()-]{10,20}$/.test(value), CARE_MESSAGES.phoneInvalid)
  .refine((value) => value === '' || /^\d{10,15}$/.test(value.replace(/\D/g, '')), CARE_MESSAGES.phoneInvalid)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

const relationship = safeText(
  z.string({ error: CARE_MESSAGES.relationshipTooLong }).trim().max(100, CARE_MESSAGES.relationshipTooLong),
)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

/** POST /request/send-request: the caregiver invite payload. */
export const inviteBodySchema = z.object({
  caregiver_email: email,
  is_family: z.boolean({ error: 'is_family must be true or false.' }).default(false),
  relationship,
  permissions: permissionListSchema,
  /** The patient's own id; optional, and if given it must be the caller's (a patient invites for themselves). */
  patient_id: z.uuid({ error: 'patient_id is not valid.' }).nullable().optional(),
  phone_number: phoneNumber,
});
export type InviteBody = z.input<typeof inviteBodySchema>;

export const requestIdBodySchema = z.object({ request_id: requestId });
export type RequestIdBody = z.input<typeof requestIdBodySchema>;

export const REQUEST_TYPES = ['sent', 'received', 'approved'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
export const CARE_REQUEST_STATUSES = ['sent', 'received', 'approved', 'rejected', 'deleted'] as const;
export type CareRequestStatus = (typeof CARE_REQUEST_STATUSES)[number];

/** POST /request/delete: which list the request was deleted from, and the status it showed there. */
export const deleteRequestBodySchema = z.object({
  request_id: requestId,
  status: z.enum(CARE_REQUEST_STATUSES, { error: 'status is not valid.' }),
  request_type: z.enum(REQUEST_TYPES, { error: "request_type must be 'sent', 'received' or 'approved'." }),
});
export type DeleteRequestBody = z.input<typeof deleteRequestBodySchema>;

/** PUT /request/update-permission: the patient changes what a linked caregiver may do. */
export const updatePermissionBodySchema = z.object({
  permissions: permissionListSchema,
  permission_id: z.uuid({ error: 'permission_id is not valid.' }),
  phone_number: phoneNumber,
});
export type UpdatePermissionBody = z.input<typeof updatePermissionBodySchema>;

/** One row of GET /request/sent (the patient's invitations not yet accepted: sent or rejected). */
export const sentRequestSchema = z.object({
  request_id: z.string(),
  caregiver_email: z.string(),
  /** Always null: the caregiver's name shows once they accept (GET /request/approved), not before. */
  name: z.string().nullable(),
  is_family: z.boolean(),
  relationship: z.string().nullable(),
  permissions: z.array(z.string()),
  phone_number: z.string().nullable(),
  status: z.enum(['sent', 'rejected']),
  created_at: z.string(),
});
export type SentRequest = z.infer<typeof sentRequestSchema>;

/**
 * One row of GET /request/received (a caregiver's invitations waiting for their answer): who invited
 * them; the patient's id only once they accept (GET /request/associate-patients).
 */
export const receivedRequestSchema = z.object({
  request_id: z.string(),
  name: z.string(),
  email: z.string(),
  is_family: z.boolean(),
  relationship: z.string().nullable(),
  permissions: z.array(z.string()),
  status: z.literal('received'),
  created_at: z.string(),
});
export type ReceivedRequest = z.infer<typeof receivedRequestSchema>;

/**
 * One row of GET /request/approved: a care link seen from either side. For a patient, name and email are
 * the caregiver's; for a caregiver, the patient's. permission_id is the link's id.
 */
export const approvedRequestSchema = z.object({
  request_id: z.string(),
  permission_id: z.string(),
  patient_id: z.string(),
  caregiver_id: z.string(),
  name: z.string(),
  email: z.string(),
  is_family: z.boolean(),
  relationship: z.string().nullable(),
  permissions: z.array(z.string()),
  phone_number: z.string().nullable(),
  status: z.literal('approved'),
  approved_at: z.string(),
});
export type ApprovedRequest = z.infer<typeof approvedRequestSchema>;

export const sentListSchema = z.object({ success: z.literal(true), data: z.array(sentRequestSchema) });
export const receivedListSchema = z.object({
  success: z.literal(true),
  data: z.array(receivedRequestSchema),
});
export const approvedListSchema = z.object({
  success: z.literal(true),
  data: z.array(approvedRequestSchema),
});

/** GET /request/associate-patients (an associated patient). */
export const associatedPatientSchema = z.object({
  user_id: z.string(),
  patient_id: z.string(),
  name: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
  permission_id: z.string(),
});
export type AssociatedPatientEntry = z.infer<typeof associatedPatientSchema>;
export const associatePatientsResponseSchema = z.object({
  success: z.literal(true),
  assigned_patients: z.array(associatedPatientSchema),
});

/** POST /request/permission-requests (a permission request, caregiver side). */
export const permissionRequestBodySchema = z.object({
  /** Must be the caller's own caregiver id when given (the server takes it from the token). */
  caregiver_id: z.uuid({ error: 'caregiver_id is not valid.' }).nullable().optional(),
  patient_id: z.uuid({ error: CARE_MESSAGES.selectPatient }),
  requested_permissions: permissionListSchema.refine(
    (values) => values.length > 0,
    CARE_MESSAGES.permissionsRequired,
  ),
  permission_id: z.uuid({ error: 'permission_id is not valid.' }).nullable().optional(),
});
export type PermissionRequestBody = z.input<typeof permissionRequestBodySchema>;

export const PERMISSION_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PermissionRequestStatus = (typeof PERMISSION_REQUEST_STATUSES)[number];

/**
 * One row of GET /request/permission-requests (a listed permission request entry). For a
 * patient, name is the caregiver's; for a caregiver, the patient's.
 */
export const permissionRequestEntrySchema = z.object({
  id: z.string(),
  requested_at: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  status: z.string(),
  patient_id: z.string(),
  caregiver_id: z.string(),
});
export type PermissionRequestEntry = z.infer<typeof permissionRequestEntrySchema>;
export const permissionRequestListSchema = z.object({
  success: z.literal(true),
  data: z.array(permissionRequestEntrySchema),
});

/** The status compared case-insensitively ('Approved', 'approved', 'APPROVED'). */
export function permissionRequestStatusOf(status: string): PermissionRequestStatus | 'unknown' {
  const lower = status.trim().toLowerCase();
  if (lower === 'accepted') return 'approved';
  return (PERMISSION_REQUEST_STATUSES as readonly string[]).includes(lower)
    ? (lower as PermissionRequestStatus)
    : 'unknown';
}

// ---- Invite registration and onboarding (public) ----

export const inviteTokenSchema = z
  .string({ error: CARE_MESSAGES.inviteInvalid })
  .regex(/^[A-Za-z0-9_-]{43}$/, CARE_MESSAGES.inviteInvalid);

/** GET /auth/invite/:token: what the registration page shows before the person signs up. */
export const inviteInfoResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ email: z.string(), patient_name: z.string(), permissions: z.array(z.string()) }),
});

/** POST /auth/onboarding: the single-use token from invite registration, exchanged for a first session. */
export const onboardingBodySchema = z.object({
  token: z
    .string({ error: CARE_MESSAGES.onboardingInvalid })
    .regex(/^[A-Za-z0-9_-]{43}$/, CARE_MESSAGES.onboardingInvalid),
});

// ---- What the patient sees of their caregivers' activity ----

export const ACTIVITY_KINDS = ['write', 'delivery'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * One line of GET /request/activity: a caregiver's write ('write', with op and record_id) or a day's
 * deliveries of one kind of the patient's records to a caregiver's device ('delivery': count adds up the
 * records delivered that day, at is the last delivery). `limit` counts writes and delivery lines apart.
 */
export const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor_name: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  resource: z.string(),
  op: z.enum(['create', 'update', 'delete']).nullable(),
  record_id: z.string().nullable(),
  count: z.number().int(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export const activityListSchema = z.object({ success: z.literal(true), data: z.array(activityEntrySchema) });
export const activityQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int()
    .min(1, 'limit must be at least 1.')
    .max(200, 'limit must be at most 200.')
    .default(50),
});

/** How the activity log names each kind of record: its declaration's nouns. */
const RESOURCE_NOUNS = new Map<string, { one: string; many: string }>(
  RESOURCES.map((resource) => [resource.key, resource.nouns]),
);
const VERBS = { create: 'added', update: 'changed', delete: 'deleted' } as const;

/**
 * The sentence without its time: 'Alex added an appointment', 'Alex's device received 12 appointments'.
 * The caller appends the formatted time (e.g. ', 3 Mar 2026 14:05').
 */
export function activitySentence(
  entry: Pick<ActivityEntry, 'actor_name' | 'kind' | 'resource' | 'op' | 'count'>,
): string {
  const noun = RESOURCE_NOUNS.get(entry.resource) ?? {
    one: `a ${entry.resource} record`,
    many: `${entry.resource} records`,
  };
  if (entry.kind === 'write') return `${entry.actor_name} ${VERBS[entry.op ?? 'update']} ${noun.one}`;
  const what =
    entry.count === 1
      ? noun.one.replace(/^an? /, '1 ').replace(/^the /, '1 ')
      : `${entry.count} ${noun.many}`;
  return `${entry.actor_name}'s device received ${what}`;
}
