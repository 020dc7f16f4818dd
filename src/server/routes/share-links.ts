import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import {
  manifestRefusalSchema,
  manifestRequestSchema,
  manifestSchema,
  manifestTokenSchema,
  SHARE_LINK_LIMITS,
  SHARE_LINK_MESSAGES,
  shareLinkCreatedSchema,
  shareLinkCreateSchema,
  shareLinkIdParamsSchema,
  shareLinkListSchema,
  shareLinkSchema,
} from '../../domain/share-links';
import { HttpError } from '../plugins/errors';
import { requireBetaPolicyAccepted } from '../services/access';
import { createShareLink, listShareLinks, openShareLink, revokeShareLink } from '../services/share-links';
import { byAddress, byUser, limitBy } from './auth-rate-limit';

// Share links (README.md beside this file, "Share links"). /api/share-links: the patient makes, lists and
// turns off their links (signed in, patients only: handing records to someone outside Kincare is the
// patient's decision alone). /api/shl/:token: the link's manifest address, public as SMART Health Links
// has it: whoever holds the link asks it for the encrypted snapshot, with the passcode when there is one.

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Links made per person per minute, and manifest requests per address per minute (passcode guesses). */
const CREATES_PER_MINUTE = 10;
const OPENS_PER_MINUTE = 30;

function patientOf(auth: { patientId?: string | null }): string {
  if (!auth.patientId) throw new HttpError(403, SHARE_LINK_MESSAGES.patientsOnly);
  return auth.patientId;
}

export const shareLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['share links'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "The patient's share links, newest first, with the times each was opened",
        response: { 200: shareLinkListSchema, ...errors },
      },
    },
    async (request) => ({ data: await listShareLinks(app.db, patientOf(request.auth)) }),
  );

  app.post(
    '/',
    {
      // A snapshot of two years of records fits well inside the limit; the schema's own cap says so plainly.
      bodyLimit: Math.max(app.config.bodyLimitBytes, SHARE_LINK_LIMITS.snapshotMaxChars + 64 * 1024),
      preHandler: limitBy(app, [{ name: 'share-link-create', max: CREATES_PER_MINUTE, key: byUser }]),
      schema: {
        tags,
        summary: 'Stores a new share link: the snapshot the device encrypted, its expiry and passcode',
        body: shareLinkCreateSchema,
        response: { 201: shareLinkCreatedSchema, ...errors, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const patientId = patientOf(request.auth);
      await requireBetaPolicyAccepted(app.db, request.auth.userId);
      const created = await createShareLink(app.db, { patientId, userId: request.auth.userId }, request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Turns a share link off for good; its snapshot is deleted',
        params: shareLinkIdParamsSchema,
        response: { 200: shareLinkSchema, ...errors },
      },
    },
    async (request) => revokeShareLink(app.db, patientOf(request.auth), request.params.id),
  );
};

/** Any site's viewer may ask a manifest (SMART Health Links), so its answers allow every origin. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
};

export const shareLinkManifestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (_request, reply) => {
    void reply.headers(CORS);
  });

  app.options('/:token', { schema: { hide: true, params: manifestTokenSchema } }, async (_request, reply) =>
    reply.status(204).send(),
  );

  app.post(
    '/:token',
    {
      preValidation: limitBy(app, [{ name: 'share-link-open', max: OPENS_PER_MINUTE, key: byAddress }]),
      schema: {
        tags: ['share links'],
        summary: "A share link's manifest: its encrypted snapshot, given the passcode if it has one",
        params: manifestTokenSchema,
        body: manifestRequestSchema,
        response: {
          200: manifestSchema,
          400: errorBodySchema,
          401: manifestRefusalSchema,
          404: manifestRefusalSchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      return openShareLink(app.db, request.params.token, request.body);
    },
  );
};
