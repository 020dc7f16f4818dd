import type { z } from 'zod';
import { and, eq, inArray } from 'drizzle-orm';
import type { ErrorBody } from '../../domain/errors';
import { readPermissionOf, RESOURCE_READ_PERMISSION, type Permission } from '../../domain/permissions';
import type { PushChange } from '../../domain/sync';
import { records, uploads } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { mayActOn, patientForCall, requireBetaPolicyAccepted } from './access';
import { recordWrite } from './care-activity';
import {
  fingerprintOf,
  type AnswerAccess,
  type ReplayCheck,
  type StoredAnswer,
  type Transaction,
} from './idempotency';
import { deleteRecord, type RecordRow, type WriteOptions } from './records';
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
  /** 403 unless the caller may write at all (the beta policy accepted); every mutation asks first. */
  requireBetaPolicy(db: Queryable): Promise<void>;
};

/** What a mutation handler works with: who calls, in which transaction, and how writes find the lock. */
export type MutationContext = {
  tx: Transaction;
  auth: AuthUser;
  access: AccessChecks;
  writeOptions: WriteOptions;
  /**
   * Keys of stored files a mutation stopped referring to (a deleted lab report's file). The caller removes
   * each after its transaction commits, unless a live record still holds it (orphan-files.ts).
   */
  releasedFiles?: Set<string>;
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
    requireBetaPolicy: (db) => requireBetaPolicyAccepted(db, auth.userId),
  };
  if (!options.cached) return direct;
  let writer: Promise<void> | undefined;
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
    requireBetaPolicy: (db) => (writer ??= direct.requireBetaPolicy(db)),
  };
}

/** The context of one REST call: its own transaction, no cache, the version lock still to take. */
export function restContext(tx: Transaction, auth: AuthUser): MutationContext {
  return {
    tx,
    auth,
    access: accessChecks(auth, { cached: false }),
    writeOptions: {},
    releasedFiles: new Set(),
  };
}

/**
 * A file a record points at must be one the caller uploaded, so nobody can point a record at another
 * person's file (and then be handed a signed link to it): 400 with `message` otherwise.
 */
export async function requireOwnUpload(
  { tx, auth }: MutationContext,
  key: string | null | undefined,
  message: string,
): Promise<void> {
  if (!key) return;
  const [owned] = await tx
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.ownerUserId, auth.userId)))
    .limit(1);
  if (!owned) throw new HttpError(400, message);
}

/**
 * Deletes a record the caller was found allowed to delete, and answers as every DELETE of a synced
 * resource does: `{ success, message, data: { id, version, deleted: true } }` (`permission` decides, as for
 * every answer about a record, whether the caller may see more than that receipt).
 */
export async function deleteAndAnswer(
  context: MutationContext,
  current: RecordRow,
  permission: Permission,
  message: string,
): Promise<StoredAnswer> {
  const row = await deleteRecord(context.tx, current, context.writeOptions);
  return answerAbout(
    context,
    { patientId: current.patientId, permission },
    {
      statusCode: 200,
      body: { success: true, message, data: { id: row.id, version: row.version, deleted: true } },
    },
  );
}

/** What an answer about a record keeps for a caller who may change the record but not read it. */
const RECEIPT_FIELDS = ['id', 'version', 'deleted'];

/** The answer with its record reduced to id, version and whether it is deleted (see recordReceiptSchema). */
export function withoutRecordFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('data' in body)) return body;
  const { data } = body;
  if (typeof data !== 'object' || data === null) return body;
  const receipt = Object.fromEntries(
    Object.entries(data).filter(([field]) => RECEIPT_FIELDS.includes(field)),
  );
  return { ...body, data: receipt };
}

/**
 * A mutation's success, kept with the access it needed (for the replay check), and showing the record only
 * to a caller who may read it: a caregiver granted Edit but not Read learns no more by editing.
 * Every mutation ends here, by REST or in a pushed batch, in its transaction and never for a replay: so a
 * caregiver's write is put on the patient's activity log here, and only if the write commits.
 */
