import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  inviteRegisterBodySchema,
  inviteRegisterResponseSchema,
  loginResponseSchema,
} from '../../domain/auth';
import {
  CARE_MESSAGES,
  inviteInfoResponseSchema,
  inviteTokenSchema,
  onboardingBodySchema,
} from '../../domain/caregivers';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { findAccountById } from '../services/accounts';
import {
  careTokenHasher,
  consumeOnboardingToken,
  findLiveInvite,
  registerThroughInvite,
} from '../services/care-invites';
import { hashPassword, requireUnguessablePassword } from '../services/passwords';
import { byAddress, LIMIT_FACTORS, limitBy } from './auth-rate-limit';

// The public side of invitations by e-mail: the registration page reads what the invitation is
// (GET /invite/:token), the invited person signs up as a caregiver linked to the patient
// (POST /invite-register), and the onboarding link signs them in the first time (POST /onboarding).
// The tokens are secrets to guess, so every call is limited by address like the other public /auth calls.

const inviteParamsSchema = z.object({ token: inviteTokenSchema });
const invalidInvite = () => new HttpError(404, CARE_MESSAGES.inviteInvalid);

export const inviteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { otpPerMinute } = app.config.rateLimits;
  const hasher = careTokenHasher(app.config.jwtSecret);
  const perAddress = (name: string) =>
    limitBy(app, [{ name, max: otpPerMinute * LIMIT_FACTORS.otpPerAddress, key: byAddress }]);

  app.get(
    '/invite/:token',
    {
      // The token is in the path, and the request log writes paths at 'info': this route's requests
      // log only warnings and errors, so the secret that opens the invitation stays out of the log.
      logLevel: 'warn',
      preHandler: perAddress('invite-info-address'),
      schema: {
        tags: ['auth'],
        summary: 'What an invitation link is for: the e-mail, the patient and the permissions offered.',
        params: inviteParamsSchema,
        response: {
          200: inviteInfoResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const invite = await findLiveInvite(app.db, hasher.invite(request.params.token));
      if (!invite) throw invalidInvite();
      return {
        success: true as const,
        data: {
          email: invite.caregiverEmail,
          patient_name: invite.patientName,
          permissions: invite.permissions,
        },
      };
    },
  );

  app.post(
    '/invite-register',
    {
      // Before validation, as for /register: the password strength check is the costly part of it.
      preValidation: limitBy(app, [
        {
          name: 'invite-register-address',
          max: otpPerMinute * LIMIT_FACTORS.registerPerAddress,
          key: byAddress,
        },
      ]),
      schema: {
        tags: ['auth'],
        summary:
          'Registers the invited person as a caregiver linked to the patient; answers an onboarding token.',
        body: inviteRegisterBodySchema,
        response: {
          201: inviteRegisterResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { token, name, password, zip_code: zipCode } = request.body;
      // Checked before the costly hash; checked again, under a lock, where the account is made.
      const invite = await findLiveInvite(app.db, hasher.invite(token));
      if (!invite) throw invalidInvite();
      await requireUnguessablePassword(password, { name, email: invite.caregiverEmail }, 'password');
      const passwordHash = await hashPassword(password);
      const registered = await registerThroughInvite(app.db, hasher, token, { name, passwordHash, zipCode });
      if (registered === 'invalid') throw invalidInvite();
      if (registered === 'taken') throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      return reply.status(201).send({
        success: true,
        message: CARE_MESSAGES.inviteRegistered,
        onboardingToken: registered.onboardingToken,
      });
    },
  );

  app.post(
    '/onboarding',
    {
      preHandler: perAddress('onboarding-address'),
      schema: {
        tags: ['auth'],
        summary: 'The first sign-in after invite registration (single-use token); answers as /login does.',
        body: onboardingBodySchema,
        response: { 200: loginResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const userId = await consumeOnboardingToken(app.db, hasher.onboarding(request.body.token));
      const account = userId ? await findAccountById(app.db, userId) : null;
      if (!account) throw new HttpError(400, CARE_MESSAGES.onboardingInvalid);
      const { token } = await app.openSession(request, account.id);
      return { success: true as const, accessToken: token, role: account.role, userId: account.id };
    },
  );
};
