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
import { takeVersionLock } from './records';
import { SYNCED_MUTATIONS } from './synced-mutations';

// The batched replay (POST /api/sync/push): a device's queued changes, applied in order, each exactly
// once per Idempotency-Key and with the checks and answers of the REST call it stands for.
//
// One transaction for the batch; keys are claimed and the version lock taken once for it. A refused item
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

type Item = { key: string; mutation: PreparedMutation };

export async function applyPushedChanges(
  db: Database,
  auth: AuthUser,
  changes: readonly PushChange[],
  log: FastifyBaseLogger,
): Promise<PushResult[]> {
  const items: Item[] = changes.map((change) => ({
    key: change.idempotency_key,
    mutation: SYNCED_MUTATIONS[change.resource][change.op](change),
  }));
  try {
    return await applyBatch(db, auth, items, log, { savepoints: false });
  } catch (error) {
    if (!(error instanceof ItemDidNotSucceed)) throw error;
    log.debug({ err: error.cause }, 'a pushed batch runs again, an item at a time');
    return applyBatch(db, auth, items, log, { savepoints: true });
  }
}

async function applyBatch(
  db: Database,
  auth: AuthUser,
  items: readonly Item[],
  log: FastifyBaseLogger,
  { savepoints }: { savepoints: boolean },
): Promise<PushResult[]> {
  return db.transaction(async (tx) => {
    const calls = items.flatMap(({ key, mutation }) =>
      mutation.valid ? [{ key, fingerprint: mutation.fingerprint }] : [],
    );
    const ledger = await IdempotencyLedger.claim(tx, auth.userId, calls);
    if (ledger.mayWrite) await takeVersionLock(tx);
    const shared: Omit<MutationContext, 'tx'> = {
      auth,
      access: accessChecks(auth, { cached: true }),
      writeOptions: { versionLockHeld: ledger.mayWrite },
    };
    const run = (work: (context: MutationContext) => Promise<StoredAnswer>) =>
      savepoints
        ? tx.transaction((savepoint: Transaction) => work({ ...shared, tx: savepoint }))
        : work({ ...shared, tx }).catch((error: unknown) => {
            throw new ItemDidNotSucceed('an item was refused or failed', { cause: error });
          });

    const results: PushResult[] = [];
    const answer = (key: string, { statusCode, body }: StoredAnswer) =>
      results.push({ idempotency_key: key, status: statusCode, body });
    for (const { key, mutation } of items) {
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
