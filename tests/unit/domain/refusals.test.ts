import { describe, expect, it } from 'vitest';
import { BETA_POLICY_NOT_ACCEPTED } from '../../../src/domain/error-texts';
import { refusalOf, retryConditionOf } from '../../../src/domain/refusals';

// Which refusals of a queued change can be lifted, so that sending the same change again can succeed.

describe('retryConditionOf', () => {
  it.each([
    [{ status: 403 }, 'permission'],
    [{ status: 403, code: BETA_POLICY_NOT_ACCEPTED }, 'policy'],
    [{ status: 401 }, 'session'],
  ] as const)('%j can be lifted: %s', (refusal, condition) => {
    expect(retryConditionOf(refusal)).toBe(condition);
  });

  it.each([[{ status: 400 }], [{ status: 404 }], [{ status: 409 }], [{ status: 413 }], [{ status: 422 }]])(
    '%j is final: only discarding is offered',
    (refusal) => {
      expect(retryConditionOf(refusal)).toBeNull();
    },
  );

  it('offers nothing but discarding for a change refused before its refusal was kept', () => {
    expect(retryConditionOf(undefined)).toBeNull();
  });
});

describe('refusalOf', () => {
  it('keeps the status and a code the body gives, nothing else', () => {
    expect(refusalOf(403, { message: 'No.', code: BETA_POLICY_NOT_ACCEPTED, extra: 1 })).toEqual({
      status: 403,
      code: BETA_POLICY_NOT_ACCEPTED,
    });
    expect(refusalOf(400, { message: 'Title is required.' })).toEqual({ status: 400 });
    expect(refusalOf(409, null)).toEqual({ status: 409 });
    expect(refusalOf(403, { code: 7 })).toEqual({ status: 403 });
  });
});
