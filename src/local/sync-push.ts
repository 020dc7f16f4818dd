import { BETA_POLICY_NOT_ACCEPTED, messagesFromErrorBody } from '../domain/error-texts';
import { refusalOf, type Refusal } from '../domain/refusals';
import {
  PUSH_BATCH_MAX,
  pushResponseSchema,
  SYNCED_RESOURCES,
  type PushChange,
  type PushResult,
} from '../domain/sync';
import type { KincareDb, OutboxEntry, SyncedRow } from './db';
import { applyServerState, recompute, shadowKey } from './outbox';
import { pushChangeFor } from './sync-resources';
import { nextBatch } from './sync-push-batch';
import { TransportError, type Transport, type TransportResponse } from './sync-transport';

// Sends queued changes in order, in batches (`POST /api/sync/push`), files first. What happens to a change
// depends on why it was not taken:
// - nothing came back, 5xx, 408, 425, 429, or the server did not get to it: it stays queued and is tried
//   again with backoff, for as long as it takes. A transient failure never throws a change away.
// - its file's upload answered 429 (the person's daily upload quota, lifted by time, not by retries): it is
//   held, tried again with backoff, and meanwhile the changes after it go out, except those that build on
//   it (a change of the same record, or one whose fields name it), which wait with it. One photo over the
//   quota must not keep a day's doses and notes on the device.
// - 401: it stays queued until the person signs in again;
// - 403 because the person has not accepted the beta policy (made by an older app, or offline before the
//   policy was shown): it stays queued, untouched, and goes once they accept it (src/local/README.md);
// - any other 4xx (400, 403, 404, 409: the server refuses this change itself): it is rolled back on this
//   device and kept as failed with the server's message, the refusal and what the person typed, until they
//   discard it, or (a refusal that can be lifted, such as a 403 for a permission given since) send it again
//   (retryRefused in outbox.ts).

export type PushOutcome = {
  sent: number;
  /** How many sent changes the server merged with edits this device had not seen. */
  merged: number;
  rejected: { entry: OutboxEntry; message: string }[];
  stoppedBy: 'done' | 'retry-later' | 'signed-out' | 'policy-not-accepted';
};

const MAX_BACKOFF_MS = 5 * 60 * 1000;
/** Changes per request: large enough that a long offline queue goes out in a few round trips. */
export const PUSH_BATCH = Math.min(100, PUSH_BATCH_MAX);

export function backoffMs(attempts: number, random = Math.random): number {
  const exponential = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.5 + random() / 2));
}

const isRetryable = (status: number) =>
  status === 0 || status >= 500 || status === 408 || status === 425 || status === 429;

type Verdict = 'accepted' | 'signed-out' | 'policy-not-accepted' | 'retry' | 'rejected';
function classify(status: number, body?: unknown): Verdict {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 401) return 'signed-out';
  if (status === 403 && (body as { code?: unknown } | null)?.code === BETA_POLICY_NOT_ACCEPTED)
    return 'policy-not-accepted';
  return isRetryable(status) ? 'retry' : 'rejected';
}

