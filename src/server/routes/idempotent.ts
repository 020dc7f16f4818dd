import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IDEMPOTENCY_HEADER, idempotencyKeySchema } from '../../domain/sync';
import { fingerprintOf, runIdempotent, type StoredAnswer, type Transaction } from '../services/idempotency';
import { accessChecks, replayCheck } from '../services/record-mutations';

/** Headers of a mutating call: the optional Idempotency-Key (other headers pass through untouched). */
export const mutationHeadersSchema = z.looseObject({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

type IdempotentOptions = {
  /** What makes two requests "the same" (default: method, path and body; an upload hashes its file). */
  fingerprint?: string;
  /** Shapes the answer as sent, replayed or not (an upload hands out a fresh signed link each time). */
  present?: (body: unknown) => unknown | Promise<unknown>;
  /**
   * Runs after the commit and before the answer is sent (a deleted report's file is removed), so a caller
   * that has the answer never sees what the change let go of still there.
   */
  afterCommit?: () => Promise<unknown>;
};

/** Runs a mutation once per Idempotency-Key and sends its (possibly replayed) answer. */
export async function sendIdempotent(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Transaction) => Promise<StoredAnswer>,
  options: IdempotentOptions = {},
): Promise<FastifyReply> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = typeof header === 'string' ? header : undefined;
  const answer = await runIdempotent(
    request.server.db,
    {
      userId: request.auth.userId,
      key,
      fingerprint: options.fingerprint ?? fingerprintOf(request.method, request.url, request.body),
      check: replayCheck(accessChecks(request.auth, { cached: false })),
    },
    work,
  );
  await options.afterCommit?.();
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply
    .status(answer.statusCode)
    .send(options.present ? await options.present(answer.body) : answer.body);
}
