import { messagesFromErrorBody } from '../domain/errors';
import type { KincareDb, OutboxEntry, SyncedRow } from './db';
import { applyServerState, recompute } from './outbox';
import { requestFor } from './sync-resources';
import { TransportError, type Transport, type TransportResponse } from './sync-transport';

// Sends queued changes in order. What happens on failure depends on why:
// - nothing came back, 5xx, 408, 425, 429: the change stays queued and is retried with backoff;
// - 401: the change stays queued until the person signs in again;
// - any other 4xx (400, 403, 404, 409: the server cannot take or merge it): the change is rolled back on
//   this device, kept as failed with the server's message, and the person is told.

export type PushOutcome = {
  sent: number;
  /** How many sent changes the server merged with edits made elsewhere meanwhile. */
  merged: number;
  rejected: { entry: OutboxEntry; message: string }[];
  stoppedBy: 'done' | 'retry-later' | 'signed-out';
};

const MAX_BACKOFF_MS = 5 * 60 * 1000;
export const MAX_SERVER_FAILURES = 8;

export function backoffMs(attempts: number, random = Math.random): number {
  const exponential = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.5 + random() / 2));
}

const isRetryable = (status: number) => status >= 500 || status === 408 || status === 425 || status === 429;

/**
 * The oldest pending change: changes go out in the order they were made. IndexedDB orders entries with
 * equal index keys by primary key, so the `status` index yields the lowest `seq` first, without a scan.
 */
async function nextPending(db: KincareDb): Promise<OutboxEntry | undefined> {
  return db.outbox.where('status').equals('pending').first();
}

export async function push(
  db: KincareDb,
  transport: Transport,
  options: { force?: boolean; now?: () => number } = {},
): Promise<PushOutcome> {
  const now = options.now ?? Date.now;
  const outcome: PushOutcome = { sent: 0, merged: 0, rejected: [], stoppedBy: 'done' };
  for (;;) {
    const entry = await nextPending(db);
    if (!entry || entry.seq === undefined) return outcome;
    if (!options.force && entry.nextAttemptAt > now()) return { ...outcome, stoppedBy: 'retry-later' };
    let keys: Map<string, string>;
    let response: TransportResponse;
    try {
      const uploaded = await uploadBlobs(db, transport, entry);
      if ('status' in uploaded) response = uploaded;
      else {
        keys = uploaded.keys;
        response = await transport(requestFor(entry, entry.baseVersion ?? 0, keys));
      }
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      await scheduleRetry(db, entry, now());
      return { ...outcome, stoppedBy: 'retry-later' };
    }
    const verdict = classify(response.status);
    if (verdict === 'accepted') {
      await acknowledge(db, entry, response.data);
      outcome.sent++;
      if ((response.data as { merged?: unknown } | null)?.merged === true) outcome.merged++;
    } else if (verdict === 'signed-out') {
      return { ...outcome, stoppedBy: 'signed-out' };
    } else if (verdict === 'retry' && (entry.serverFailures ?? 0) + 1 < MAX_SERVER_FAILURES) {
      await scheduleRetry(db, entry, now(), true);
      return { ...outcome, stoppedBy: 'retry-later' };
    } else if (verdict === 'retry') {
      // The server keeps failing on this change: give it up (rolled back, shown as failed) rather than
      // let it block every change queued after it for ever.
      const message = `The server could not save this change after ${MAX_SERVER_FAILURES} tries: ${messagesFromErrorBody(response.data).join(' ')}`;
      await reject(db, entry, message);
      outcome.rejected.push({ entry, message });
    } else {
      const message = messagesFromErrorBody(response.data).join(' ');
      await reject(db, entry, message);
      outcome.rejected.push({ entry, message });
    }
  }
}

type Verdict = 'accepted' | 'signed-out' | 'retry' | 'rejected';
function classify(status: number): Verdict {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 401) return 'signed-out';
  return isRetryable(status) ? 'retry' : 'rejected';
}

/**
 * Uploads the files an entry references that the server does not have yet (idempotently: the key is
 * the blob's own id), and answers their keys; or, when an upload fails, that upload's answer.
 */
async function uploadBlobs(
  db: KincareDb,
  transport: Transport,
  entry: OutboxEntry,
): Promise<{ keys: Map<string, string> } | TransportResponse> {
  const keys = new Map<string, string>();
  for (const blobId of entry.blobIds ?? []) {
    const blob = await db.blobs.get(blobId);
    if (!blob)
      return {
        status: 400,
        data: { message: 'The attached file is no longer on this device. Attach it again.' },
      };
    if (!blob.uploadedKey) {
      const response = await transport({
        method: 'POST',
        url: `/upload-image?type=${blob.uploadType}`,
        file: { field: 'image', blob: blob.blob, filename: blob.name },
        idempotencyKey: `upload-${blob.id}`,
      });
      const key = (response.data as { files?: { key?: unknown }[] } | null)?.files?.[0]?.key;
      if (classify(response.status) !== 'accepted') return response;
      // An answer without a key is the server's fault: try again later, never treat it as sent.
      if (typeof key !== 'string')
        return { status: 502, data: { message: 'The server did not say where it stored the file.' } };
      blob.uploadedKey = key;
      await db.blobs.update(blob.id, { uploadedKey: key });
    }
    keys.set(blobId, blob.uploadedKey);
  }
  return { keys };
}

/** Keeps the change queued for another try later; `answered`: the server answered (5xx, 429), not the network. */
async function scheduleRetry(
  db: KincareDb,
  entry: OutboxEntry,
  now: number,
  answered = false,
): Promise<void> {
  const attempts = entry.attempts + 1;
  const serverFailures = (entry.serverFailures ?? 0) + (answered ? 1 : 0);
  await db.outbox.update(entry.seq as number, {
    attempts,
    serverFailures,
    nextAttemptAt: now + backoffMs(attempts),
  });
}

/** The server took the change: drop the entry and rebase what is still queued on the server's answer. */
async function acknowledge(db: KincareDb, entry: OutboxEntry, body: unknown): Promise<void> {
  const data = (body as { data?: Record<string, unknown> } | null)?.data;
  const version = typeof data?.version === 'number' ? data.version : 0;
  const deleted = entry.op === 'delete' || data?.deleted === true;
  const view = db.viewOf(entry.resource);
  await db.transaction('rw', [view, db.serverRows, db.outbox, db.blobs], async () => {
    await db.outbox.delete(entry.seq as number);
    await db.blobs.bulkDelete(entry.blobIds ?? []); // the server has them now
    await applyServerState(db, entry.resource, entry.entityId, {
      version,
      data: deleted || !data ? null : (data as SyncedRow),
    });
  });
}

/** The server refused the change: keep it as failed (for the person to see and discard) and roll it back. */
async function reject(db: KincareDb, entry: OutboxEntry, message: string): Promise<void> {
  const view = db.viewOf(entry.resource);
  await db.transaction('rw', [view, db.serverRows, db.outbox], async () => {
    await db.outbox.update(entry.seq as number, { status: 'failed', error: message });
    await recompute(db, entry.resource, entry.entityId);
  });
}
