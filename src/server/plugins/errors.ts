import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../domain/errors';
import { summarizeError } from './logging';

// One error shape for every API answer (routes/README.md): { message, errors?: [{ msg, path }] }.
// A 5xx is always a bug: it is logged with its stack and the caller sees a generic message. The log
// gets a summary (summarizeError), never the error itself: a database error carries every SQL
// parameter of the failed statement (notes, e-mails, password hashes) in its message and fields.

/** An error a route throws on purpose: its status and message reach the caller as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly extra?: Record<string, unknown>,
    /** Headers the answer carries (Retry-After on a 503 that says when to come back). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A refusal that may not hold later (a quota that frees up tomorrow, a busy reader): answered like any
 * HttpError, but never kept as an Idempotency-Key's final answer, so the device's retry is judged afresh.
 */
export class TransientRefusal extends HttpError {}

export const FORM_UNREADABLE_MESSAGE = 'The form could not be read. Send it again as multipart/form-data.';

/**
 * Reads a multipart body. The form parser throws plain errors (no status) for a missing or oversized
 * boundary, a cut-off body or a bad part header; those are the sender's mistakes, not ours, so they
 * become a 400. Errors that carry a status (a file over its limit: 413) keep it.
 */
export async function readingForm<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof Error && typeof (error as { statusCode?: unknown }).statusCode === 'number')
      throw error;
    throw new HttpError(400, FORM_UNREADABLE_MESSAGE);
  }
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const body: ErrorBody = { message: error.message, ...(error.code ? { code: error.code } : {}) };
      if (error.headers) void reply.headers(error.headers);
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
      // Where and what kind of mismatch, not the values: those are the answer's data.
      const issues = error.cause.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
      request.log.error({ error: summarizeError(error), issues }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Something went wrong' } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ error: summarizeError(error) }, 'request failed');
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
