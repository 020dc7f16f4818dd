import { givePlan } from '../../fixtures/plans';
import { createHmac, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ApiRoute, RouteTarget } from '../../../src/domain/api-routes';
import { PERMISSIONS, type Permission } from '../../../src/domain/permissions';
import {
  careLinks,
  careRequests,
  directoryDoctors,
  directoryPharmacies,
  permissionRequests,
  users,
} from '../../../src/server/db/schema';
import { TINY_PNG } from '../../fixtures/images';
import { EXAMPLE_SNAPSHOT } from '../../../src/domain/api-routes-share-links';
import { as, link, makePerson, type Person } from '../fixtures';
import { multipartForm, type TestContext } from '../helpers';
import { resourceOf } from '../../../src/domain/resources/list';
import { isRecordsResource, recordsOfResource } from '../../../src/domain/resources/records-list';

// The people and data one route is played with: the owner patient and the other callers, their links,
// the owner's record (titled with a secret the answers are searched for), and the route's target.

export const CALLERS = [
  'owner',
  'other-patient',
  'unlinked-caregiver',
  'linked-without-permission',
  'linked-with-permission',
  'revoked-caregiver',
  'no-token',
  'expired-token',
  'ended-session',
] as const;
export type Caller = (typeof CALLERS)[number];
export type PersonCaller = Exclude<Caller, 'no-token' | 'expired-token' | 'ended-session'>;

export type Cast = {
  owner: Person;
  ownerEmail: string;
  /** The bearer token of each caller the cast was built for. */
  tokens: Partial<Record<Caller, string>>;
  /** What the two linked caregivers were granted. */
  granted: { with: Permission[]; without: Permission[] };
  /** A permission the linked caregiver with the permission does not hold. */
  permissionNotHeld: Permission;
  /** The owner's appointment: its id, and a title no other data holds. */
  record: { id: string; title: string } | null;
  /** The id of the route's target (see RouteTarget), when it names one. */
  targetId: string | null;
  /**
   * The e-mail of the unlinked caregiver, when the owner's waiting invitation went to them (it shows them
   * the owner; nobody else but the owner may see where it went).
   */
  inviteeEmail: string | null;
  /** A doctor of the provider directory (public data: every signed-in caller may read it). */
  directoryDoctorId: string;
  /** A pharmacy of the provider directory. */
  directoryPharmacyId: string;
};

export function isPersonCaller(caller: Caller): caller is PersonCaller {
  return caller !== 'no-token' && caller !== 'expired-token' && caller !== 'ended-session';
}

export const roleOf = (caller: PersonCaller): 'Patient' | 'Caregiver' =>
  caller === 'owner' || caller === 'other-patient' ? 'Patient' : 'Caregiver';

/**
 * With a permission route, the caregiver "with" holds only that permission and the one "without" every
 * other (so holding the rest never stands in for it). With any other route the link itself is what
 * counts: "with" holds ReadAppointment, "without" holds nothing.
 */
function grantsFor(route: ApiRoute): Cast['granted'] {
  if (typeof route.access === 'object') {
    const { permission } = route.access;
    return { with: [permission], without: PERMISSIONS.filter((other) => other !== permission) };
  }
  return { with: ['ReadAppointment'], without: [] };
}

function claimsOf(token: string): { sub: string; sid: string } {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sub: string;
    sid: string;
  };
  return payload;
}

