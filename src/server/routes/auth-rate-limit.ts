import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '../../domain/auth';
import { HttpError } from '../plugins/errors';

// Limits for the /auth calls that guess secrets (passwords, reset codes and tokens), look people up or
// create accounts. Each call counts against several keys at once, each with its own maximum per minute:
// - the address and the e-mail together: one person hammering one account is stopped while other
//   accounts behind the same address (a family, an office) keep working;
// - the address alone, across e-mails: one address trying a few passwords on many accounts (spraying);
// - the e-mail alone, across addresses: many addresses (a botnet) on one account.
// The counters live in @fastify/rate-limit's store (memory, or Redis when the app registers it with one, so
// every server shares them) and key on request.ip, the real client when the app trusts its proxy. IPv6
// addresses count per /64, which one subscriber usually holds whole.

/**
 * The per-minute maxima, read from the two configured numbers (RATE_LIMIT_LOGIN_PER_MINUTE = L, default 10,
 * and RATE_LIMIT_OTP_PER_MINUTE = O, default 5), so raising those for a test run or a large deployment
 * raises every limit in proportion. At the defaults: login 10 per address and e-mail, 30 per address, 20 per
 * e-mail; forgot-password, verify-otp and reset-password 5, 30 and 10; register 10 per address; user-info 10
 * per person and 30 per address; change-password 10 per person.
 */
export const LIMIT_FACTORS = {
  /** Sign-ins from one address across all e-mails: L x 3. */
  loginPerAddress: 3,
  /** Sign-ins for one e-mail across all addresses: L x 2. */
  loginPerEmail: 2,
  /** forgot-password, verify-otp, reset-password from one address across all e-mails: O x 6. */
  otpPerAddress: 6,
  /** The same for one e-mail across all addresses (also bounds the codes mailed to one person): O x 2. */
  otpPerEmail: 2,
  /** New accounts from one address: O x 2. */
  registerPerAddress: 2,
  /** user-info look-ups by one person: O x 2; from one address: O x 6. */
  userInfoPerUser: 2,
  userInfoPerAddress: 6,
} as const;

/** validate-address per person: cheap, but it should not become a free zip code oracle. */
export const VALIDATE_ADDRESS_PER_MINUTE = 30;

const WINDOW_MS = 60 * 1000;

/** The e-mail of a JSON body, normalised as the schema does, or '' (also before validation). */
export function bodyEmail(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string') {
    return body.email.trim().toLowerCase();
  }
  return '';
}

export const byAddress = (request: FastifyRequest) => normalizeIP(request.ip, 64);
export const byEmail = (request: FastifyRequest) => bodyEmail(request.body);
export const byAddressAndEmail = (request: FastifyRequest) => `${byAddress(request)}|${byEmail(request)}`;
/** For signed-in calls, after authentication has set request.auth. */
export const byUser = (request: FastifyRequest) => request.auth.userId;

export type Limit = {
  /** Names the counter: every limit has its own, also in a shared Redis. */
  name: string;
  max: number;
  key: (request: FastifyRequest) => string;
};

/**
 * A hook that counts the request against every limit and answers 429 (with Retry-After) when any of them
 * is over. Used as a preHandler, after validation, so malformed calls do not use up anyone's tries; and as
 * a preValidation where validation itself is costly (the password strength check), so it is limited too.
 */
export function limitBy(app: FastifyInstance, limits: Limit[]) {
  const checks = limits.map((limit) =>
    app.createRateLimit({
      max: limit.max,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `auth:${limit.name}:${limit.key(request)}`,
    }),
  );
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const results = await Promise.all(checks.map((check) => check(request)));
    let retryAfterSeconds = 0;
    for (const result of results) {
      if (!result.isAllowed && result.isExceeded) {
        retryAfterSeconds = Math.max(retryAfterSeconds, result.ttlInSeconds, 1);
      }
    }
    if (retryAfterSeconds > 0) {
      reply.header('retry-after', String(retryAfterSeconds));
      throw new HttpError(429, AUTH_MESSAGES.tooManyRequests);
    }
  };
}
