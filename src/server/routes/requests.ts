import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityListSchema,
  activityQuerySchema,
  approvedListSchema,
  associatePatientsResponseSchema,
  CARE_MESSAGES,
  deleteRequestBodySchema,
  INVITE_TTL_HOURS,
  inviteBodySchema,
  receivedListSchema,
  requestIdBodySchema,
  sentListSchema,
  updatePermissionBodySchema,
} from '../../domain/caregivers';
import { AUTH_MESSAGES, messageResponseSchema } from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import {
  careSideOf,
  notAllowed,
  requireBetaPolicyAccepted,
  requireCaregiver,
  requirePatient,
} from '../services/access';
import { listActivity } from '../services/care-activity';
import { careTokenHasher } from '../services/care-invites';
import { deleteCareRequest, updateLinkPermissions, type CareSide } from '../services/care-links';
import {
  approveRequest,
  caregiverAddressOf,
  listApproved,
  listAssociatedPatients,
  listReceived,
  listSent,
  rejectRequest,
  sendCareRequest,
  type SentInvite,
} from '../services/care-requests';
import { careInviteMail, careRequestForOtherAccountMail, careRequestMail } from '../services/mail-templates';
import { permissionRequestRoutes } from './requests-permissions';

// /api/request (caregiver requests): a patient invites caregivers and manages their access, a caregiver
// answers and leaves, both list what concerns them; the patient's activity log of what their caregivers
// did. Permission requests are in requests-permissions.ts. Every route needs a signed-in caller: app.ts
// registers these among its signed-in routes, authenticated before anything else.

/** Invitations one patient may send in an hour: enough for a family, too few to spam with. */
export const INVITES_PER_HOUR = 20;