/** The owner's live session, signed again with an exp an hour ago (as sessions.test.ts does). */
function expiredTokenOf(ctx: TestContext, token: string): string {
  const { sub, sid } = claimsOf(token);
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub, sid, iat: now - 7200, exp: now - 3600 })}`;
  return `${head}.${createHmac('sha256', ctx.config.jwtSecret).update(head).digest('base64url')}`;
}

/** A token of the owner's whose session was ended by POST /api/auth/logout. */
async function endedSessionOf(ctx: TestContext, owner: Person): Promise<string> {
  const token = ctx.app.issueToken({ id: owner.userId });
  const response = await as(ctx, { ...owner, token }, { method: 'POST', url: '/api/auth/logout' });
  if (response.statusCode !== 200) throw new Error(`logout for the ended session failed: ${response.body}`);
  return token;
}

async function emailOf(ctx: TestContext, person: Person): Promise<string> {
  const [row] = await ctx.database.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, person.userId));
  if (!row) throw new Error('no such user');
  return row.email;
}

async function linkId(ctx: TestContext, patient: Person, caregiver: Person): Promise<string> {
  const [row] = await ctx.database.db
    .select({ id: careLinks.id })
    .from(careLinks)
    .where(
      and(
        eq(careLinks.patientId, patient.patientId ?? ''),
        eq(careLinks.caregiverId, caregiver.caregiverId ?? ''),
      ),
    );
  if (!row) throw new Error('no such link');
  return row.id;
}

/** Revoked: the caregiver had every permission, then the owner ended the link as the app does. */
async function revoke(ctx: TestContext, owner: Person, caregiver: Person): Promise<void> {
  const id = await linkId(ctx, owner, caregiver);
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/request/delete',
    // A link made without an invitation is named by its own id.
    payload: { request_id: id, status: 'approved', request_type: 'approved' },
  });
  if (response.statusCode !== 200) throw new Error(`revoking the link failed: ${response.body}`);
}

/** A file the owner uploaded, for attaching to their record. */
/** One doctor in the directory, as the NPPES import writes them. */
async function directoryDoctor(ctx: TestContext): Promise<string> {
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi: '1234567893',
      name: 'Matrix Directory Doctor',
      speciality: 'Family Medicine',
      address: '1 Matrix Way',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      latitude: 40.75,
      longitude: -73.99,
    })
    .onConflictDoUpdate({ target: directoryDoctors.npi, set: { city: 'New York' } }) // built for each case
    .returning({ id: directoryDoctors.doctorId });
  if (!doctor) throw new Error('the directory doctor was not written');
  return doctor.id;
}

/** One pharmacy in the directory. */
async function directoryPharmacy(ctx: TestContext): Promise<string> {
  const [pharmacy] = await ctx.database.db
    .insert(directoryPharmacies)
    .values({
      npi: '1234567894',
      name: 'Matrix Directory Pharmacy',
      address: '2 Matrix Way',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      latitude: 40.75,
      longitude: -73.99,
    })
    .onConflictDoUpdate({ target: directoryPharmacies.npi, set: { city: 'New York' } })
    .returning({ id: directoryPharmacies.pharmacyId });
  if (!pharmacy) throw new Error('the directory pharmacy was not written');
  return pharmacy.id;
}

/** The directory pharmacy in the owner's list of pharmacies: the entry's id. */
async function ownerPharmacyEntry(ctx: TestContext, owner: Person, pharmacyId: string): Promise<string> {
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/pharmacies/add',
    payload: { patient_id: owner.patientId, pharmacy_id: pharmacyId },
  });
  if (response.statusCode !== 201) throw new Error(`seeding the owner's pharmacy failed: ${response.body}`);
  return response.json<{ data: { id: string } }>().data.id;
}

/** The directory doctor in the owner's list of doctors: the entry's id. */
async function ownerDoctorEntry(ctx: TestContext, owner: Person, doctorId: string): Promise<string> {
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/doctors/add',
    payload: { patient_id: owner.patientId, doctor_id: doctorId },
  });
  if (response.statusCode !== 201) throw new Error(`seeding the owner's doctor failed: ${response.body}`);
  return response.json<{ data: { id: string } }>().data.id;
}

async function ownerFile(ctx: TestContext, owner: Person): Promise<string> {
  const form = multipartForm({}, [
    { field: 'image', filename: 'letter.png', contentType: 'image/png', bytes: TINY_PNG },
  ]);
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/upload-image?type=appointment',
    payload: form.payload,
    headers: form.headers,
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.body}`);
  const key = response.json<{ files: { key: string }[] }>().files[0]?.key;
  if (!key) throw new Error('upload answered no key');
  return key;
}

/** The owner's prescription, its medicine named with the secret, active with an 08:00 dose from 2026. */
async function ownerPrescription(ctx: TestContext, owner: Person): Promise<Cast['record']> {
  const record = { id: randomUUID(), title: `Matrix secret ${randomUUID()}` };
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/prescriptions',
    payload: {
      id: record.id,
      patient_id: owner.patientId,
      medicine_name: record.title,
      times: ['08:00'],
      start_date: '2026-01-01',
      notes: 'Matrix notes',
    },
  });
  if (response.statusCode !== 201)
    throw new Error(`seeding the owner's prescription failed: ${response.body}`);
  return record;
}

/** The owner's lab report, its type named with the secret, holding the owner's file. */
async function ownerLabReport(
  ctx: TestContext,
  owner: Person,
  fileKey: string | null,
): Promise<Cast['record']> {
  const record = { id: randomUUID(), title: `Matrix secret ${randomUUID()}` };
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/lab-reports',
    payload: {
      id: record.id,
      patient_id: owner.patientId,
      report_type: record.title,
      report_date: '2026-01-01',
      attachment_key: fileKey ?? (await ownerFile(ctx, owner)),
    },
  });
  if (response.statusCode !== 201) throw new Error(`seeding the owner's lab report failed: ${response.body}`);
  return record;
}

