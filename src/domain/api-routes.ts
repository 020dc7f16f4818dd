import type { Permission } from './permissions';

// Every API route, who may call it, and how to build a call of it: the table the authorization matrix
// (tests/server/authorization-matrix.test.ts) is generated from. The matrix boots the app, lists the
// routes it registered, and fails on any route missing here (or listed here and not registered): a new
// route is not done until it has its line, and its line says who may call it.
//
// The matrix plays every route against one patient, "the owner", whose data the call names, with nine
// callers: the owner, another patient, a caregiver with no link to the owner, a linked caregiver without
// the route's permission, a linked caregiver with it, a caregiver whose link was revoked, and no token,
// an expired token and an ended session (both the owner's). From `access`, `target` and the statuses
// below it derives what each caller must get, and checks that no answer holds the owner's data that the
// caller may not see (and, for reads, that the callers who may see it do).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call the route.
 * - 'public': anyone, with or without a token (the token changes nothing).
 * - 'signed-in': any role, acting on themselves (or on a `target` of theirs).
 * - 'patient-only' / 'caregiver-only': that role only; the other gets 403.
 * - { permission }: a patient on their own data, a caregiver with this permission on a linked patient's.
 */
export type RouteAccess =
  'public' | 'signed-in' | 'patient-only' | 'caregiver-only' | { permission: Permission };

/**
 * What of the owner's the call names (a refused caller must learn nothing of it).
 * - 'none': nothing; the call acts on the caller's own account or data.
 * - 'owner-patient': the owner patient (a patient_id, ?patient=).
 * - 'owner-account': the owner's user id; the owner and caregivers linked to them may see it.
 * - 'owner-record': a record of the owner (an appointment the owner made).
 * - 'owner-doctor': an entry of the owner's doctors (a directory doctor the owner added to their list).
 * - 'owner-pharmacy': an entry of the owner's pharmacies.
 * - 'owner-file': a stored file attached to a record of the owner.
 * - 'owner-session': one of the owner's sign-ins.
 * - 'care-link': the link between the owner and the linked caregiver with the permission.
 * - 'invitation': a waiting invitation from the owner to the caregiver with no link.
 * - 'permission-request': a waiting request of the linked caregiver with the permission, to the owner.
 */
export type RouteTarget =
  | 'none'
  | 'owner-patient'
  | 'owner-account'
  | 'owner-record'
  | 'owner-doctor'
  | 'owner-pharmacy'
  | 'owner-file'
  | 'owner-session'
  | 'care-link'
  | 'invitation'
  | 'permission-request';

/** A value the matrix fills in for the case at hand. */
export type Fill = {
  $fill:
    | 'owner-patient-id'
    | 'owner-user-id'
    /** The id of the route's target: a record id, a file key, a session id, a link, request or invitation id. */
    | 'target-id'
    /** A permission the linked caregiver with the route's permission does not hold. */
    | 'permission-not-held'
    | 'new-uuid'
    /** A fresh Idempotency-Key. */
    | 'new-key'
    /** A doctor of the provider directory (public NPPES data). */
    | 'directory-doctor-id'
    /** A pharmacy of the provider directory. */
    | 'directory-pharmacy-id'
    /** A fresh e-mail address that has no account. */
    | 'new-email';
};

/** JSON, in which a `{ $fill }` object stands for a value of the case. */
export type RecipeValue =
  | string
  | number
  | boolean
  | null
  | Fill
  | readonly RecipeValue[]
  | { readonly [field: string]: RecipeValue };

/** How to build the call for one case. */
export type RouteRequest = {
  /** Path parameters, by the name in the path (`:id`, or `*` for a wildcard). */
  params?: Readonly<Record<string, string | Fill>>;
  query?: Readonly<Record<string, string | Fill>>;
  body?: RecipeValue;
  /** A multipart form instead of a JSON body: text fields and optionally a tiny PNG as `file.field`. */
  form?: { fields: Readonly<Record<string, string>>; file?: { field: string } };
};

