import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userIdParamsSchema, userInfoQuerySchema, userResponseSchema } from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { areLinked, findPublicUserByEmail, findPublicUserById } from '../services/user-directory';
import { signedIn } from './auth-common';

// Looking other people up: by e-mail (before inviting them) and by id (only oneself and linked people).

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user-info',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Finds a user by e-mail.',
        ...signedIn,
        querystring: userInfoQuerySchema,
        response: {
          200: userResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = await findPublicUserByEmail(app.db, request.query.email);
      if (!user) throw new HttpError(404, 'No user found with this email.');
      return { success: true as const, data: user };
    },
  );

  // Registered last: as a parametric path it must never be mistaken for /profile or /user-info.
  app.get(
    '/:id',
    {
      preHandler: app.authenticate,
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
