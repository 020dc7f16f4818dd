import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IDEMPOTENCY_HEADER, idempotencyKeySchema } from '../../domain/sync';
import { fingerprintOf, runIdempotent, type StoredAnswer, type Transaction } from '../services/idempotency';

/** Headers of a mutating call: the optional Idempotency-Key (other headers pass through untouched). */
export const mutationHeadersSchema = z.looseObject({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

/** Runs a mutation once per Idempotency-Key and sends its (possibly replayed) answer. */
export async function sendIdempotent(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<FastifyReply> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = typeof header === 'string' ? header : undefined;
  const answer = await runIdempotent(
    request.server.db,
    {
      userId: request.auth.userId,
      key,
      fingerprint: fingerprintOf(request.method, request.url, request.body),
    },
    work,
  );
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.status(answer.statusCode).send(answer.body);
}
