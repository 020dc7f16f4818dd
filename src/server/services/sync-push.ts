import type { FastifyBaseLogger } from 'fastify';
import type { ErrorBody } from '../../domain/errors';
import type { PushChange, PushResult } from '../../domain/sync';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { HttpError, TransientRefusal } from '../plugins/errors';
import {
  answerOfError,
  answerOnReplay,
  IdempotencyLedger,
  type StoredAnswer,
  type Transaction,
} from './idempotency';
import {
  accessChecks,
  RecordStates,
  replayCheck,
  type MutationContext,
  type PreparedMutation,
} from './record-mutations';
import { CreateBatch, takeVersionLock, type NewRecord } from './records';
import { SERVER_RESOURCES } from '../resources';

// The batched replay (POST /api/sync/push): a device's queued changes, applied in order, each exactly
// once per Idempotency-Key and with the checks and answers of the REST call it stands for.
//
// One transaction for the batch; keys are claimed and the version lock taken once for it: by the first
// run of creates' insert itself when the batch starts with one (the checks of those creates then run
// before the lock, not while every other writer waits), else before the first item. Every item is
// answered in its own slot, and no item holds back another that does not build on it. A refused item
// (4xx) is rolled back alone and the batch goes on. An item that fails unexpectedly (5xx) is rolled back
// alone and answered with its failure (the device sends it again); a later change that builds on it (a
// change of the same record, or one naming its id, as a dose mark names its prescription) would be
// refused for want of it, so it is not tried: status 0, "send it again". The other items are applied.
//
// Rolling back one item needs a savepoint around it: two more round trips per item (savepoint, release),
// which made a batch of creates a third slower or more, paid for the rare batch where an item is refused.
// So a batch runs first without savepoints; if any item is refused or fails, that whole attempt is rolled
// back and the batch runs again with a savepoint per item. Nothing of the first attempt is kept or answered.

const FAILED: ErrorBody = { message: 'Something went wrong. This change was not applied; send it again.' };
const NOT_TRIED: ErrorBody = {
  message: 'Not tried, because an earlier change it builds on failed; send it again.',
};

const isRefusal = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.statusCode < 500;

/** Thrown out of the first attempt's transaction (rolling it back) when an item did not succeed. */
class ItemDidNotSucceed extends Error {}

/**
 * A pushed change made ready; `record` names the record it changes (resource and id), `names` every id
 * it refers to (its record's, and any a field holds: a dose mark's prescription).
 */
type Item = {
  key: string;
  op: PushChange['op'];
  /** The id of its record, in lower case. */
  id: string;
  record: string;
  names: ReadonlySet<string>;
  mutation: PreparedMutation;
};

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids a change refers to: its record's, and every text of its payload that is a UUID. */
function namesOf(change: PushChange): Set<string> {
  const names = new Set([change.id.toLowerCase()]);
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (UUID_TEXT.test(value)) names.add(value.toLowerCase());
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(change.payload);
  return names;
}

export async function applyPushedChanges(
  db: Database,
  auth: AuthUser,
  changes: readonly PushChange[],
  log: FastifyBaseLogger,
  /** Gets the files the committed batch stopped referring to (see MutationContext.releasedFiles). */
  onReleasedFiles?: (keys: ReadonlySet<string>) => Promise<unknown>,
): Promise<PushResult[]> {
  const released = new Set<string>();
  const results = await applyItems(db, auth, changes, log, released);
  if (released.size > 0 && onReleasedFiles) await onReleasedFiles(released);
  return results;
}

async function applyItems(
  db: Database,
  auth: AuthUser,
  changes: readonly PushChange[],
  log: FastifyBaseLogger,
  released: Set<string>,
): Promise<PushResult[]> {
  const items: Item[] = changes.map((change) => ({
    key: change.idempotency_key,
    op: change.op,
    id: change.id.toLowerCase(),
    record: `${change.resource}:${change.id.toLowerCase()}`,
    names: namesOf(change),
    mutation: SERVER_RESOURCES[change.resource].mutations[change.op](change),
  }));
  try {
    return await applyBatch(db, auth, items, log, { savepoints: false, released });
  } catch (error) {
    if (!(error instanceof ItemDidNotSucceed)) throw error;
    log.debug({ err: error.cause }, 'a pushed batch runs again, an item at a time');
    released.clear(); // the first attempt rolled back: what it released is held again
    return applyBatch(db, auth, items, log, { savepoints: true, released });
  }
}

