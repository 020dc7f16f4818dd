import type { Permission } from './permissions';
import type { SyncedResource } from './resources/list';

// The shape of a line of the route table (api-routes.ts) and the values its recipes share.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

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
 * - 'owner-subscription': the owner's subscription, by its customer id (the owner is on the Free plan).
 * - 'owner-share-link': one of the owner's share links, by its id.
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
  | 'owner-subscription'
  | 'owner-share-link'
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
  form?: { fields: Readonly<Record<string, string | Fill>>; file?: { field: string } };
};

/**
 * A refusal. `{ readable, unreadable }`: a change of a record refused to a caller who may read the record
 * says why (403); to one who may not, the record does not exist (404).
 */
export type Refusal = 403 | 404 | { readable: 403; unreadable: 404 };

/** The refusal of a change of a record (see Refusal). */
export const RECORD_CHANGE_REFUSED = { readable: 403, unreadable: 404 } as const satisfies Refusal;

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
  /**
   * The kind of the owner's record the call is about (the one the matrix seeds, titled with a secret, and
   * whose Read permission decides who may see it): an appointment unless said.
   */
  resource?: SyncedResource;
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

export const fill = (what: Fill['$fill']): Fill => ({ $fill: what });

/** A new appointment of the owner's, made by the caller (the seeded one is titled by the matrix). */
export const newAppointment = {
  id: fill('new-uuid'),
  patient_id: fill('owner-patient-id'),
  appointment_title: 'Matrix follow-up',
  appointment_date: '2026-12-02T10:00:00.000Z',
};
