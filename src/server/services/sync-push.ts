import type { FastifyBaseLogger } from 'fastify';
import type { ErrorBody } from '../../domain/errors';
import type { PushChange, PushResult } from '../../domain/sync';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import {
  answerOfError,
  answerOnReplay,
  IdempotencyLedger,
  type StoredAnswer,
  type Transaction,
} from './idempotency';
import { accessChecks, replayCheck, type MutationContext, type PreparedMutation } from './record-mutations';
import { CreateBatch, takeVersionLock, type NewRecord } from './records';
import { SYNCED_MUTATIONS } from './synced-mutations';

// The batched replay (POST /api/sync/push): a device's queued changes, applied in order, each exactly
// once per Idempotency-Key and with the checks and answers of the REST call it stands for.
//
// One transaction for the batch; keys are claimed and the version lock taken once for it: by the first
// run of creates' insert itself when the batch starts with one (the checks of those creates then run
// before the lock, not while every other writer waits), else before the first item. A refused item
// (4xx) is rolled back alone and the batch goes on; an item that fails unexpectedly (5xx) is rolled back
// alone and ends the batch there, since a later change may build on it: it and the rest answer status 0,
// "not tried, send again", and the items before it are kept.
//
// Rolling back one item needs a savepoint around it: two more round trips per item (savepoint, release),
// which made a batch of creates a third slower or more, paid for the rare batch where an item is refused.
// So a batch runs first without savepoints; if any item is refused or fails, that whole attempt is rolled
// back and the batch runs again with a savepoint per item. Nothing of the first attempt is kept or answered.

const FAILED: ErrorBody = { message: 'Something went wrong. This change was not applied; send it again.' };
const NOT_TRIED: ErrorBody = { message: 'Not tried, because an earlier change failed; send it again.' };

const isRefusal = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.statusCode < 500;

/** Thrown out of the first attempt's transaction (rolling it back) when an item did not succeed. */
class ItemDidNotSucceed extends Error {}

/** A pushed change made ready; `record` names the record it changes (resource and id). */
type Item = { key: string; op: PushChange['op']; record: string; mutation: PreparedMutation };

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
    record: `${change.resource}:${change.id.toLowerCase()}`,
    mutation: SYNCED_MUTATIONS[change.resource][change.op](change),
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
    for (let index = 0; index < items.length;) {
      const creates = savepoints || !ledger.mayWrite ? [] : createsToRun(items, index, ledger);
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
        index += creates.length;
        continue;
      }
      const item = items[index];
      index++;
      if (!item) break;
      const { key, mutation } = item;
      if (!mutation.valid) {
        answer(key, mutation.answer);
        continue;
      }
      const decision = ledger.decide(key, mutation.fingerprint);
      if (decision.kind === 'replay') {
        // Re-checked against the caller's access now, as a REST replay.
        const replay = await answerOnReplay(tx, decision.answer, replayCheck(shared.access));
        answer(key, replay instanceof HttpError ? answerOfError(replay) : replay);
        continue;
      }
      if (decision.kind === 'refuse') {
        if (!isRefusal(decision.error)) break;
        answer(key, answerOfError(decision.error));
        continue;
      }
      try {
        await holdLock();
        const done = await run(mutation.run);
        ledger.record(key, mutation.fingerprint, done);
        answer(key, done);
      } catch (error) {
        if (error instanceof ItemDidNotSucceed) throw error;
        if (!isRefusal(error)) {
          log.error({ err: error, idempotencyKey: key }, 'a pushed change failed');
          break;
        }
        // A refusal is final for the device: kept, so a late copy of this item is answered the same.
        const refusal = answerOfError(error);
        ledger.record(key, mutation.fingerprint, refusal);
        answer(key, refusal);
      }
    }
    const stoppedAt = results.length;
    for (const { key } of items.slice(stoppedAt)) {
      results.push({
        idempotency_key: key,
        status: 0,
        body: results.length === stoppedAt ? FAILED : NOT_TRIED,
      });
    }
    await ledger.settle();
    return results;
  });
}

/** The items from `index` on that are creates to run, up to the first that is not (or repeats a key). */
function createsToRun(items: readonly Item[], index: number, ledger: IdempotencyLedger): Item[] {
  const run: Item[] = [];
  const keys = new Set<string>();
  // Two changes of one record (a dose marked twice, a check-in's answers in turn) never run together:
  // each must see what the one before it wrote, as when they are applied one by one.
  const changed = new Set<string>();
  for (const item of items.slice(index)) {
    const { key, op, record, mutation } = item;
    if (op !== 'create' || !mutation.valid || keys.has(key) || changed.has(record)) break;
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