/**
 * A refusal. `{ readable, unreadable }`: a change of a record refused to a caller who may read the record
 * says why (403); to one who may not, the record does not exist (404).
 */
export type Refusal = 403 | 404 | { readable: 403; unreadable: 404 };

/** The refusal of a change of a record (see Refusal). */
const RECORD_CHANGE_REFUSED = { readable: 403, unreadable: 404 } as const satisfies Refusal;

export type ApiRoute = {
  method: HttpMethod;
  /** As Fastify registers it, e.g. '/api/appointments/:id' (no trailing slash). */
  path: `/api/${string}`;
  access: RouteAccess;
  target: RouteTarget;
  request: RouteRequest;
  /** The status a caller who may make this call gets (for a 'public' route: everyone). */
  allowed: number;
  /**
   * What a signed-in caller of the right role gets when the target is not theirs or they lack the
   * permission: 404 for a record, file or anything else named by id (nobody learns it exists), 403 for a
   * patient named, 'filtered' for a read that answers everyone and leaves out what they may not see.
   * Role refusals are always 403 and token refusals 401. Default: 404.
   */
  refused?: Refusal | 'filtered';
  /** A batch (POST /api/sync/push): every signed-in caller gets `allowed`; its first item's status is this. */
  item?: { allowed: number; refused: Refusal };
  /** A read: an allowed caller's answer holds the target record (the matrix checks it is there). */
  shows?: 'record';
  /**
   * 'case': every caller gets people and data of their own, because the call changes them (ends the
   * caller's sessions, links or unlinks people, answers a request, changes or deletes the target).
   * Default 'route': the cases share people and data, with other routes of the same permission and
   * target too, so the call must change nothing another case looks at.
   */
  isolation?: 'route' | 'case';
};

const fill = (what: Fill['$fill']): Fill => ({ $fill: what });

/** A new appointment of the owner's, made by the caller (the seeded one is titled by the matrix). */
const newAppointment = {
  id: fill('new-uuid'),
  patient_id: fill('owner-patient-id'),
  appointment_title: 'Matrix follow-up',
  appointment_date: '2026-12-02T10:00:00.000Z',
};

// ---- Auth (SPEC section 7: /auth) ----

