import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '../../domain/auth';
import { HttpError } from '../plugins/errors';

// Per-route limits for the calls that guess secrets (passwords, reset codes). The key is the caller's
// IP plus the e-mail in the body, so one person hammering one account is stopped while other accounts
// behind the same address (a family, an office) keep working. The check runs as a preHandler, after
// the body is parsed and validated, so the e-mail is there and malformed calls do not use up tries.

function bodyEmail(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string') {
    return body.email.trim().toLowerCase();
  }
  return '';
}

// @fastify/rate-limit throws what this returns: an HttpError goes through our error handler as a 429
// with our message.
const tooManyRequests = () => new HttpError(429, AUTH_MESSAGES.tooManyRequests);

export function limitPerIpAndEmail(maxPerMinute: number): RateLimitOptions {
  return {
    max: maxPerMinute,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `${request.ip}|${bodyEmail(request.body)}`,
    errorResponseBuilder: tooManyRequests,
  };
}

/** For signed-in calls (change-password): keyed by the account, after authentication has set it. */
export function limitPerUser(maxPerMinute: number): RateLimitOptions {
  return {
    max: maxPerMinute,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `user|${request.auth.userId}`,
    errorResponseBuilder: tooManyRequests,
  };
}
