import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../domain/errors';

// One error shape for every API answer (API.md): { message, errors?: [{ msg, path }] }.
// A 5xx is always a bug: it is logged with its stack and the caller sees a generic message.

/** An error a route throws on purpose: its status and message reach the caller as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const body: ErrorBody = { message: error.message, ...(error.code ? { code: error.code } : {}) };
      return reply.status(error.statusCode).send({ ...body, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        msg: issue.message ?? 'This value is not valid.',
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
      }));
      const body: ErrorBody = { message: errors[0]?.msg ?? 'The request is not valid.', errors };
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Something went wrong' } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: 'Something went wrong' } satisfies ErrorBody);
    }
    const message =
      status === 413
        ? 'The request is too large.'
        : status === 415
          ? 'This file type is not supported.'
          : status === 429
            ? 'Too many attempts. Please wait a minute and try again.'
            : error.message;
    return reply.status(status).send({ message } satisfies ErrorBody);
  });
});
