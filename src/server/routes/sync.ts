import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import { pullQuerySchema, pullResponseSchema, pushBodySchema, pushResponseSchema } from '../../domain/sync';
import { readScopeOf } from '../services/access';
import { recordPulledPage } from '../services/care-activity';
import { moodScreeningView } from '../services/mood-screening';
import { pullChanges } from '../services/sync-pull';
import { applyPushedChanges } from '../services/sync-push';
import { removeFilesIfUnused } from '../services/orphan-files';
import { typedAnswer } from './typed-answer';

// GET /api/sync/pull: every change the caller may see since the cursor, in pages (a caregiver's pages are
// recorded as deliveries on each patient's activity log).
// POST /api/sync/push: a batch of queued changes, each answered as its REST call would be (see sync-push).
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
      // Built from typed rows by pullChanges (see typed-answer.ts).
      ...typedAnswer,
    },
    async (request) => {
      const scope = await readScopeOf(app.db, request.auth);
      // A patient's check-ins reach a caregiver without the mood screening unless the patient shares it.
      const view = await moodScreeningView(app.db, request.auth, scope);
      const page = await pullChanges(app.db, scope, request.query, view);
      // A caregiver's device received a patient's records: the patient sees it on their activity log.
      await recordPulledPage(app.db, request.auth, page.changes);
      return page;
    },
  );
  app.post(
    '/push',
    {
      schema: {
        tags: ['sync'],
        body: pushBodySchema,
        response: {
          200: pushResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          413: errorBodySchema,
        },
      },
    },
    async (request) => ({
      results: await applyPushedChanges(app.db, request.auth, request.body.changes, request.log, (keys) =>
        removeFilesIfUnused(app.db, app.storage, keys),
      ),
    }),
  );
};