async function applyBatch(
  db: Database,
  auth: AuthUser,
  items: readonly Item[],
  log: FastifyBaseLogger,
  { savepoints, released }: { savepoints: boolean; released: Set<string> },
): Promise<PushResult[]> {
  return db.transaction(async (tx) => {
    const calls = items.flatMap(({ key, mutation }) =>
      mutation.valid ? [{ key, fingerprint: mutation.fingerprint }] : [],
    );
    const ledger = await IdempotencyLedger.claim(tx, auth.userId, calls);
    // The records the stored answers to replay name, looked up together (see replayCheck).
    const replayed = new RecordStates(tx);
    await replayed.lookUp(ledger.answeredBefore);
    const shared: Omit<MutationContext, 'tx' | 'writeOptions'> = {
      auth,
      access: accessChecks(auth, { cached: true }),
      releasedFiles: released,
    };
    let lockHeld = false;
    const holdLock = async () => {
      if (lockHeld) return;
      await takeVersionLock(tx);
      lockHeld = true;
    };
    if (ledger.mayWrite) {
      // Asked before the version lock, which every writer waits for, rather than by the first item under
      // it: the answer (or refusal) is kept by the cached checks and given to every item that asks.
      await shared.access.requireBetaPolicy(tx).catch(() => undefined);
      // With savepoints the lock is taken outside them: one rolled back would let go of a lock taken in it.
      if (savepoints) await holdLock();
    }
    const run = (work: (context: MutationContext) => Promise<StoredAnswer>) =>
      savepoints
        ? tx.transaction((savepoint: Transaction) =>
            work({ ...shared, tx: savepoint, writeOptions: { versionLockHeld: true } }),
          )
        : work({ ...shared, tx, writeOptions: { versionLockHeld: true } }).catch((error: unknown) => {
            throw new ItemDidNotSucceed('an item was refused or failed', { cause: error });
          });

    const results: PushResult[] = [];
    const answer = (key: string, { statusCode, body }: StoredAnswer) =>
      results.push({ idempotency_key: key, status: statusCode, body });
    // The ids of the records whose changes failed here, or were held back for one that did.
    const failed = new Set<string>();
    const buildsOnFailed = (item: Item) => [...item.names].some((name) => failed.has(name));
    for (let index = 0; index < items.length;) {
      const creates = savepoints || !ledger.mayWrite ? [] : createsToRun(items, index, ledger, failed);
      if (creates.length > 1) {
        // A run of creates (a device's new records): their inserts go to Postgres as one statement, which
        // takes the version lock when the batch does not hold it yet.
        const batch: CreateBatch = new CreateBatch(tx, lockHeld);
        const done = await runCreates(tx, shared, creates, batch);
        lockHeld = batch.holdsLock;
        for (const [position, { key, mutation }] of creates.entries()) {
          const outcome = done[position];
          if (!mutation.valid || outcome?.status !== 'fulfilled')
            throw new ItemDidNotSucceed('an item was refused or failed', {
              cause: outcome?.status === 'rejected' ? outcome.reason : undefined,
            });
          ledger.record(key, mutation.fingerprint, outcome.value);
          answer(key, outcome.value);
        }
        for (const { names } of creates) replayed.forget(names);
        index += creates.length;
        continue;
      }
      const item = items[index];
      index++;
      if (!item) continue;
      const { key, mutation } = item;
      if (!mutation.valid) {
        answer(key, mutation.answer);
        continue;
      }
      const decision = ledger.decide(key, mutation.fingerprint);
      if (decision.kind === 'replay') {
        // Re-checked against the caller's access, and the record's state, now, as a REST replay.
        const replay = await answerOnReplay(tx, decision.answer, replayCheck(shared.access, replayed));
        answer(key, replay instanceof HttpError ? answerOfError(replay) : replay);
        continue;
      }
      if (decision.kind === 'refuse') {
        answer(key, answerOfError(decision.error));
        // A key being used by another request now: what builds on this change waits for it.
        if (!isRefusal(decision.error)) failed.add(item.id);
        continue;
      }
      if (buildsOnFailed(item)) {
        answer(key, { statusCode: 0, body: NOT_TRIED });
        failed.add(item.id); // and what builds on this one waits with it
        continue;
      }
      try {
        await holdLock();
        const done = await run(mutation.run);
        replayed.forget(item.names);
        ledger.record(key, mutation.fingerprint, done);
        answer(key, done);
      } catch (error) {
        if (error instanceof ItemDidNotSucceed) throw error;
        if (!isRefusal(error)) {
          // Rolled back to its savepoint; nothing of it is kept, not even its key: the device sends it again.
          log.error({ err: error, idempotencyKey: key }, 'a pushed change failed');
          answer(key, error instanceof HttpError ? answerOfError(error) : { statusCode: 500, body: FAILED });
          failed.add(item.id);
          continue;
        }
        if (error instanceof TransientRefusal) {
          // Refused for now (the beta policy not yet accepted, a quota that frees up): nothing is kept, so
          // the device's next try is judged afresh; what builds on this change waits with it.
          answer(key, answerOfError(error));
          failed.add(item.id);
          continue;
        }
        // A refusal is final for the device: kept, so a late copy of this item is answered the same.
        const refusal = answerOfError(error);
        ledger.record(key, mutation.fingerprint, refusal);
        answer(key, refusal);
      }
    }
    await ledger.settle();
    return results;
  });
}

