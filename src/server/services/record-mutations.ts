import type { z } from 'zod';
import type { ErrorBody } from '../../domain/errors';
import type { Permission } from '../../domain/permissions';
import type { PushChange } from '../../domain/sync';
import type { AuthUser } from '../plugins/auth';
import { mayActOn, patientForCall } from './access';
import { fingerprintOf, type StoredAnswer, type Transaction } from './idempotency';
import type { WriteOptions } from './records';
import type { Queryable } from './transaction';

// The mutations of synced records, each written once and called two ways: by its REST route (one call,
// one transaction) and by the batched replay (POST /api/sync/push: many calls in one transaction, see
// sync-push.ts). A resource declares its REST path, body schemas and handlers with `defineMutations`;
// the batch then turns each pushed change into the very REST call it stands for (method, path, body),
// validates it with the route's schema and runs the route's handler, so both give the same answers.

/** The permission checks of access.ts, bound to the caller. */
export type AccessChecks = {
  mayActOn(db: Queryable, patientId: string, permission: Permission): Promise<boolean>;
  patientForCall(db: Queryable, named: string | undefined, permission: Permission): Promise<string>;
};

/** What a mutation handler works with: who calls, in which transaction, and how writes find the lock. */
export type MutationContext = {
  tx: Transaction;
  auth: AuthUser;
  access: AccessChecks;
  writeOptions: WriteOptions;
};

/**
 * The caller's permission checks. A batch asks each question once (`cached`): its items mostly concern
 * one patient, and an answer that was true at the start of the batch is taken for all of it, as if the
 * batch had run before any concurrent change of the links.
 */
export function accessChecks(auth: AuthUser, options: { cached: boolean }): AccessChecks {
  const direct: AccessChecks = {
    mayActOn: (db, patientId, permission) => mayActOn(db, auth, patientId, permission),
    patientForCall: (db, named, permission) => patientForCall(db, auth, named, permission),
  };
  if (!options.cached) return direct;
  const mayAct = new Map<string, Promise<boolean>>();
  const patients = new Map<string, Promise<string>>();
  const remembered = <T>(cache: Map<string, Promise<T>>, key: string, ask: () => Promise<T>) => {
    let answer = cache.get(key);
    if (!answer) {
      answer = ask();
      cache.set(key, answer);
    }
    return answer; // a refusal (a rejected promise) is remembered too, and thrown again to each item
  };
  return {
    mayActOn: (db, patientId, permission) =>
      remembered(mayAct, `${patientId} ${permission}`, () => direct.mayActOn(db, patientId, permission)),
    patientForCall: (db, named, permission) =>
      remembered(patients, `${named ?? ''} ${permission}`, () =>
        direct.patientForCall(db, named, permission),
      ),
  };
}

/** The context of one REST call: its own transaction, no cache, the version lock still to take. */
export function restContext(tx: Transaction, auth: AuthUser): MutationContext {
  return { tx, auth, access: accessChecks(auth, { cached: false }), writeOptions: {} };
}

/** The answer the error handler gives when a route's schema refuses the body. */
export function answerOfInvalidBody(error: z.ZodError): StoredAnswer {
  const errors = error.issues.map((issue) => ({
    msg: issue.message,
    path: issue.path.map(String).join('.'),
  }));
  const body: ErrorBody = { message: errors[0]?.msg ?? 'The request is not valid.', errors };
  return { statusCode: 400, body };
}

/** A pushed change made ready: its REST call, validated, and the work to run; or the 400 its body gets. */
export type PreparedMutation =
  | { valid: true; fingerprint: string; run: (context: MutationContext) => Promise<StoredAnswer> }
  | { valid: false; answer: StoredAnswer };

export type ResourceMutations = Record<PushChange['op'], (change: PushChange) => PreparedMutation>;

type BodyHandler<Schema extends z.ZodType> = {
  body: Schema;
  run: (context: MutationContext, id: string, input: z.output<Schema>) => Promise<StoredAnswer>;
};

/**
 * A synced resource's mutations as its REST routes take them: `POST {path}` with the id in the body,
 * `PUT {path}/:id` and `DELETE {path}/:id`. `path` is the full path the client calls (with /api), since a
 * change sent by REST and sent again in a batch must have the same fingerprint.
 */
export function defineMutations<Create extends z.ZodType, Update extends z.ZodType>(resource: {
  path: string;
  create: BodyHandler<Create>;
  update: BodyHandler<Update>;
  delete: { run: (context: MutationContext, id: string) => Promise<StoredAnswer> };
}): ResourceMutations {
  const withBase = (change: PushChange) =>
    change.base_version === undefined ? {} : { base_version: change.base_version };
  const prepare = <Schema extends z.ZodType>(
    handler: BodyHandler<Schema>,
    method: string,
    path: string,
    change: PushChange,
    request: unknown,
  ): PreparedMutation => {
    const parsed = handler.body.safeParse(request);
    if (!parsed.success) return { valid: false, answer: answerOfInvalidBody(parsed.error) };
    const input = parsed.data;
    return {
      valid: true,
      fingerprint: fingerprintOf(method, path, input),
      run: (context) => handler.run(context, change.id, input),
    };
  };
  return {
    create: (change) =>
      prepare(resource.create, 'POST', resource.path, change, {
        ...change.payload,
        id: change.id,
        ...withBase(change),
      }),
    update: (change) =>
      prepare(resource.update, 'PUT', `${resource.path}/${change.id}`, change, {
        ...change.payload,
        ...withBase(change),
      }),
    delete: (change) => ({
      valid: true,
      fingerprint: fingerprintOf('DELETE', `${resource.path}/${change.id}`, null), // a DELETE has no body
      run: (context) => resource.delete.run(context, change.id),
    }),
  };
}