const authRoutes: readonly ApiRoute[] = [
  // The public calls get a body their schema refuses: the same 400 for every caller shows that a
  // token neither opens nor closes them (their own tests cover what a valid body does).
  ...(
    [
      'register',
      'login',
      'verify-email',
      'resend-verification',
      'forgot-password',
      'verify-otp',
      'reset-password',
    ] as const
  ).map((name): ApiRoute => ({
    method: 'POST',
    path: `/api/auth/${name}`,
    access: 'public',
    target: 'none',
    request: { body: {} },
    allowed: 400,
  })),
  {
    method: 'GET',
    path: '/api/auth/profile',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'POST',
    path: '/api/auth/beta-policy',
    access: 'signed-in',
    target: 'none',
    request: {
      body: { notHipaa: true, notForMedicalDecisions: true, dataMayBeDeleted: true, agreeToPolicy: true },
    },
    allowed: 200,
  },
  {
    method: 'POST',
    path: '/api/auth/validate-address',
    access: 'signed-in',
    target: 'none',
    request: { body: { address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001' } },
    allowed: 200,
  },
  {
    method: 'PUT',
    path: '/api/auth/update-profile',
    access: 'signed-in',
    target: 'none',
    request: { form: { fields: { name: 'Matrix Renamed' } } },
    allowed: 200,
  },
  {
    // The fixtures' people have no password: a wrong old password is the 400 every signed-in caller gets.
    method: 'PUT',
    path: '/api/auth/change-password',
    access: 'signed-in',
    target: 'none',
    request: { body: { old_password: 'not-the-password-1', new_password: 'a-Much-better-pass-42' } },
    allowed: 400,
  },
  {
    method: 'GET',
    path: '/api/auth/user-info',
    access: 'patient-only',
    target: 'none',
    request: { query: { email: fill('new-email') } },
    // Nobody has the fresh address: a patient gets 404, a caregiver 403.
    allowed: 404,
  },
  {
    method: 'GET',
    path: '/api/auth/sessions',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'DELETE',
    path: '/api/auth/sessions/:id',
    access: 'signed-in',
    target: 'owner-session',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/auth/logout-all',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'GET',
    path: '/api/auth/:id',
    access: 'signed-in',
    target: 'owner-account',
    request: { params: { id: fill('owner-user-id') } },
    allowed: 200,
  },
];

// ---- Caregivers (SPEC section 7: /request, and the public invitation calls under /auth) ----

const careRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/auth/invite/:token',
    access: 'public',
    target: 'none',
    // A well-formed token that was never handed out.
    request: { params: { token: 'A'.repeat(43) } },
    allowed: 404,
  },
  {
    method: 'POST',
    path: '/api/auth/invite-register',
    access: 'public',
    target: 'none',
    request: { body: {} },
    allowed: 400,
  },
  {
    method: 'POST',
    path: '/api/auth/onboarding',
    access: 'public',
    target: 'none',
    request: { body: { token: 'A'.repeat(43) } },
    allowed: 400,
  },
  {
    method: 'POST',
    path: '/api/request/send-request',
    access: 'patient-only',
    target: 'none',
    request: {
      body: { caregiver_email: fill('new-email'), is_family: false, permissions: ['ReadAppointment'] },
    },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/request/sent',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/request/received',
    access: 'caregiver-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/request/approved',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/request/associate-patients',
    access: 'caregiver-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'POST',
    path: '/api/request/approve',
    access: 'caregiver-only',
    target: 'invitation',
    request: { body: { request_id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'PATCH',
    path: '/api/request/reject',
    access: 'caregiver-only',
    target: 'invitation',
    request: { body: { request_id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/request/delete',
    access: 'signed-in',
    target: 'care-link',
    request: { body: { request_id: fill('target-id'), status: 'approved', request_type: 'approved' } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'PUT',
    path: '/api/request/update-permission',
    access: 'patient-only',
    target: 'care-link',
    request: { body: { permission_id: fill('target-id'), permissions: ['ReadAppointment', 'ReadDoctor'] } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'GET',
    path: '/api/request/permission-requests',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    // Only a caregiver linked to the patient may ask them: anyone else is refused with 403.
    method: 'POST',
    path: '/api/request/permission-requests',
    access: 'caregiver-only',
    target: 'owner-patient',
    request: {
      body: { patient_id: fill('owner-patient-id'), requested_permissions: [fill('permission-not-held')] },
    },
    allowed: 200,
    refused: 403,
    isolation: 'case',
  },
  {
    method: 'PUT',
    path: '/api/request/permission-requests',
    access: 'patient-only',
    target: 'permission-request',
    request: { body: { request_id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'PUT',
    path: '/api/request/reject-permission',
    access: 'patient-only',
    target: 'permission-request',
    request: { body: { request_id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  {
    method: 'GET',
    path: '/api/request/activity',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
];

// ---- The provider directory (public NPPES data: anyone signed in may search it) ----

const directoryRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/doctors/list',
    access: { permission: 'ReadDoctor' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'POST',
    path: '/api/doctors/add',
    access: { permission: 'AddDoctors' },
    target: 'owner-patient',
    request: { body: { patient_id: fill('owner-patient-id'), doctor_id: fill('directory-doctor-id') } },
    allowed: 201,
    refused: 403,
    isolation: 'case', // a doctor is added once: a second add is 409
  },
  {
    method: 'DELETE',
    path: '/api/doctors/:id',
    access: { permission: 'DeleteDoctor' },
    target: 'owner-doctor',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'GET',
    path: '/api/doctors',
    access: 'signed-in',
    target: 'none',
    request: { query: { name: 'matrix', zip: '10001' } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/doctors/:id',
    access: 'signed-in',
    target: 'none',
    request: { params: { id: fill('directory-doctor-id') } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/pharmacies',
    access: 'signed-in',
    target: 'none',
    request: { query: { zip: '10001' } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/pharmacies/list',
    access: { permission: 'ReadPharmacy' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  // A patient's pharmacies are changed by the patient only: the spec gives caregivers no such permission.
  {
    method: 'POST',
    path: '/api/pharmacies/add',
    access: 'patient-only',
    target: 'owner-patient',
    request: { body: { patient_id: fill('owner-patient-id'), pharmacy_id: fill('directory-pharmacy-id') } },
    allowed: 201,
    refused: 403,
    isolation: 'case',
  },
  {
    method: 'PUT',
    path: '/api/pharmacies/:id',
    access: 'patient-only',
    target: 'owner-pharmacy',
    request: { params: { id: fill('target-id') }, body: { preferred: true } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/pharmacies/:id',
    access: 'patient-only',
    target: 'owner-pharmacy',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
];

// ---- Records, sync and files ----

const recordRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/appointments',
    access: { permission: 'ReadAppointment' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    method: 'POST',
    path: '/api/appointments',
    access: { permission: 'AddAppointment' },
    target: 'owner-patient',
    request: { body: newAppointment },
    allowed: 201,
    refused: 403,
  },
  {
    method: 'GET',
    path: '/api/appointments/:id',
    access: { permission: 'ReadAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    shows: 'record',
  },
  {
    method: 'PUT',
    path: '/api/appointments/:id',
    access: { permission: 'EditAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') }, body: { location: 'Matrix ward' } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/appointments/:id',
    access: { permission: 'DeleteAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    // Everyone signed in may pull; each gets only what their scope covers.
    method: 'GET',
    path: '/api/sync/pull',
    access: { permission: 'ReadAppointment' },
    target: 'owner-record',
    request: {},
    allowed: 200,
    refused: 'filtered',
    shows: 'record',
  },
  {
    method: 'POST',
    path: '/api/sync/push',
    access: { permission: 'EditAppointment' },
    target: 'owner-record',
    request: {
      body: {
        changes: [
          {
            idempotency_key: fill('new-key'),
            resource: 'appointments',
            op: 'update',
            id: fill('target-id'),
            payload: { location: 'Matrix ward' },
          },
        ],
      },
    },
    allowed: 200,
    item: { allowed: 200, refused: RECORD_CHANGE_REFUSED },
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/upload-image',
    access: 'signed-in',
    target: 'none',
    request: { query: { type: 'appointment' }, form: { fields: {}, file: { field: 'image' } } },
    allowed: 201,
  },
  {
    method: 'GET',
    path: '/api/upload-image/preview_image',
    access: { permission: 'ReadAppointment' },
    target: 'owner-file',
    request: { query: { key: fill('target-id') } },
    allowed: 200,
  },
  {
    // A stored file is served by its signed link alone: a bearer token, even the owner's, opens nothing.
    method: 'GET',
    path: '/api/files/*',
    access: 'public',
    target: 'owner-file',
    request: { params: { '*': fill('target-id') } },
    allowed: 403,
  },
];

export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'GET', path: '/api/health', access: 'public', target: 'none', request: {}, allowed: 200 },
  ...authRoutes,
  ...careRoutes,
  ...directoryRoutes,
  ...recordRoutes,
];

/** Routes the matrix does not play: they serve no one's data (the OpenAPI document). */
export const ROUTES_OUTSIDE_THE_MATRIX: readonly { method: HttpMethod; path: `/api/${string}` }[] = [
  { method: 'GET', path: '/api/docs' },
];

export const routeName = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;
