import type { ApiRoute, Refusal, RouteTarget } from '../../../src/domain/api-routes';
import { RESOURCE_READ_PERMISSION } from '../../../src/domain/permissions';
import { isPersonCaller, roleOf, type Caller, type Cast, type PersonCaller } from './cast';

// What each caller must get from a route, derived from its line in the table (src/domain/api-routes.ts).

export type Expected = {
  status: number;
  /** For a batch: the status of its first item. */
  item?: number;
  /** The answer may hold the owner's record (the caller may read it, and the call succeeded). */
  mayReadRecord: boolean;
  /** The answer must hold the owner's record (a read by a caller allowed to read it). */
  mustShowRecord: boolean;
  /** The answer may hold the owner's e-mail (the owner, a linked caregiver, or one the owner invited). */
  mayKnowOwner: boolean;
  /** The answer may hold the e-mail the owner's waiting invitation went to (the owner, the invitee). */
  mayKnowInvitee: boolean;
};

const UNAUTHENTICATED = 401;
const WRONG_ROLE = 403;

/** Whose the target is, for the routes that are not decided by a permission. */
const PARTIES: Record<RouteTarget, readonly PersonCaller[] | 'anyone'> = {
  none: 'anyone',
  'owner-patient': ['owner', 'linked-with-permission', 'linked-without-permission'],
  'owner-account': ['owner', 'linked-with-permission', 'linked-without-permission'],
  'owner-record': ['owner'],
  'owner-doctor': ['owner'],
  'owner-pharmacy': ['owner'],
  'owner-file': ['owner'],
  'owner-session': ['owner'],
  'owner-subscription': ['owner'],
  'owner-share-link': ['owner'],
  'care-link': ['owner', 'linked-with-permission'],
  invitation: ['owner', 'unlinked-caregiver'],
  'permission-request': ['owner', 'linked-with-permission'],
};

function mayCall(route: ApiRoute, caller: PersonCaller): boolean {
  if (typeof route.access === 'object') return caller === 'owner' || caller === 'linked-with-permission';
  const parties = PARTIES[route.target];
  return parties === 'anyone' || parties.includes(caller);
}

function holdsRecordRead(route: ApiRoute, caller: PersonCaller, cast: Cast): boolean {
  const read = RESOURCE_READ_PERMISSION[route.resource ?? 'appointments'];
  if (caller === 'owner') return true;
  if (caller === 'linked-with-permission') return cast.granted.with.includes(read);
  if (caller === 'linked-without-permission') return cast.granted.without.includes(read);
  return false;
}

function knowsOwner(caller: Caller, cast: Cast): boolean {
  if (caller === 'owner' || caller === 'linked-with-permission' || caller === 'linked-without-permission')
    return true;
  return caller === 'unlinked-caregiver' && cast.inviteeEmail !== null;
}

const succeeded = (status: number) => status >= 200 && status < 300;

function refusalFor(route: ApiRoute, refusal: Refusal, caller: PersonCaller, cast: Cast): number {
  if (typeof refusal === 'number') return refusal;
  return holdsRecordRead(route, caller, cast) ? refusal.readable : refusal.unreadable;
}

export function expectedFor(route: ApiRoute, caller: Caller, cast: Cast): Expected {
  const nothingShown = {
    mayReadRecord: false,
    mustShowRecord: false,
    mayKnowOwner: knowsOwner(caller, cast),
    mayKnowInvitee: caller === 'owner' || caller === 'unlinked-caregiver',
  };
  if (route.access === 'public') return { status: route.allowed, ...nothingShown };
  if (!isPersonCaller(caller)) return { status: UNAUTHENTICATED, ...nothingShown };
  const role = roleOf(caller);
  if (
    (route.access === 'patient-only' && role !== 'Patient') ||
    (route.access === 'caregiver-only' && role !== 'Caregiver')
  ) {
    return { status: WRONG_ROLE, ...nothingShown };
  }
  const allowed = mayCall(route, caller);
  if (route.item) {
    const item = allowed ? route.item.allowed : refusalFor(route, route.item.refused, caller, cast);
    const readable = succeeded(item) && holdsRecordRead(route, caller, cast);
    return { ...nothingShown, status: route.allowed, item, mayReadRecord: readable };
  }
  if (allowed) {
    const readable = succeeded(route.allowed) && holdsRecordRead(route, caller, cast);
    return {
      ...nothingShown,
      status: route.allowed,
      mayReadRecord: readable,
      mustShowRecord: route.shows === 'record' && readable,
    };
  }
  const refused = route.refused ?? 404;
  const status = refused === 'filtered' ? route.allowed : refusalFor(route, refused, caller, cast);
  return { ...nothingShown, status };
}