export async function answerAbout(
  context: MutationContext,
  access: AnswerAccess,
  answer: { statusCode: number; body: unknown },
): Promise<StoredAnswer> {
  await recordWrite(context.tx, context.auth, { ...access, body: answer.body });
  const readable = await context.access.mayActOn(
    context.tx,
    access.patientId,
    readPermissionOf(access.permission),
  );
  return { ...answer, body: readable ? answer.body : withoutRecordFields(answer.body), access };
}

/** What is stored now of a record an answer names. */
type RecordState = { resource: string; patientId: string; version: number; live: boolean };

/**
 * Whether the records that stored answers name still exist: each looked up when a replay asks, or all of a
 * pushed batch's replays at once (`lookUp`, one query rather than one per item). A record an item of the
 * batch wrote since is looked up again (`forget`).
 */
export class RecordStates {
  private readonly known = new Map<string, RecordState[]>();

  constructor(private readonly db: Queryable) {}

  /** Looks up, in one query, the records these stored answers name. */
  async lookUp(answers: Iterable<StoredAnswer>): Promise<void> {
    const ids = new Set<string>();
    for (const answer of answers) {
      const id = answer.access ? liveRecordIdOf(answer.body) : null;
      if (id) ids.add(id);
    }
    await this.fetch(ids);
  }

  async of(id: string): Promise<RecordState[]> {
    await this.fetch(new Set([id]));
    return this.known.get(id) ?? [];
  }

  forget(ids: Iterable<string>): void {
    for (const id of ids) this.known.delete(id);
  }

  private async fetch(wanted: ReadonlySet<string>): Promise<void> {
    const ids = [...wanted].filter((id) => !this.known.has(id));
    if (ids.length === 0) return;
    const rows = await this.db
      .select({
        id: records.id,
        resource: records.resource,
        patientId: records.patientId,
        version: records.version,
        deletedAt: records.deletedAt,
      })
      .from(records)
      .where(inArray(records.id, ids));
    for (const id of ids) this.known.set(id, []);
    for (const { id, deletedAt, ...row } of rows) this.known.get(id)?.push({ ...row, live: !deletedAt });
  }
}

/** The id of the record a success names, unless the answer already says it is deleted. */
function liveRecordIdOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('data' in body)) return null;
  const { data } = body;
  if (typeof data !== 'object' || data === null || !('id' in data) || typeof data.id !== 'string')
    return null;
  return 'deleted' in data && data.deleted === true ? null : data.id.toLowerCase();
}

/**
 * The stored answer with its record as a receipt saying it is deleted, when the record it names (of the
 * patient and a resource the answer's permission is about) was deleted since, or null while it lives.
 * The receipt carries the delete's version (the device takes the record off its screens at it), or the
 * answer's own once the tombstone is purged too.
 */
async function deletedSince(stored: StoredAnswer & { access: AnswerAccess }, states: RecordStates) {
  const id = stored.statusCode < 300 ? liveRecordIdOf(stored.body) : null;
  if (!id) return null;
  const read = readPermissionOf(stored.access.permission);
  const resources = Object.entries(RESOURCE_READ_PERMISSION).flatMap(([resource, needed]) =>
    needed === read ? [resource] : [],
  );
  const rows = (await states.of(id)).filter(
    (row) => row.patientId === stored.access.patientId && resources.includes(row.resource),
  );
  if (rows.some((row) => row.live)) return null;
  const body = stored.body as { data: { id: string; version?: unknown } };
  const version = rows.length > 0 ? Math.max(...rows.map((row) => row.version)) : body.data.version;
  return { ...body, data: { id: body.data.id, version, deleted: true } };
}

/**
 * The replay check of a record mutation: the stored answer, with the record only for a caller who may
 * still read it. A caller who lost the access the change needed gets a receipt (id and version): the
 * change was made, so answering as a fresh call would (a refusal) would be untrue, and their device
 * would throw away a change the server holds; a receipt says it was made and shows nothing more.
 * A record deleted since is not shown as it was: the answer says it was made, and that the record is
 * deleted now (as a pull would: the device takes it off its screens); a caller who may no longer read
 * the patient's records is not told of the delete (their receipt stays as it was).
 */
