import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  changePasswordBodySchema,
  changePasswordResponseSchema,
  forgotPasswordBodySchema,
  messageResponseSchema,
  resetPasswordBodySchema,
  verifyOtpBodySchema,
  verifyOtpResponseSchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { HttpError } from '../plugins/errors';
import { findAccountByEmail, findAccountById, replacePassword } from '../services/accounts';
import { resetCodeMail } from '../services/mail-templates';
import { hashPassword, requireUnguessablePassword, verifyPassword } from '../services/passwords';
import { createResetCodes } from '../services/password-resets';
import { endAllSessions } from '../services/sessions';
import { SESSION_ENDED, signedIn } from './auth-common';
import {
  byAddress,
  byAddressAndEmail,
  byEmail,
  byUser,
  LIMIT_FACTORS,
  limitBy,
  type Limit,
} from './auth-rate-limit';

// Forgotten password (code by e-mail, verify it for a reset token, set a new password with the token) and
// password change. The forgotten-password calls answer the same, in the same time, whether or not the
// e-mail has an account.

export const OTP_VERIFIED_MESSAGE = 'OTP verified successfully!';
export const PASSWORD_RESET_MESSAGE = 'Reset password successfully!';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

const errorResponses = { 400: errorBodySchema, 429: errorBodySchema };

/**
 * Work that must not delay the answer (forgot-password's code and mail): it starts once the answer has
 * gone, its errors are only logged, and closing the app waits for what is still running.
 */
function afterAnswering(app: FastifyInstance) {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });
  return (log: FastifyBaseLogger, what: string, work: () => Promise<void>) => {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => log.error({ err: error }, `could not ${what}`))
      .finally(() => running.delete(task));
    running.add(task);
  };
}

export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  const resetCodes = createResetCodes(app.db, app.config.jwtSecret);
  const { loginPerMinute, otpPerMinute } = app.config.rateLimits;
  const otpLimits = (name: string): Limit[] => [
    { name: `${name}-address-email`, max: otpPerMinute, key: byAddressAndEmail },
    { name: `${name}-address`, max: otpPerMinute * LIMIT_FACTORS.otpPerAddress, key: byAddress },
    { name: `${name}-email`, max: otpPerMinute * LIMIT_FACTORS.otpPerEmail, key: byEmail },
  ];
  const later = afterAnswering(app);

  app.post(
    '/forgot-password',
    {
      preHandler: limitBy(app, otpLimits('forgot-password')),
      schema: {
        tags: ['auth'],
        summary:
          'Mails a 6-digit reset code (10 minutes) when the e-mail has an account; same answer otherwise.',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.body;
      // Answer first, look the account up after: the time to answer cannot tell whether it exists, and a
      // failed send cannot change the answer either.
      later(request.log, 'send the password reset code', async () => {
        const account = await findAccountByEmail(app.db, email);
        if (!account) return;
        const code = await resetCodes.issue(account.id);
        await app.sendMail(resetCodeMail(account, code));
      });
      return { success: true, message: AUTH_MESSAGES.otpSent };
    },
  );

  app.post(
    '/verify-otp',
    {
      preHandler: limitBy(app, otpLimits('verify-otp')),
      schema: {
        tags: ['auth'],
        summary:
          'Checks the reset code; five wrong codes retire it. Answers the single-use reset token ' +
          'that reset-password needs (10 minutes).',
        body: verifyOtpBodySchema,
        response: { 200: verifyOtpResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const account = await findAccountByEmail(app.db, request.body.email);
      const check = account ? await resetCodes.check(account.id, request.body.otp) : null;
      if (check?.result === 'too-many-tries') throw new HttpError(400, AUTH_MESSAGES.otpTooManyTries);
      if (check?.result !== 'verified') throw new HttpError(400, AUTH_MESSAGES.otpWrong);
      return { success: true as const, message: OTP_VERIFIED_MESSAGE, resetToken: check.resetToken };
    },
  );

  app.post(
    '/reset-password',
    {
      // Before validation: the password strength check is the costly part of it.
      preValidation: limitBy(app, otpLimits('reset-password')),
      schema: {
        tags: ['auth'],
        summary:
          'Sets a new password with the reset token verify-otp answered; signs out every session of the account.',
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { email, newPassword, resetToken } = request.body;
      const account = await findAccountByEmail(app.db, email);
      // The token first: without it, nobody gets as far as the (costly) hash.
      if (!account || !(await resetCodes.isValidToken(account.id, resetToken))) {
        throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
      }
      await requireUnguessablePassword(newPassword, account, 'newPassword');
      const passwordHash = await hashPassword(newPassword);
      const reset = await app.db.transaction(async (tx) => {
        if (!(await resetCodes.consumeToken(tx, account.id, resetToken))) return false;
        if (!(await replacePassword(tx, account.id, passwordHash, { markEmailVerified: true }))) return false;
        await endAllSessions(tx, account.id);
        return true;
      });
      if (!reset) throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
      return { success: true, message: PASSWORD_RESET_MESSAGE };
    },
  );

  app.put(
    '/change-password',
    {
      // Authenticated and limited before validation, so the strength check only runs for a known person
      // within their limit.
      onRequest: app.authenticate,
      preValidation: limitBy(app, [{ name: 'change-password-user', max: loginPerMinute, key: byUser }]),
      schema: {
        tags: ['auth'],
        summary:
          'Changes the password and signs out every session, this one too; answers the token of a new ' +
          'session for this device.',
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
      await requireUnguessablePassword(newPassword, account, 'new_password');
      const passwordHash = await hashPassword(newPassword);
      // A token copied from this device must stop too, so this session ends with the others and the
      // device continues on a new one.
      const changed = await app.db.transaction(async (tx) => {
        if (!(await replacePassword(tx, account.id, passwordHash))) return false;
        await endAllSessions(tx, account.id);
        return true;
      });
      if (!changed) throw new HttpError(401, SESSION_ENDED);
      const { token } = await app.openSession(request, account.id);
      return { success: true as const, message: PASSWORD_CHANGED_MESSAGE, accessToken: token };
    },
  );
};