async function ownerRecord(
  ctx: TestContext,
  owner: Person,
  attachmentKey: string | null,
): Promise<Cast['record']> {
  const record = { id: randomUUID(), title: `Matrix secret ${randomUUID()}` };
  const response = await as(ctx, owner, {
    method: 'POST',
    url: '/api/appointments',
    payload: {
      id: record.id,
      patient_id: owner.patientId,
      appointment_title: record.title,
      appointment_date: '2026-12-01T09:30:00.000Z',
      notes: 'Matrix notes',
      attachment_key: attachmentKey,
    },
  });
  if (response.statusCode !== 201) throw new Error(`seeding the owner's record failed: ${response.body}`);
  return record;
}

/** The owner's record of a resource served from its declaration: its example, titled with the secret. */
async function ownerDeclaredRecord(
  ctx: TestContext,
  owner: Person,
  declaration: { path: string; titleField: string; example: object },
): Promise<Cast['record']> {
  const record = { id: randomUUID(), title: `Matrix secret ${randomUUID()}` };
  const response = await as(ctx, owner, {
    method: 'POST',
    url: declaration.path,
    payload: {
      ...declaration.example,
      id: record.id,
      patient_id: owner.patientId,
      [declaration.titleField]: record.title,
    },
  });
  if (response.statusCode !== 201) throw new Error(`seeding the owner's record failed: ${response.body}`);
  return record;
}

/** Waiting requests written as the /request routes keep them, so the routes have something to refuse. */
async function inviteUnlinked(ctx: TestContext, owner: Person, caregiver: Person, permissions: Permission[]) {
  const [row] = await ctx.database.db
    .insert(careRequests)
    .values({
      patientId: owner.patientId ?? '',
      caregiverId: caregiver.caregiverId,
      caregiverEmail: await emailOf(ctx, caregiver),
      permissions,
      status: 'sent',
    })
    .returning({ id: careRequests.id });
  if (!row) throw new Error('no invitation');
  return row.id;
}

async function askForPermission(ctx: TestContext, owner: Person, caregiver: Person, permission: Permission) {
  const [row] = await ctx.database.db
    .insert(permissionRequests)
    .values({
      linkId: await linkId(ctx, owner, caregiver),
      patientId: owner.patientId ?? '',
      caregiverId: caregiver.caregiverId ?? '',
      requestedPermissions: [permission],
      status: 'pending',
    })
    .returning({ id: permissionRequests.id });
  if (!row) throw new Error('no permission request');
  return row.id;
}

/** Who must exist for this route's target, besides the owner. */
function partiesOfTarget(route: ApiRoute): PersonCaller[] {
  const careLists = seedsCareLists(route);
  return [
    ...(careLists || route.target === 'invitation' ? (['unlinked-caregiver'] as const) : []),
    ...(careLists || route.target === 'care-link' || route.target === 'permission-request'
      ? (['linked-with-permission'] as const)
      : []),
  ];
}

/** The /request lists get something of the owner's to show, or to keep from the wrong caller. */
const seedsCareLists = (route: ApiRoute) => route.method === 'GET' && route.path.startsWith('/api/request/');

const PERSON_NAMES: Record<PersonCaller, string> = {
  owner: 'Matrix Owner',
  'other-patient': 'Matrix Other Patient',
  'unlinked-caregiver': 'Matrix Unlinked Caregiver',
  'linked-without-permission': 'Matrix Caregiver Without',
  'linked-with-permission': 'Matrix Caregiver With',
  'revoked-caregiver': 'Matrix Revoked Caregiver',
};

/**
 * Everything a route is played with. For one caller only (`only`), just what that case needs: the owner,
 * that caller, and the people the route's target involves (a case of its own is built for every call that
 * changes people or links, so the cheaper the better).
 */
