import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import { pullQuerySchema, pullResponseSchema } from '../../domain/sync';
import { readScopeOf } from '../services/access';
import { pullChanges } from '../services/records';

// GET /api/sync/pull: every change the caller may see since the cursor, in pages.
export const syncRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);
  app.get(
    '/pull',
    {
      schema: {
        tags: ['sync'],
        querystring: pullQuerySchema,
        response: { 200: pullResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const scope = await readScopeOf(app.db, request.auth);
      return pullChanges(app.db, scope, request.query);
    },
  );
};