/**
 * The items from `index` on that are creates to run, up to the first that is not (or repeats a key, or
 * builds on a change that failed).
 */
function createsToRun(
  items: readonly Item[],
  index: number,
  ledger: IdempotencyLedger,
  failed: ReadonlySet<string>,
): Item[] {
  const run: Item[] = [];
  const keys = new Set<string>();
  // Two changes of one record (a dose marked twice, a check-in's answers in turn) never run together:
  // each must see what the one before it wrote, as when they are applied one by one.
  const changed = new Set<string>();
  for (const item of items.slice(index)) {
    const { key, op, record, names, mutation } = item;
    if (op !== 'create' || !mutation.valid || keys.has(key) || changed.has(record)) break;
    if ([...names].some((name) => failed.has(name))) break;
    if (ledger.decide(key, mutation.fingerprint).kind !== 'run') break;
    keys.add(key);
    changed.add(record);
    run.push(item);
  }
  return run;
}

/**
 * Runs these creates together: each item's checks as usual, their inserts as one (CreateBatch), written
 * once every item has handed over its insert or ended. Answers every item's outcome, in order, once all
 * have ended (so no statement of theirs is still under way when the caller rolls the transaction back).
 */
async function runCreates(
  tx: Transaction,
  shared: Omit<MutationContext, 'tx' | 'writeOptions'>,
  creates: readonly Item[],
  batch: CreateBatch,
): Promise<PromiseSettledResult<StoredAnswer>[]> {
  let waiting = creates.length;
  const handedOver = () => {
    waiting--;
    if (waiting === 0) void batch.flush();
  };
  return Promise.allSettled(
    creates.map(async ({ mutation }) => {
      if (!mutation.valid) throw new Error('only valid creates run together');
      let counted = false;
      const count = () => {
        if (counted) return;
        counted = true;
        handedOver();
      };
      const createBatch = {
        add: (input: NewRecord) => {
          const row = batch.add(input);
          // A second insert of one item (no handler makes one) is written at once, not held back.
          if (counted) void batch.flush();
          else count();
          return row;
        },
      };
      try {
        // The lock is held only if it was before this run: an item that reads before it writes (a dose
        // mark, a check-in step) takes it first itself, as a lone REST call does.
        return await mutation.run({
          ...shared,
          tx,
          writeOptions: { versionLockHeld: batch.holdsLock, createBatch },
        });
      } finally {
        count();
      }
    }),
  );
}
