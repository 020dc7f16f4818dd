import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, ROUTES_OUTSIDE_THE_MATRIX, routeName, type ApiRoute } from '../../src/domain/api-routes';
import { startTestApp, type TestContext } from './helpers';
import { buildCast, CALLERS, tokenOf, type Caller, type Cast } from './matrix/cast';
import { expectedFor } from './matrix/expectations';
import { registeredApiRoutes } from './matrix/registered-routes';
import { requestFor } from './matrix/requests';

// The authorization matrix (src/domain/README.md): every API route of src/domain/api-routes.ts x
// nine callers (the owner patient, another patient, a caregiver with no link, a linked caregiver without
// the route's permission, one with it, one whose link was revoked, no token, an expired token, an ended
// session) -> the status the table implies, and no answer holding the owner's record or e-mail for a
// caller who may not see them. A route the app registers without a line in the table fails the run.

let ctx: TestContext;
beforeAll(async () => {
  // Each route is called nine times and more by the same address: the limits have their own tests.
  ctx = await startTestApp({
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    RATE_LIMIT_OTP_PER_MINUTE: '1000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
  });
});
afterAll(async () => ctx.close());

const isRegistered = (route: { method: string; path: string }) =>
  ctx.app.hasRoute({ method: route.method, url: route.path });

describe('the route table', () => {
  it('has a line for every API route the app registers', () => {
    const known = new Set([...API_ROUTES, ...ROUTES_OUTSIDE_THE_MATRIX].map(routeName));
    const missing = registeredApiRoutes(ctx.app)
      .map(routeName)
      .filter((name) => !known.has(name));
    expect(
      missing,
      `routes with no line in src/domain/api-routes.ts (add one to its area's file, api-routes-people.ts or api-routes-records.ts: who may call it, how to call it): ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('names only routes the app registers, each once', () => {
    const names = API_ROUTES.map(routeName);
    const unregistered = [...API_ROUTES, ...ROUTES_OUTSIDE_THE_MATRIX].filter(
      (route) => !isRegistered(route),
    );
    expect(unregistered.map(routeName), 'lines of src/domain/api-routes.ts the app has no route for').toEqual(
      [],
    );
    expect(
      names.filter((name, index) => names.indexOf(name) !== index),
      'lines given twice',
    ).toEqual([]);
  });

  it('reads the registered routes the way Fastify matches them', () => {
    const listed = registeredApiRoutes(ctx.app);
    expect(listed.length).toBeGreaterThan(10);
    for (const route of listed) expect(isRegistered(route), routeName(route)).toBe(true);
  });
});

type CaseOutcome = { caller: Caller; problems: string[]; leaks: number };

async function playCase(route: ApiRoute, caller: Caller, cast: Cast): Promise<CaseOutcome> {
  const expected = expectedFor(route, caller, cast);
  const response = await ctx.app.inject(requestFor(route, cast, tokenOf(cast, caller)));
  const problems: string[] = [];
  let leaks = 0;
  if (response.statusCode !== expected.status) {
    problems.push(
      `status ${response.statusCode}, expected ${expected.status}: ${response.body.slice(0, 200)}`,
    );
  }
  if (expected.item !== undefined) {
    const item = response.json<{ results?: { status: number }[] }>().results?.[0]?.status;
    if (item !== expected.item) problems.push(`item status ${String(item)}, expected ${expected.item}`);
  }
  const body = response.body;
  const secrets = [
    {
      text: cast.record?.title,
      may: expected.mayReadRecord,
      must: expected.mustShowRecord,
      what: "the owner's record",
    },
    { text: cast.ownerEmail, may: expected.mayKnowOwner, must: false, what: "the owner's e-mail" },
    {
      text: cast.inviteeEmail,
      may: expected.mayKnowInvitee,
      must: false,
      what: "the e-mail of the owner's invitation",
    },
  ];
  for (const secret of secrets) {
    if (!secret.text) continue;
    const shown = body.includes(secret.text);
    if (shown && !secret.may) {
      leaks += 1;
      problems.push(`LEAK: the answer holds ${secret.what}`);
    }
    if (!shown && secret.must) problems.push(`the answer lacks ${secret.what}, which this caller may read`);
  }
  return { caller, problems, leaks };
}

/**
 * Casts shared by the routes whose calls change nothing another case looks at: one per kind of link and
 * seed, so most routes reuse people made for an earlier one.
 */
const sharedCasts = new Map<string, Promise<Cast>>();
function sharedCastFor(route: ApiRoute): Promise<Cast> {
  const permission = typeof route.access === 'object' ? route.access.permission : 'link';
  const seeds =
    route.method === 'GET' && route.path.startsWith('/api/request/') ? 'care-lists' : route.target;
  const key = `${permission} ${seeds} ${route.resource ?? 'appointments'}`;
  let cast = sharedCasts.get(key);
  if (!cast) {
    cast = buildCast(ctx, route);
    sharedCasts.set(key, cast);
  }
  return cast;
}

describe('the authorization matrix', () => {
  for (const route of API_ROUTES) {
    it(routeName(route), async (test) => {
      // A line for a route not registered (yet) is reported once, by the route table's test.
      if (!isRegistered(route)) test.skip();
      const outcomes = await Promise.all(
        CALLERS.map(async (caller) => {
          const cast =
            route.isolation === 'case' ? await buildCast(ctx, route, caller) : await sharedCastFor(route);
          return playCase(route, caller, cast);
        }),
      );
      const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
      const report = failed
        .map((outcome) => `  ${outcome.caller}: ${outcome.problems.join('; ')}`)
        .join('\n');
      expect(
        outcomes.reduce((sum, outcome) => sum + outcome.leaks, 0),
        `leaks:\n${report}`,
      ).toBe(0);
      expect(failed.length, `cases that went wrong:\n${report}`).toBe(0);
    });
  }
});
