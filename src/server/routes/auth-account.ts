import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  loginBodySchema,
  loginResponseSchema,
  messageResponseSchema,
  registerBodySchema,
  resendVerificationBodySchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '../../domain/auth';
import type { Database } from '../db/client';
import { emailVerifications, users } from '../db/schema';
import { errorBodySchema } from '../../domain/errors';
import { BILLING_CODES, BILLING_MESSAGES } from '../../domain/billing';
import { findPlan } from '../services/billing/plans';
import { issueSubscribeToken } from '../services/billing/subscribe-tokens';
import { HttpError } from '../plugins/errors';
import { createAccount, findAccountByEmail, type Account } from '../services/accounts';
import {
  consumeVerificationToken,
  createVerificationToken,
  hasRecentVerificationLink,
} from '../services/email-verifications';
import { registrationAttemptMail, verificationMail } from '../services/mail-templates';
import { sha256 } from '../services/signing';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../services/passwords';
import { bodyEmail, byAddress, byAddressAndEmail, byEmail, LIMIT_FACTORS, limitBy } from './auth-rate-limit';

// Sign-up, e-mail verification and sign-in.

/**
 * The answer to every well-formed sign-up, whether the address was free (a verification link is on its
 * way) or has an account already (its owner is told by mail): it must not say which.
 */
export const REGISTERED_MESSAGE = 'Check your e-mail: we sent a message to this address with the next step.';

/** Mails to the owner of a taken address about sign-ups with it: enough to notice, too few to flood them. */
export const REGISTER_ATTEMPT_NOTICES_PER_HOUR = 3;
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

/**
 * Whether a link that no longer works (used or expired) belongs to an account that is verified: opening
 * the link from the e-mail a second time is then no error, and the person is told to sign in. It says
 * nothing to anyone without the link, which only the account's mailbox received.
 */
async function linkOfVerifiedAccount(db: Database, token: string): Promise<boolean> {
  const [link] = await db
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(emailVerifications)
    .innerJoin(users, eq(users.id, emailVerifications.userId))
    .where(eq(emailVerifications.tokenHash, sha256(token)))
    .limit(1);
  return Boolean(link?.verifiedAt);
}

/** A sign-up with an address that has an account: its owner hears of it (a failed send is logged). */
async function tellOwnerOfAttempt(app: FastifyInstance, owner: Account) {
  try {
    await app.sendMail(registrationAttemptMail(owner, `${app.config.publicUrl}/login`));
  } catch (error) {
    app.log.error({ err: error }, 'could not send the sign-up attempt e-mail');
  }
}

/** "We sent you a link" must stay true when the first mail got lost: send a fresh one, not too often. */
async function resendVerificationLink(app: FastifyInstance, account: Account) {
  if (await hasRecentVerificationLink(app.db, account.id)) return;
  await sendVerificationLink(app, account, await createVerificationToken(app.db, account.id));
}

/** The login's 403: e-mail not verified, or (with what choosing a plan needs) SUBSCRIPTION_REQUIRED. */
const loginRefusedBodySchema = errorBodySchema.extend({
  userId: z.string().optional(),
  subscribeToken: z.string().optional(),
  planId: z.string().nullable().optional(),
});

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { loginPerMinute, otpPerMinute } = app.config.rateLimits;
  // Counted per e-mail address, silently: past it an attempt is answered the same and no mail goes out.
  const attemptNotice = app.createRateLimit({
    max: REGISTER_ATTEMPT_NOTICES_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: (request) => `auth:register-attempt-notice:${bodyEmail(request.body)}`,
  });

  app.post(
    '/register',
    {
      // Before validation: the password strength check is the costly part of it.
      preValidation: limitBy(app, [
        { name: 'register-address', max: otpPerMinute * LIMIT_FACTORS.registerPerAddress, key: byAddress },
      ]),
      schema: {
        tags: ['auth'],
        summary:
          'Creates a Patient or Caregiver account and mails a verification link; for an address with an account, creates nothing and tells its owner by mail (the same answer).',
        body: registerBodySchema,
        response: {
          201: messageResponseSchema,
          400: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { name, email, password, role, zip_code: zipCode, plan } = request.body;
      if (plan !== undefined && (role !== 'Patient' || !(await findPlan(app.db, plan))?.offered))
        throw new HttpError(400, BILLING_MESSAGES.planUnknown);
      // Hashed whether or not the address is free, so that the time taken does not tell either.
      const passwordHash = await hashPassword(password);
      const created = await createAccount(app.db, {
        name,
        email,
        passwordHash,
        role,
        zipCode,
        signupPlanId: plan ?? null,
      });
      if (created) {
        await sendVerificationLink(app, { name, email }, created.verificationToken);
      } else {
        const owner = await findAccountByEmail(app.db, email);
        const notice = await attemptNotice(request);
        if (owner && (notice.isAllowed || !notice.isExceeded)) await tellOwnerOfAttempt(app, owner);
      }
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
        response: { 200: verifyEmailResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const { token } = request.body;
      if (await consumeVerificationToken(app.db, token)) {
        return { success: true, message: EMAIL_VERIFIED_MESSAGE, already_verified: false };
      }
      if (await linkOfVerifiedAccount(app.db, token)) {
        return { success: true, message: AUTH_MESSAGES.emailAlreadyVerified, already_verified: true };
      }
      throw new HttpError(400, AUTH_MESSAGES.verifyLinkInvalid);
    },
  );

  app.post(
    '/resend-verification',
    {
      preHandler: limitBy(app, [
        { name: 'resend-verification-address-email', max: otpPerMinute, key: byAddressAndEmail },
        {
          name: 'resend-verification-address',
          max: otpPerMinute * LIMIT_FACTORS.otpPerAddress,
          key: byAddress,
        },
        { name: 'resend-verification-email', max: otpPerMinute * LIMIT_FACTORS.otpPerEmail, key: byEmail },
      ]),
      schema: {
        tags: ['auth'],
        summary:
          'Mails a fresh verification link to an account that is not verified yet; the same answer for any e-mail.',
        body: resendVerificationBodySchema,
        response: { 200: messageResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const account = await findAccountByEmail(app.db, request.body.email);
      // Unknown and already verified addresses get the same answer: it must not tell who has an account.
      if (account && !account.emailVerifiedAt) await resendVerificationLink(app, account);
      return { success: true, message: AUTH_MESSAGES.verificationResent };
    },
  );

  app.post(
    '/login',
    {
      preHandler: limitBy(app, [
        { name: 'login-address-email', max: loginPerMinute, key: byAddressAndEmail },
        { name: 'login-address', max: loginPerMinute * LIMIT_FACTORS.loginPerAddress, key: byAddress },
        { name: 'login-email', max: loginPerMinute * LIMIT_FACTORS.loginPerEmail, key: byEmail },
      ]),
      schema: {
        tags: ['auth'],
        summary: 'Signs in with e-mail and password; answers a bearer token.',
        body: loginBodySchema,
        response: {
          200: loginResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: loginRefusedBodySchema,
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
      // A patient signs in with a plan (services/billing/README.md); one without gets a token to choose
      // one first.
      if (account.role === 'Patient' && !(await app.billing.allowsSignIn(account.id))) {
        throw new HttpError(403, BILLING_MESSAGES.subscriptionRequired, BILLING_CODES.subscriptionRequired, {
          userId: account.id,
          subscribeToken: issueSubscribeToken(app.config.jwtSecret, account.id),
          planId: account.signupPlanId,
        });
      }
      const { token } = await app.openSession(request, account.id);
      return { success: true as const, accessToken: token, role: account.role, userId: account.id };
    },
  );
};
