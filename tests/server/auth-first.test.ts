import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, routeName } from '../../src/domain/api-routes';
import { startTestApp, type TestContext } from './helpers';
import { operationsOf, type OpenApiDocument, type Operation } from './fuzz/openapi';
import { registeredApiRoutes } from './matrix/registered-routes';

// Authentication comes before everything else a route does with its input: a call without a token, or
// with one that is not a live session's, gets the 401 of a signed-out caller on every route that needs a
// sign-in, whatever its path parameters, query and body hold. Validation answering first would tell a
// stranger which inputs a route takes (and make the server parse and check them for anyone).

const SIGNED_OUT = { message: 'Your session has ended. Please sign in again.' };

/**
 * Routes the table lists with a role but that take a caller without a bearer token too: subscribe is
 * also answered for the holder of the subscribe token of a refused sign-in (billing.ts), which is in the body.
 */
const REACHABLE_WITHOUT_BEARER = new Set(['POST /api/stripe/subscribe']);

let ctx: TestContext;
let operations: Map<string, Operation>;
beforeAll(async () => {
  ctx = await startTestApp();
  const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
  expect(docs.statusCode).toBe(200);
  operations = new Map(
    operationsOf(docs.json<OpenApiDocument>()).map((operation) => [
      // The document writes {id} and {*} where Fastify and the route table write :id and *.
      routeName({
        method: operation.method,
        path: operation.path.replace('{*}', '*').replace(/\{([^}]+)\}/g, ':$1'),
      }),
      operation,
    ]),
  );
});
afterAll(async () => ctx?.close());

/** A value no schema of ours takes: not a uuid, token, number, date, e-mail or enum member. */
const BAD = 'not valid\u0000';

/** A call with bad input everywhere the route takes input: path, query and body. */
function badCall(method: string, path: string, operation: Operation | undefined): InjectOptions {
  const url = path
    .split('/')
    .map((segment) => (segment.startsWith(':') || segment === '*' ? encodeURIComponent(BAD) : segment))
    .join('/');
  const query = new URLSearchParams();
  for (const parameter of operation?.query ?? []) query.set(parameter.name, BAD);
  query.set('unexpected', BAD);
  const hasBody = method !== 'GET' && method !== 'DELETE';
  return {
    method: method as InjectOptions['method'],
    url: `${url}?${query.toString()}`,
    ...(hasBody
      ? { headers: { 'content-type': 'application/json' }, payload: '[{"not":"the body"}, 1, null]' }
      : {}),
  };
}

const tableLine = (name: string) => API_ROUTES.find((route) => routeName(route) === name);

describe('a caller who is not signed in', () => {
  it('gets 401 from every route that needs a sign-in, whatever the input, before it is validated', async () => {
    const routes = registeredApiRoutes(ctx.app);
    const wrong: string[] = [];
    let signedInRoutes = 0;
    for (const route of routes) {
      const name = routeName(route);
      const line = tableLine(name);
      const needsSignIn =
        line !== undefined && line.access !== 'public' && !REACHABLE_WITHOUT_BEARER.has(name);
      const call = badCall(route.method, route.path, operations.get(name));
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
        const answer = await ctx.app.inject({ ...call, headers: { ...call.headers, ...headers } });
        if (answer.statusCode >= 500)
          wrong.push(`${name}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
        if (!needsSignIn) continue;
        if (answer.statusCode !== 401 || answer.body !== JSON.stringify(SIGNED_OUT))
          wrong.push(`${name}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      }
      if (needsSignIn) signedInRoutes += 1;
    }
    expect(wrong, 'routes that did not answer 401 to a caller without a live session').toEqual([]);
    // The table and the document agree on what needs a sign-in: most routes do.
    expect(signedInRoutes).toBeGreaterThan(routes.length / 2);
  });

  it('gets the same 401 for a malformed body as for none', async () => {
    const withBody = await ctx.app.inject({
      method: 'POST',
      url: '/api/request/send-request',
      payload: { caregiver_email: 'not-an-email', permissions: ['Everything'] },
    });
    const withoutBody = await ctx.app.inject({ method: 'POST', url: '/api/request/send-request' });
    for (const answer of [withBody, withoutBody]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual(SIGNED_OUT);
    }
  });
});
