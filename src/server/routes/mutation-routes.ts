import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import { restContext, type MutationRoute } from '../services/record-mutations';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// The REST routes of the synced resources' mutations, made from their declarations (defineMutations in
// services/record-mutations.ts): POST {path} (or the create's own path), PUT {path}/:id, DELETE
// {path}/:id, each running the very handler a pushed batch runs, once per Idempotency-Key. A resource's
// own route file keeps only what is not a plain mutation (its lists, a multipart form).

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * The routes, registered under /api (their urls hold it: it is taken off here). Each is registered as a
 * route file would: under its path as a prefix, so `POST /api/appointments` answers with or without a
 * trailing slash, as every resource's routes always have.
 */
export function mutationRoutes(routes: readonly MutationRoute[]): FastifyPluginAsyncZod {
  return async (app) => {
    for (const route of routes) {
      const relative = route.url.replace(/^\/api/, '');
      const byId = relative.endsWith('/:id');
      const prefix = byId ? relative.slice(0, -'/:id'.length) : relative;
      await app.register(
        async (scope) => {
          scope.route({
            method: route.method,
            url: byId ? '/:id' : '/',
            schema: {
              tags: [...route.tags],
              headers: mutationHeadersSchema,
              ...(route.body ? { body: route.body } : {}),
              ...(route.params ? { params: route.params } : {}),
              response: { [route.status]: route.response, ...errors },
            },
            handler: async (request, reply) => {
              const { id } = (request.params ?? {}) as { id?: string };
              return sendIdempotent(request, reply, (tx) =>
                route.run(restContext(tx, request.auth), id ?? '', request.body),
              );
            },
          });
        },
        { prefix },
      );
    }
  };
}
