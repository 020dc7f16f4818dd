import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  changePasswordBodySchema,
  changePasswordResponseSchema,
  forgotPasswordBodySchema,
  messageResponseSchema,
  resetPasswordBodySchema,
  verifyOtpBodySchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { findAccountByEmail, findAccountById, replacePassword } from '../services/accounts';
import { resetCodeMail } from '../services/mail-templates';
import { hashPassword, verifyPassword } from '../services/passwords';
import { consumeVerifiedResetCode, createResetCodes } from '../services/password-resets';
import { SESSION_ENDED, signedIn } from './auth-common';
import { limitPerIpAndEmail, limitPerUser } from './auth-rate-limit';

// Forgotten password (code by e-mail, verify it, set a new password) and password change.
// The forgotten-password calls answer the same whether or not the e-mail has an account.

export const OTP_VERIFIED_MESSAGE = 'OTP verified successfully!';
export const PASSWORD_RESET_MESSAGE = 'Reset password successfully!';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

const errorResponses = { 400: errorBodySchema, 429: errorBodySchema };

export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  const resetCodes = createResetCodes(app.db, app.config.jwtSecret);
  const otpLimit = limitPerIpAndEmail(app.config.rateLimits.otpPerMinute);

  app.post(
    '/forgot-password',
    {
      config: { rateLimit: otpLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Mails a 6-digit reset code (10 minutes) when the e-mail has an account; same answer otherwise.',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const account = await findAccountByEmail(app.db, request.body.email);
      if (account) {
        const code = await resetCodes.issue(account.id);
        // A failed send must not answer differently from an unknown e-mail.
        await app.sendMail(resetCodeMail(account, code)).catch((error: unknown) => {
          request.log.error({ err: error }, 'could not send the password reset code');
        });
      }
      return { success: true, message: AUTH_MESSAGES.otpSent };
    },
  );

  app.post(
    '/verify-otp',
    {
      config: { rateLimit: otpLimit },
      schema: {
        tags: ['auth'],
        summary: 'Checks the reset code; five wrong codes retire it.',
        body: verifyOtpBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const account = await findAccountByEmail(app.db, request.body.email);
      const result = account ? await resetCodes.check(account.id, request.body.otp) : 'wrong';
      if (result === 'too-many-tries') throw new HttpError(400, AUTH_MESSAGES.otpTooManyTries);
      if (result === 'wrong') throw new HttpError(400, AUTH_MESSAGES.otpWrong);
      return { success: true, message: OTP_VERIFIED_MESSAGE };
    },
  );

  app.post(
    '/reset-password',
    {
      config: { rateLimit: otpLimit },
      schema: {
        tags: ['auth'],
        summary: 'Sets a new password after verify-otp; signs out every earlier token.',
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      // Hash first, so an unknown e-mail takes as long as a known one.
      const passwordHash = await hashPassword(request.body.newPassword);
      const account = await findAccountByEmail(app.db, request.body.email);
      const reset =
        account !== null &&
        (await app.db.transaction(async (tx) => {
          if (!(await consumeVerifiedResetCode(tx, account.id))) return false;
          return (await replacePassword(tx, account.id, passwordHash, { markEmailVerified: true })) !== null;
        }));
      if (!reset) throw new HttpError(400, AUTH_MESSAGES.otpNotVerified);
      return { success: true, message: PASSWORD_RESET_MESSAGE };
    },
  );

  app.put(
    '/change-password',
    {
      preHandler: app.authenticate,
      config: { rateLimit: limitPerUser(app.config.rateLimits.loginPerMinute) },
      schema: {
        tags: ['auth'],
        summary: 'Changes the password; answers a new token, and every earlier token stops working.',
        ...signedIn,
        body: changePasswordBodySchema,
        response: { 200: changePasswordResponseSchema, 401: errorBodySchema, ...errorResponses },
      },
    },
    async (request) => {
      const { old_password: oldPassword, new_password: newPassword } = request.body;
      const account = await findAccountById(app.db, request.auth.userId);
      if (!account || !(await verifyPassword(account.passwordHash, oldPassword))) {
        throw new HttpError(400, AUTH_MESSAGES.oldPasswordWrong);
      }
      const updated = await replacePassword(app.db, account.id, await hashPassword(newPassword));
      if (!updated) throw new HttpError(401, SESSION_ENDED);
      return {
        success: true as const,
        message: PASSWORD_CHANGED_MESSAGE,
        accessToken: app.issueToken(updated),
      };
    },
  );
};