export async function push(
  db: KincareDb,
  transport: Transport,
  options: { force?: boolean; now?: () => number; batchSize?: number } = {},
): Promise<PushOutcome> {
  const now = options.now ?? Date.now;
  const force = options.force ?? false;
  const outcome: PushOutcome = { sent: 0, merged: 0, rejected: [], stoppedBy: 'done' };
  let size = options.batchSize ?? PUSH_BATCH;
  /** Changes held in this push: passed over until it ends, even when the person asked to sync now. */
  const heldNow = new Set<number>();
  for (;;) {
    const { batch, holding } = await nextBatch(db, size, { now: now(), retryHeld: force, skip: heldNow });
    const head = batch[0];
    if (!head) return holding ? { ...outcome, stoppedBy: 'retry-later' } : outcome;
    if (!force && head.nextAttemptAt > now()) return { ...outcome, stoppedBy: 'retry-later' };
    let items: PushChange[];
    let response: TransportResponse;
    try {
      const prepared = await prepare(db, transport, batch);
      if ('failure' in prepared) {
        // An upload failed: the changes before it go out; the one that needs it is judged on the upload's answer.
        if (prepared.ready.length > 0) {
          size = prepared.ready.length;
          continue;
        }
        if (prepared.failure.status === 429) {
          await scheduleRetry(db, head, now(), force, { heldForUpload: true });
          heldNow.add(head.seq as number);
          size = options.batchSize ?? PUSH_BATCH;
          continue;
        }
        const stop = await inOneTransaction(db, () =>
          settle(db, head, prepared.failure, outcome, force, now()),
        );
        if (stop) return { ...outcome, stoppedBy: stop };
        continue;
      }
      items = prepared.items;
      response = await transport({
        method: 'POST',
        url: '/sync/push',
        body: { changes: items }, // each item carries its own Idempotency-Key
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      await scheduleRetry(db, head, now(), force);
      return { ...outcome, stoppedBy: 'retry-later' };
    }
    if (response.status !== 200) {
      // The request as a whole was not taken. A refusal of the whole batch cannot say which change is
      // wrong: the changes then go one at a time, so the one at fault is refused alone.
      if (classify(response.status, response.data) === 'rejected' && batch.length > 1) {
        size = 1;
        continue;
      }
      const stop = await inOneTransaction(db, () => settle(db, head, response, outcome, force, now()));
      if (stop) return { ...outcome, stoppedBy: stop };
      continue;
    }
    const parsed = pushResponseSchema.safeParse(response.data);
    const results = new Map(
      (parsed.success ? parsed.data.results : []).map((result) => [result.idempotency_key, result]),
    );
    // Every answer of the batch is written in one transaction: one commit instead of one per change.
    const stop = await inOneTransaction(db, async () => {
      for (const entry of batch) {
        const result: PushResult | undefined = results.get(entry.idempotencyKey);
        // A missing answer is the server's fault: keep the change and try again later.
        const answer = result ? { status: result.status, data: result.body } : { status: 0, data: null };
        const stopped = await settle(db, entry, answer, outcome, force, now());
        if (stopped) return stopped;
      }
      return null;
    });
    if (stop) return { ...outcome, stoppedBy: stop };
    size = options.batchSize ?? PUSH_BATCH;
  }
}

/**
 * Acts on the server's answer to one change; answers why the push must stop (and the change stays
 * queued), or nothing to go on with the next change.
 */
async function settle(
  db: KincareDb,
  entry: OutboxEntry,
  answer: TransportResponse,
  outcome: PushOutcome,
  forced: boolean,
  now: number,
): Promise<'retry-later' | 'signed-out' | 'policy-not-accepted' | null> {
  const verdict = classify(answer.status, answer.data);
  if (verdict === 'accepted') {
    await acknowledge(db, entry, answer.data);
    outcome.sent++;
    if ((answer.data as { merged?: unknown } | null)?.merged === true) outcome.merged++;
    return null;
  }
  if (verdict === 'signed-out' || verdict === 'policy-not-accepted') return verdict;
  if (verdict === 'retry') {
    await scheduleRetry(db, entry, now, forced);
    return 'retry-later';
  }
  const message = messagesFromErrorBody(answer.data).join(' ');
  await reject(db, entry, message, refusalOf(answer.status, answer.data));
  outcome.rejected.push({ entry, message });
  return null;
}

/**
 * The batch as items, after uploading the files its changes reference that the server does not have yet
 * (idempotently: the key is the blob's own id). When an upload fails, the changes before the one that
 * needs it, and the upload's answer.
 */
async function prepare(
  db: KincareDb,
  transport: Transport,
  batch: OutboxEntry[],
): Promise<{ items: PushChange[] } | { ready: OutboxEntry[]; failure: TransportResponse }> {
  const items: PushChange[] = [];
  for (const [index, entry] of batch.entries()) {
    const keys = new Map<string, string>();
    for (const blobId of entry.blobIds ?? []) {
      const blob = await db.blobs.get(blobId);
      if (!blob)
        return {
          ready: batch.slice(0, index),
          failure: {
            status: 400,
            data: { message: 'The attached file is no longer on this device. Attach it again.' },
          },
        };
      if (!blob.uploadedKey) {
        const response = await transport({
          method: 'POST',
          // Filed in the patient's folder (a caregiver's upload names the patient it is for).
          url: `/upload-image?type=${blob.uploadType}${blob.patientId ? `&patient=${blob.patientId}` : ''}`,
          file: { field: 'image', blob: blob.blob, filename: blob.name },
          idempotencyKey: `upload-${blob.id}`,
        });
        const key = (response.data as { files?: { key?: unknown }[] } | null)?.files?.[0]?.key;
        if (classify(response.status) !== 'accepted')
          return { ready: batch.slice(0, index), failure: response };
        // An answer without a key is the server's fault: try again later, never treat it as sent.
        if (typeof key !== 'string')
          return {
            ready: batch.slice(0, index),
            failure: { status: 502, data: { message: 'The server did not say where it stored the file.' } },
          };
        blob.uploadedKey = key;
        await db.blobs.update(blob.id, { uploadedKey: key });
        // Its file is on the server now: the change waits in line again like any other.
        if (entry.heldForUpload) await db.outbox.update(entry.seq as number, { heldForUpload: false });
      }
      keys.set(blobId, blob.uploadedKey);
    }
    items.push(pushChangeFor(entry, keys));
  }
  return { items };
}

/**
 * Keeps the change queued for another try later, backing off. A try the person asked for ('Sync now',
 * coming online) does not count towards the backoff: tapping during an outage must not push the next
 * automatic try further away.
 */
async function scheduleRetry(
  db: KincareDb,
  entry: OutboxEntry,
  now: number,
  forced: boolean,
  hold: { heldForUpload?: true } = {},
): Promise<void> {
  const attempts = forced ? entry.attempts : entry.attempts + 1;
  await db.outbox.update(entry.seq as number, {
    attempts,
    nextAttemptAt: now + backoffMs(Math.max(1, attempts)),
    ...hold,
  });
}

/**
 * (In a transaction.) The server took the change: drop the entry, rebase what is still queued on the server's answer, and
 * let the next queued change of this record build on the version this one got.
 */
async function acknowledge(db: KincareDb, entry: OutboxEntry, body: unknown): Promise<void> {
  const data = (body as { data?: Record<string, unknown> } | null)?.data;
  const version = typeof data?.version === 'number' ? data.version : 0;
  const deleted = entry.op === 'delete' || data?.deleted === true;
  const merged = (body as { merged?: unknown } | null)?.merged === true;
  await db.outbox.delete(entry.seq as number);
  if (entry.blobIds?.length) await db.blobs.bulkDelete(entry.blobIds); // the server has them now
  // The next queued edit builds on this one's version, unless the server merged this one with changes
  // this device has not seen: that version holds them, so the next edit still builds on what this one
  // built on, and is merged field by field too (or it would overwrite a later edit it never saw).
  const stillQueued = await settleSuccessorBase(db, entry, merged ? (entry.baseVersion ?? version) : version);
  // A receipt (id and version, no fields) is what someone who may change a record but not read it gets
  // back: the record is not theirs to see, so it leaves this device's view.
  const state = { version, data: deleted || !data || isReceipt(data) ? null : (data as SyncedRow) };
  await applyServerState(db, entry.resource, entry.entityId, state, !stillQueued);
}

function isReceipt(data: Record<string, unknown>): boolean {
  return Object.keys(data).every((key) => key === 'id' || key === 'version');
}

/**
 * The server refused the change: keep it as failed, with the reason and the refusal (for the person to see,
 * and to discard or, when the refusal can be lifted, send again), and roll it back.
 */
async function reject(db: KincareDb, entry: OutboxEntry, message: string, refusal: Refusal): Promise<void> {
  await db.outbox.update(entry.seq as number, { status: 'failed', error: message, refusal });
  // The next change of this record was made on top of this one; without it, it builds on what this
  // one built on.
  const shadow = await db.serverRows.get(shadowKey(entry.resource, entry.entityId));
  await settleSuccessorBase(db, entry, entry.baseVersion ?? shadow?.version ?? 0);
  await recompute(db, entry.resource, entry.entityId);
}

/** Runs the settling of answers as one transaction over every table it touches. */
function inOneTransaction<T>(db: KincareDb, work: () => Promise<T>): Promise<T> {
  const views = SYNCED_RESOURCES.map((resource) => db.viewOf(resource));
  return db.transaction('rw', [...views, db.serverRows, db.outbox, db.blobs], work);
}

/**
 * Fixes the base version of the next queued change of the record, if it was waiting for this one.
 * Answers whether any change of the record (pending or failed) is still in the outbox.
 */
async function settleSuccessorBase(db: KincareDb, entry: OutboxEntry, version: number): Promise<boolean> {
  const queued = await db.outbox
    .where('[resource+entityId]')
    .equals([entry.resource, entry.entityId])
    .sortBy('seq');
  const successor = queued.find((other) => other.status === 'pending' && (other.seq ?? 0) > (entry.seq ?? 0));
  if (successor && successor.baseVersion === undefined)
    await db.outbox.update(successor.seq as number, { baseVersion: version });
  return queued.some((other) => other.seq !== entry.seq);
}