export const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** A preHandler (after authentication) that allows `max` calls per person per hour, then answers 429. */
function perPersonPerHour(app: FastifyInstance, name: string, max: number) {
  const check = app.createRateLimit({
    max,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: (request) => `request:${name}:${request.auth.userId}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(Math.max(result.ttlInSeconds, 1)));
      throw new HttpError(429, AUTH_MESSAGES.tooManyRequests);
    }
  };
}

/** The caller as one side of a care link, as care-links.ts takes it. */
function careSide(request: FastifyRequest): CareSide {
  const side = careSideOf(request.auth);
  return side.side === 'patient'
    ? side
    : { side: 'caregiver', caregiver: caregiverAddressOf(request.auth, side.caregiverId) };
}

/** The invitation mail of each kind of address (one for every invitation, so the answers are alike). */
function invitationMail(origin: string, patientName: string, sent: SentInvite) {
  switch (sent.kind) {
    case 'caregiver-account':
      return careRequestMail(
        { name: sent.caregiverName, email: sent.caregiverEmail },
        patientName,
        `${origin}/login`,
      );
    case 'other-account':
      return careRequestForOtherAccountMail(
        { name: sent.accountName, email: sent.caregiverEmail },
        patientName,
      );
    case 'new-person':
      return careInviteMail(
        { email: sent.caregiverEmail },
        patientName,
        `${origin}/invite/register/${sent.inviteToken}`,
        INVITE_TTL_HOURS,
      );
  }
}

/**
 * The invitation mail. A failed send is logged, not thrown: the request exists either way (a caregiver
 * with an account sees it when they sign in; for a new person the patient can delete and invite again).
 */
async function mailInvitation(app: FastifyInstance, patientName: string, sent: SentInvite) {
  const message = invitationMail(app.config.publicUrl, patientName, sent);
  try {
    await app.sendMail(message);
  } catch (error) {
    app.log.error({ err: error }, 'could not send the invitation e-mail');
  }
}

export const requestRoutes: FastifyPluginAsyncZod = async (app) => {
  const hasher = careTokenHasher(app.config.jwtSecret);
  const tags = ['requests'];

  app.post(
    '/send-request',
    {
      preHandler: perPersonPerHour(app, 'send-request', INVITES_PER_HOUR),
      schema: {
        tags,
        summary:
          'A patient invites a caregiver by e-mail (a request, and a mail with a sign-in or sign-up link).',
        body: inviteBodySchema,
        response: { 200: messageResponseSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      const body = request.body;
      if (body.patient_id && body.patient_id !== patientId) throw notAllowed();
      await requireBetaPolicyAccepted(app.db, request.auth.userId);
      const sent = await sendCareRequest(
        app.db,
        hasher,
        { patientId, email: request.auth.email },
        {
          caregiverEmail: body.caregiver_email,
          isFamily: body.is_family,
          relationship: body.relationship,
          permissions: body.permissions,
          phoneNumber: body.phone_number,
        },
      );
      await mailInvitation(app, request.auth.name, sent);
      return { success: true, message: CARE_MESSAGES.requestSent };
    },
  );

  app.get(
    '/sent',
    {
      schema: {
        tags,
        summary: "The patient's invitations not yet accepted.",
        response: { 200: sentListSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listSent(app.db, requirePatient(request.auth)),
    }),
  );

  app.get(
    '/received',
    {
      schema: {
        tags,
        summary: "The caregiver's invitations waiting for an answer.",
        response: { 200: receivedListSchema, ...errors },
      },
    },
    async (request) => {
      const caregiverId = requireCaregiver(request.auth);
      return {
        success: true as const,
        data: await listReceived(app.db, caregiverAddressOf(request.auth, caregiverId)),
      };
    },
  );

  app.get(
    '/approved',
    {
      schema: {
        tags,
        summary: 'The care links of the caller (a patient sees caregivers, a caregiver patients).',
        response: { 200: approvedListSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listApproved(app.db, careSideOf(request.auth)),
    }),
  );

  app.get(
    '/associate-patients',
    {
      schema: {
        tags,
        summary: "The caregiver's patients and what they may do for each.",
        response: { 200: associatePatientsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      assigned_patients: await listAssociatedPatients(app.db, requireCaregiver(request.auth)),
    }),
  );

  app.post(
    '/approve',
    {
      schema: {
        tags,
        summary: 'The caregiver accepts an invitation: a care link with its permissions.',
        body: requestIdBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caregiverId = requireCaregiver(request.auth);
      await approveRequest(app.db, caregiverAddressOf(request.auth, caregiverId), request.body.request_id);
      return { success: true, message: CARE_MESSAGES.requestApproved };
    },
  );

  app.patch(
    '/reject',
    {
      schema: {
        tags,
        summary: 'The caregiver declines an invitation.',
        body: requestIdBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caregiverId = requireCaregiver(request.auth);
      await rejectRequest(app.db, caregiverAddressOf(request.auth, caregiverId), request.body.request_id);
      return { success: true, message: CARE_MESSAGES.requestRejected };
    },
  );

  app.post(
    '/delete',
    {
      schema: {
        tags,
        summary: 'Deletes a request from the list it shows in; an approved one ends the care link.',
        body: deleteRequestBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { request_id: requestId, status, request_type: requestType } = request.body;
      await deleteCareRequest(app.db, careSide(request), { requestId, status, requestType });
      return { success: true, message: CARE_MESSAGES.requestDeleted };
    },
  );

  app.put(
    '/update-permission',
    {
      schema: {
        tags,
        summary: "The patient replaces a linked caregiver's permissions and phone number.",
        body: updatePermissionBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      const { permission_id: linkId, permissions, phone_number: phoneNumber } = request.body;
      await updateLinkPermissions(app.db, patientId, { linkId, permissions, phoneNumber });
      return { success: true, message: CARE_MESSAGES.permissionsUpdated };
    },
  );

  app.get(
    '/activity',
    {
      schema: {
        tags,
        summary:
          "What the patient's caregivers did with their records, newest first: up to limit changes and up to limit lines of deliveries (one per caregiver, kind of record and day).",
        querystring: activityQuerySchema,
        response: { 200: activityListSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listActivity(app.db, requirePatient(request.auth), request.query.limit),
    }),
  );

  await app.register(permissionRequestRoutes);
};
