import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from '../../src/server/plugins/body-depth';
import { startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// A JSON body nested thousands of levels deep (found by the fuzz gate at bench size: 500 on PUT
// /api/lab-reports/:id, whose Idempotency-Key fingerprint stringified the raw body) is refused with 400 on
// every route, signed in or not, before anything reads it; an honest body at the limit is not.

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
});
afterAll(async () => ctx.close());

/** `levels` arrays, one in the other, as JSON. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const json = { 'content-type': 'application/json' };

describe('a JSON body nested too deeply', () => {
  it('is refused with 400 on signed-in routes, the one that fingerprints its raw body included', async () => {
    const body = `{"patient_id":"x","role":${nested(6000)}}`;
    for (const [method, url] of [
      ['PUT', `/api/lab-reports/${randomUUID()}`],
      ['PUT', `/api/appointments/${randomUUID()}`],
      ['POST', '/api/appointments'],
      ['POST', '/api/sync/push'],
    ] as const) {
      const answer = await as(ctx, patient, { method, url, headers: json, payload: body });
      expect({ url, status: answer.statusCode, body: answer.json() }).toEqual({
        url,
        status: 400,
        body: { message: TOO_DEEP_MESSAGE },
      });
    }
  });

  it('is refused with 400 on a public route, and a signed-in route still answers 401 without a session', async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: `{"email":"a@example.com","password":"x","extra":${nested(6000)}}`,
    });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual({ message: TOO_DEEP_MESSAGE });
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: json,
      payload: `{"x":${nested(6000)}}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is read as usual at the limit: the route answers in its own words', async () => {
    const atLimit = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: `{"extra":${nested(MAX_BODY_DEPTH - 1)}}`,
    });
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().message).toBe('Email is required.');
    const overLimit = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: `{"extra":${nested(MAX_BODY_DEPTH)}}`,
    });
    expect(overLimit.json().message).toBe(TOO_DEEP_MESSAGE);
  });
});

describe('nestedDeeperThan', () => {
  it('walks a million levels without recursion, and counts objects and arrays alike', () => {
    expect(nestedDeeperThan(JSON.parse(nested(1_000_000)), 32)).toBe(true);
    expect(nestedDeeperThan({ a: { b: [{ c: 1 }] } }, 4)).toBe(false);
    expect(nestedDeeperThan({ a: { b: [{ c: {} }] } }, 4)).toBe(true);
    expect(nestedDeeperThan(Buffer.alloc(10), 0)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
  });
});
