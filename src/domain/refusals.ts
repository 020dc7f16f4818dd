import { BETA_POLICY_NOT_ACCEPTED } from './error-texts';

// Which refusals of a queued change may be taken if the same change is sent again later (src/local/README.md).
// The server refuses a change for good when the change itself is wrong (400: it breaks a rule; 404: the record
// is gone or not the caller's to see; 409: deleted on another device): sending it again gets the same answer,
// so the person can only discard it. It refuses for now when something about the person must change first:
// they accept the beta policy, they are given the permission (403), they sign in again (401). After that the
// very change can be taken, so the person may send it again. No Zod here: the header's sync status reads it.

/** What the server answered when it refused a change: the status and, when it gave one, its code. */
export type Refusal = { status: number; code?: string };

/** What must change before a refused change can be taken; null when it never can (discard it). */
export type RetryCondition = 'policy' | 'permission' | 'session';

export function retryConditionOf(refusal: Refusal | undefined): RetryCondition | null {
  if (!refusal) return null; // refused before the device kept why: only discarding is safe to offer
  if (refusal.status === 401) return 'session';
  if (refusal.status === 403) return refusal.code === BETA_POLICY_NOT_ACCEPTED ? 'policy' : 'permission';
  return null;
}

/** The refusal of an answer: its status, and the `code` of its body when it has one. */
export function refusalOf(status: number, body: unknown): Refusal {
  const code = (body as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? { status, code } : { status };
}
