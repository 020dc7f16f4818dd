import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  userIdParamsSchema,
  userInfoQuerySchema,
  userInfoResponseSchema,
  userResponseSchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { areLinked, findLinkedCaregiverByEmail, findPublicUserById } from '../services/user-directory';
import { signedIn } from './auth-common';
import { byAddress, byUser, LIMIT_FACTORS, limitBy } from './auth-rate-limit';

// Looking other people up: by e-mail (a patient, among their own caregivers) and by id (only oneself and
// linked people). Neither tells whether an e-mail or an id has an account: a person the caller is not
// linked to gets the answer of an e-mail or id nobody has. An invitation needs no look-up (send-request
// answers the same for every e-mail).

export const ONLY_PATIENTS_LOOK_UP_MESSAGE = 'Only patients can look people up to invite them.';
export const NO_USER_WITH_EMAIL_MESSAGE = 'None of your caregivers has this e-mail address.';

/** The caller's patient id: only a patient has caregivers to look up. */
function callerPatientId(request: FastifyRequest): string {
  const { role, patientId } = request.auth;
  if (role !== 'Patient' || !patientId) throw new HttpError(403, ONLY_PATIENTS_LOOK_UP_MESSAGE);
  return patientId;
}

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { otpPerMinute } = app.config.rateLimits;

  app.get(
    '/user-info',
    {
      preHandler: limitBy(app, [
        { name: 'user-info-user', max: otpPerMinute * LIMIT_FACTORS.userInfoPerUser, key: byUser },
        { name: 'user-info-address', max: otpPerMinute * LIMIT_FACTORS.userInfoPerAddress, key: byAddress },
      ]),
      schema: {
        tags: ['auth'],
        summary:
          'For a signed-in patient: the id, name and role of their linked caregiver with this e-mail (404 for any other e-mail).',
        ...signedIn,
        querystring: userInfoQuerySchema,
        response: {
          200: userInfoResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = await findLinkedCaregiverByEmail(app.db, callerPatientId(request), request.query.email);
      if (!user) throw new HttpError(404, NO_USER_WITH_EMAIL_MESSAGE);
      return { success: true as const, data: user };
    },
  );

  // Registered last: as a parametric path it must never be mistaken for /profile or /user-info.
  app.get(
    '/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'A user the caller may see: themselves, or someone linked to them as patient or caregiver.',
        ...signedIn,
        params: userIdParamsSchema,
        response: {
          200: userResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { userId } = request.auth;
      const allowed = id === userId || (await areLinked(app.db, userId, id));
      const user = allowed ? await findPublicUserById(app.db, id) : null;
      // Not "forbidden": a stranger must not learn that the id exists.
      if (!user) throw new HttpError(404, 'User not found.');
      return { success: true as const, data: user };
    },
  );
};
