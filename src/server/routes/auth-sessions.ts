import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema, sessionIdParamsSchema, sessionListResponseSchema } from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { endAllSessions, endSession, listLiveSessions } from '../services/sessions';
import { signedIn } from './auth-common';

// The person's sign-ins: sign out here, sign out everywhere, see where they are signed in and end any
// of those sessions. Ending a session stops its token at once (plugins/auth.ts). auth.ts registers
// these among its signed-in routes: the caller is authenticated before anything else.

export const SIGNED_OUT_MESSAGE = 'Signed out.';
export const SIGNED_OUT_EVERYWHERE_MESSAGE = 'Signed out of all devices.';
export const SESSION_ENDED_MESSAGE = 'Session ended.';
export const SESSION_NOT_FOUND_MESSAGE = 'Session not found.';

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: "Ends the caller's session: its token is refused from now on.",
        ...signedIn,
        response: { 200: messageResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      // Already ended by a call that raced this one: signed out either way.
      await endSession(app.db, request.auth.userId, request.auth.sessionId);
      return { success: true, message: SIGNED_OUT_MESSAGE };
    },
  );

  app.post(
    '/logout-all',
    {
      schema: {
        tags: ['auth'],
        summary: "Ends every session of the caller's account, this one too.",
        ...signedIn,
        response: { 200: messageResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      await endAllSessions(app.db, request.auth.userId);
      return { success: true, message: SIGNED_OUT_EVERYWHERE_MESSAGE };
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['auth'],
        summary:
          "The caller's live sessions, newest first (at most 20): when, from which browser and address; " +
          "`current` marks the caller's own.",
        ...signedIn,
        response: { 200: sessionListResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const live = await listLiveSessions(app.db, request.auth.userId);
      return {
        success: true as const,
        data: live.map((session) => ({
          id: session.id,
          created_at: session.createdAt.toISOString(),
          last_seen_at: session.lastSeenAt.toISOString(),
          user_agent: session.userAgent,
          address: session.address,
          current: session.id === request.auth.sessionId,
        })),
      };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        tags: ['auth'],
        summary: "Ends one of the caller's sessions (the caller's own too, which signs out here).",
        ...signedIn,
        params: sessionIdParamsSchema,
        response: {
          200: messageResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      // Another person's session is "not found", like an unknown id: nobody learns which ids exist.
      if (!(await endSession(app.db, request.auth.userId, request.params.id))) {
        throw new HttpError(404, SESSION_NOT_FOUND_MESSAGE);
      }
      return { success: true, message: SESSION_ENDED_MESSAGE };
    },
  );
};
