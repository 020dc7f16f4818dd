import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addressBodySchema,
  betaPolicyBodySchema,
  profileResponseSchema,
  validatedAddressResponseSchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { users } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { checkUsAddress } from '../services/zip-lookup';
import { requireProfile, signedIn } from './auth-common';
import { typedAnswer } from './typed-answer';
import { byUser, limitBy, VALIDATE_ADDRESS_PER_MINUTE } from './auth-rate-limit';

// The signed-in user's own profile: read it, accept the beta policy, check a US address.
// (update-profile, which takes a multipart form, lives in auth-update-profile.ts.) auth.ts registers
// these among its signed-in routes: the caller is authenticated before anything else.

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/profile',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's profile.",
        ...signedIn,
        response: { 200: profileResponseSchema, 401: errorBodySchema },
      },
      ...typedAnswer, // built field by field by loadProfile
    },
    async (request) => ({ success: true as const, data: await requireProfile(app, request.auth.userId) }),
  );

  app.post(
    '/beta-policy',
    {
      schema: {
        tags: ['auth'],
        summary: 'Records that the user ticked the four acknowledgements of the beta-user policy.',
        ...signedIn,
        body: betaPolicyBodySchema,
        response: { 200: profileResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const now = new Date();
      await app.db
        .update(users)
        .set({ betaPolicyAcknowledgements: request.body, betaPolicyAcceptedAt: now, updatedAt: now })
        .where(eq(users.id, request.auth.userId));
      return { success: true as const, data: await requireProfile(app, request.auth.userId) };
    },
  );

  app.post(
    '/validate-address',
    {
      preHandler: limitBy(app, [
        { name: 'validate-address-user', max: VALIDATE_ADDRESS_PER_MINUTE, key: byUser },
      ]),
      schema: {
        tags: ['auth'],
        summary: 'Checks a US address: the zip must exist and belong to the city and state given.',
        ...signedIn,
        body: addressBodySchema,
        response: {
          200: validatedAddressResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const result = checkUsAddress(request.body);
      if (!result.ok) throw new HttpError(400, result.message);
      return { success: true as const, data: result.address };
    },
  );
};