export async function buildCast(ctx: TestContext, route: ApiRoute, only?: Caller): Promise<Cast> {
  const granted = grantsFor(route);
  const wanted = new Set<PersonCaller>(
    only === undefined
      ? (Object.keys(PERSON_NAMES) as PersonCaller[])
      : ['owner', ...(isPersonCaller(only) ? [only] : []), ...partiesOfTarget(route)],
  );
  const made = await Promise.all(
    [...wanted].map(async (who) => [who, await makePerson(ctx, roleOf(who), PERSON_NAMES[who])] as const),
  );
  const people: Partial<Record<PersonCaller, Person>> = Object.fromEntries(made);
  const owner = people.owner;
  if (!owner) throw new Error('no owner');
  const linkedWith = people['linked-with-permission'];
  const linkedWithout = people['linked-without-permission'];
  const revoked = people['revoked-caregiver'];
  const unlinked = people['unlinked-caregiver'];
  if (linkedWithout) await link(ctx, owner, linkedWithout, granted.without);
  if (linkedWith) await link(ctx, owner, linkedWith, granted.with);
  if (revoked) {
    await link(ctx, owner, revoked, [...PERMISSIONS]);
    await revoke(ctx, owner, revoked);
  }

  const permissionNotHeld = PERMISSIONS.find((permission) => !granted.with.includes(permission));
  if (!permissionNotHeld) throw new Error('the caregiver with the permission holds them all');
  const fileKey = route.target === 'owner-file' ? await ownerFile(ctx, owner) : null;
  const seedsRecord =
    only === undefined ||
    typeof route.access === 'object' ||
    route.target === 'owner-record' ||
    route.target === 'owner-file';
  const declared = route.resource ? resourceOf(route.resource) : undefined;
  const record = !seedsRecord
    ? null
    : declared && isRecordsResource(declared.key)
      ? await ownerDeclaredRecord(ctx, owner, {
          ...declared,
          example: recordsOfResource(declared.key).example,
        })
      : route.resource === 'prescriptions'
        ? await ownerPrescription(ctx, owner)
        : route.resource === 'lab_reports'
          ? await ownerLabReport(ctx, owner, fileKey)
          : await ownerRecord(ctx, owner, fileKey);
  const invitation =
    unlinked && (seedsCareLists(route) || route.target === 'invitation')
      ? await inviteUnlinked(ctx, owner, unlinked, ['ReadAppointment'])
      : null;
  const permissionRequest =
    linkedWith && (seedsCareLists(route) || route.target === 'permission-request')
      ? await askForPermission(ctx, owner, linkedWith, permissionNotHeld)
      : null;

  // A plan with no caregiver limit: the matrix links and invites more caregivers than Free allows. The
  // subscription routes start from no plan (subscribe) or the Free plan ('owner-subscription').
  if (!route.path.startsWith('/api/stripe/')) await givePlan(ctx.database.db, owner.userId, 'plus-yearly');
  const directoryDoctorId = await directoryDoctor(ctx);
  const directoryPharmacyId = await directoryPharmacy(ctx);
  const targets: Record<RouteTarget, () => string | null | Promise<string | null>> = {
    none: () => null,
    'owner-patient': () => owner.patientId,
    'owner-account': () => owner.userId,
    'owner-record': () => record?.id ?? null,
    'owner-doctor': () => ownerDoctorEntry(ctx, owner, directoryDoctorId),
    'owner-pharmacy': () => ownerPharmacyEntry(ctx, owner, directoryPharmacyId),
    'owner-file': () => fileKey,
    'owner-session': async () => {
      const token = ctx.app.issueToken({ id: owner.userId });
      // The session row is written in the background; a request with its own token waits for it, so the
      // case never asks to end a session whose row is not there yet (Postgres answered 404 once).
      await as(ctx, { token }, { method: 'GET', url: '/api/auth/sessions' });
      return claimsOf(token).sid;
    },
    'owner-subscription': async () => {
      await givePlan(ctx.database.db, owner.userId, 'free');
      const row = await ctx.app.billing.subscriptionOf(owner.userId);
      return row?.customer_id ?? null;
    },
    'owner-share-link': async () => {
      const made = await as(ctx, owner, {
        method: 'POST',
        url: '/api/share-links',
        payload: { label: 'Matrix', expires_in_seconds: 3600, snapshot: EXAMPLE_SNAPSHOT },
      });
      return (made.json() as { link: { id: string } }).link.id;
    },
    'care-link': () => (linkedWith ? linkId(ctx, owner, linkedWith) : null),
    invitation: () => invitation,
    'permission-request': () => permissionRequest,
  };
  const tokens: Partial<Record<Caller, string>> = Object.fromEntries(
    made.map(([who, person]) => [who, person.token]),
  );
  if (only === undefined || only === 'expired-token')
    tokens['expired-token'] = expiredTokenOf(ctx, owner.token);
  if (only === undefined || only === 'ended-session')
    tokens['ended-session'] = await endedSessionOf(ctx, owner);
  return {
    owner,
    ownerEmail: await emailOf(ctx, owner),
    tokens,
    granted,
    permissionNotHeld,
    record,
    targetId: await targets[route.target](),
    inviteeEmail: unlinked && invitation ? await emailOf(ctx, unlinked) : null,
    directoryDoctorId,
    directoryPharmacyId,
  };
}

/** The bearer token this caller sends: null for 'no-token'. */
export function tokenOf(cast: Cast, caller: Caller): string | null {
  if (caller === 'no-token') return null;
  const token = cast.tokens[caller];
  if (!token) throw new Error(`the cast was not built for ${caller}`);
  return token;
}
