import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../domain/auth';
import {
  CARE_MESSAGES,
  permissionRequestBodySchema,
  permissionRequestListSchema,
  requestIdBodySchema,
} from '../../domain/caregivers';
import { errorBodySchema } from '../../domain/errors';
import { permissionLabels } from '../../domain/permissions';
import { careSideOf, notAllowed, requireCaregiver, requirePatient } from '../services/access';
import {
  answerPermissionRequest,
  listPermissionRequests,
  requestPermissions,
} from '../services/care-permission-requests';
import { permissionRequestMail } from '../services/mail-templates';

// /api/request/permission-requests and /api/request/reject-permission (services/README.md): a linked
// caregiver asks for more permissions, the patient accepts or declines. Registered by requests.ts, among
// the signed-in routes of app.ts.

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export const permissionRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['requests'];

  app.get(
    '/permission-requests',
    {
      schema: {
        tags,
        summary: 'Permission requests: those made to the patient, or those the caregiver made.',
        response: { 200: permissionRequestListSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listPermissionRequests(app.db, careSideOf(request.auth)),
    }),
  );

  app.post(
    '/permission-requests',
    {
      schema: {
        tags,
        summary: 'A linked caregiver asks the patient for more permissions.',
        body: permissionRequestBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caregiverId = requireCaregiver(request.auth);
      const body = request.body;
      if (body.caregiver_id && body.caregiver_id !== caregiverId) throw notAllowed();
      const asked = await requestPermissions(app.db, caregiverId, {
        patientId: body.patient_id,
        linkId: body.permission_id ?? null,
        permissions: body.requested_permissions,
      });
      // The patient hears of it by e-mail; a mail that cannot be sent does not undo the request, which
      // waits on their Caregiver Permissions Request screen all the same.
      try {
        await app.sendMail(
          permissionRequestMail(
            asked.patient,
            asked.caregiverName,
            permissionLabels(asked.permissions),
            `${app.config.publicUrl}/permission-request`,
          ),
        );
      } catch (error) {
        app.log.error({ err: error }, 'could not send the permission request e-mail');
      }
      return { success: true, message: CARE_MESSAGES.permissionRequestSent };
    },
  );

  app.put(
    '/permission-requests',
    {
      schema: {
        tags,
        summary: "The patient accepts a permission request: its permissions join the caregiver's.",
        body: requestIdBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      await answerPermissionRequest(app.db, patientId, request.body.request_id, 'approved');
      return { success: true, message: CARE_MESSAGES.permissionRequestApproved };
    },
  );

  app.put(
    '/reject-permission',
    {
      schema: {
        tags,
        summary: 'The patient declines a permission request.',
        body: requestIdBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      await answerPermissionRequest(app.db, patientId, request.body.request_id, 'rejected');
      return { success: true, message: CARE_MESSAGES.permissionRequestRejected };
    },
  );
};