export function replayCheck(access: AccessChecks, states?: RecordStates): ReplayCheck {
  return async (tx, stored) => {
    const { patientId, permission } = stored.access;
    if (!(await access.mayActOn(tx, patientId, readPermissionOf(permission))))
      return { ...stored, body: withoutRecordFields(stored.body) };
    const deleted = await deletedSince(stored, states ?? new RecordStates(tx));
    return deleted ? { ...stored, body: deleted } : stored;
  };
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
  | {
      valid: true;
      fingerprint: string;
      run: (context: MutationContext) => Promise<StoredAnswer>;
    }
  | { valid: false; answer: StoredAnswer };

/**
 * A REST route made from a mutation's declaration (routes/mutation-routes.ts registers them): its method,
 * its path (with /api and `:id`), its schemas for the OpenAPI document, and the work it does.
 */
export type MutationRoute = {
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  tags: readonly string[];
  body?: z.ZodType;
  params?: z.ZodType;
  status: number;
  response: z.ZodType;
  run: (context: MutationContext, id: string, input: unknown) => Promise<StoredAnswer>;
};

export type ResourceMutations = Record<PushChange['op'], (change: PushChange) => PreparedMutation> & {
  /** The REST routes made from this declaration; a route a resource writes itself is not among them. */
  routes?: readonly MutationRoute[];
};

/**
 * How a mutation is offered by REST as well as in a pushed batch: its answer's schema. A mutation whose
 * REST route does more (a multipart form, an id to resolve first) leaves it out and writes its route itself.
 */
type RestAnswer = { response: z.ZodType };

type BodyHandler<Schema extends z.ZodType> = {
  body: Schema;
  /** The REST path of this call when it is not the resource's `path` (POST /api/doctors/add). */
  path?: string;
  run: (context: MutationContext, id: string, input: z.output<Schema>) => Promise<StoredAnswer>;
  rest?: RestAnswer;
};

/**
 * A synced resource's mutations as its REST routes take them: `POST {path}` (or the create's own path)
 * with the id in the body, `PUT {path}/:id` and `DELETE {path}/:id`. `path` is the full path the client calls (with /api), since a
 * change sent by REST and sent again in a batch must have the same fingerprint.
 */
export function defineMutations<Create extends z.ZodType, Update extends z.ZodType>(resource: {
  path: string;
  /** The 404 message of an unknown (or hidden) record of this resource. */
  notFound: string;
  /** The OpenAPI tags and the `:id` parameter's schema of its REST routes. */
  rest?: { tags: readonly string[]; idParams: z.ZodType };
  create: BodyHandler<Create>;
  update: BodyHandler<Update>;
  delete: { run: (context: MutationContext, id: string) => Promise<StoredAnswer>; rest?: RestAnswer };
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
      prepare(resource.create, 'POST', resource.create.path ?? resource.path, change, {
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
    routes: restRoutesOf(resource),
  };
}

/** The REST routes of the mutations that declare their answer: the same handlers the batch runs. */
function restRoutesOf(resource: Parameters<typeof defineMutations>[0]): MutationRoute[] {
  const { rest } = resource;
  if (!rest) return [];
  const routes: MutationRoute[] = [];
  const { create, update } = resource;
  if (create.rest)
    routes.push({
      method: 'POST',
      url: create.path ?? resource.path,
      tags: rest.tags,
      body: create.body,
      status: 201,
      response: create.rest.response,
      // A create names its record in its body; one sent without an id gets a new one.
      run: (context, _id, input) =>
        create.run(context, (input as { id?: string }).id ?? crypto.randomUUID(), input),
    });
  if (update.rest)
    routes.push({
      method: 'PUT',
      url: `${resource.path}/:id`,
      tags: rest.tags,
      body: update.body,
      params: rest.idParams,
      status: 200,
      response: update.rest.response,
      run: (context, id, input) => update.run(context, id, input),
    });
  if (resource.delete.rest)
    routes.push({
      method: 'DELETE',
      url: `${resource.path}/:id`,
      tags: rest.tags,
      params: rest.idParams,
      status: 200,
      response: resource.delete.rest.response,
      run: (context, id) => resource.delete.run(context, id),
    });
  return routes;
}
