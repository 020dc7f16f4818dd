import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  loginBodySchema,
  loginResponseSchema,
  messageResponseSchema,
  registerBodySchema,
  verifyEmailBodySchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { createAccount, findAccountByEmail, type Account } from '../services/accounts';
import {
  consumeVerificationToken,
  createVerificationToken,
  hasRecentVerificationLink,
} from '../services/email-verifications';
import { verificationMail } from '../services/mail-templates';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../services/passwords';
import { limitPerIpAndEmail } from './auth-rate-limit';

// Sign-up, e-mail verification and sign-in.

export const REGISTERED_MESSAGE = 'Registration successful. Check your e-mail for a verification link.';
export const EMAIL_VERIFIED_MESSAGE = 'Your e-mail address is verified. You can sign in now.';

/**
 * Mail problems are logged, not thrown: the account exists either way, and signing in re-sends the
 * link, so a failed send must not turn into an error that invites registering again (and a 409).
 */
async function sendVerificationLink(
  app: FastifyInstance,
  user: { name: string; email: string },
  token: string,
) {
  const link = `${app.config.publicUrl}/verify-email/${token}`;
  try {
    await app.sendMail(verificationMail(user, link));
  } catch (error) {
    app.log.error({ err: error }, 'could not send the verification e-mail');
  }
}

/** "We sent you a link" must stay true when the first mail got lost: send a fresh one, not too often. */
async function resendVerificationLink(app: FastifyInstance, account: Account) {
  if (await hasRecentVerificationLink(app.db, account.id)) return;
  await sendVerificationLink(app, account, await createVerificationToken(app.db, account.id));
}

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Creates a Patient or Caregiver account and mails a verification link.',
        body: registerBodySchema,
        response: { 201: messageResponseSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { name, email, password, role, zip_code: zipCode } = request.body;
      const passwordHash = await hashPassword(password);
      const created = await createAccount(app.db, { name, email, passwordHash, role, zipCode });
      if (!created) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      await sendVerificationLink(app, { name, email }, created.verificationToken);
      return reply.status(201).send({ success: true, message: REGISTERED_MESSAGE });
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Verifies the e-mail address with the token from the mailed link (single use, 24 hours).',
        body: verifyEmailBodySchema,
        response: { 200: messageResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      if (!(await consumeVerificationToken(app.db, request.body.token))) {
        throw new HttpError(400, AUTH_MESSAGES.verifyLinkInvalid);
      }
      return { success: true, message: EMAIL_VERIFIED_MESSAGE };
    },
  );

  app.post(
    '/login',
    {
      config: { rateLimit: limitPerIpAndEmail(app.config.rateLimits.loginPerMinute) },
      schema: {
        tags: ['auth'],
        summary: 'Signs in with e-mail and password; answers a bearer token.',
        body: loginBodySchema,
        response: {
          200: loginResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { email, password } = request.body;
      const account = await findAccountByEmail(app.db, email);
      const valid = account
        ? await verifyPassword(account.passwordHash, password)
        : await verifyAgainstDummy(password);
      if (!account || !valid) throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
      if (!account.emailVerifiedAt) {
        await resendVerificationLink(app, account);
        throw new HttpError(403, AUTH_MESSAGES.emailNotVerified, 'EMAIL_NOT_VERIFIED');
      }
      return {
        success: true as const,
        accessToken: app.issueToken(account),
        role: account.role,
        userId: account.id,
      };
    },
  );
};
