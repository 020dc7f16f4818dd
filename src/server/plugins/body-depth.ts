import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';

// How deep a JSON body may nest. JSON.parse reads any depth, but JSON.stringify and every other walk of
// a value recurse, and a body of a few thousand nested arrays (a few kilobytes) overflowed the stack of
// the request that fingerprinted it for its Idempotency-Key: a 500 instead of an answer. Kincare's
// deepest honest body (a sync push of a lab report: changes, a change, its payload, its rows, a row) is
// under ten levels, so anything past MAX_BODY_DEPTH is refused with 400 before any route reads it.

export const MAX_BODY_DEPTH = 32;
export const TOO_DEEP_MESSAGE = 'The request body is nested too deeply to be read.';

/** Whether `value` has objects or arrays nested more than `limit` levels deep (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const waiting: [unknown, number][] = [[value, 1]];
  for (let next = waiting.pop(); next; next = waiting.pop()) {
    const [item, depth] = next;
    // A Buffer or a typed array (a raw body some routes read as bytes) is data, not nesting.
    if (item === null || typeof item !== 'object' || ArrayBuffer.isView(item)) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item))
      if (child !== null && typeof child === 'object') waiting.push([child, depth + 1]);
  }
  return false;
}

export const bodyDepthPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (
      request.body !== null &&
      typeof request.body === 'object' &&
      nestedDeeperThan(request.body, MAX_BODY_DEPTH)
    )
      throw new HttpError(400, TOO_DEEP_MESSAGE);
  });
});
