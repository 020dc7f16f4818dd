import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import type { ErrorBody } from '../../domain/errors';
import { isPermission, type Permission } from '../../domain/permissions';
import { HttpError, TransientRefusal } from '../plugins/errors';
import { notAllowed } from './access';

// Idempotent mutations: the Idempotency-Key and the answer are stored in the same transaction as the
// change, so a repeated key (a retry after a lost answer, a duplicated delivery) gets the stored answer
// and nothing is applied twice. A concurrent repeat waits on the key's row until the first one commits.
// A refusal (a 4xx: not allowed, not found, a conflict) is kept too, with nothing of its work: the device
// takes it as final, so a late copy of the same request must not be applied after the person was told it
// was refused (say, once the caregiver has been given the permission meanwhile). An unexpected failure
// (5xx) keeps nothing, not even the claim: the device sends the change again.
//
// A success is kept with the patient and the permission the call needed (`access`): a stored answer is
// only as good as the access it was given under, so a replay checks that the caller still has it and
// otherwise gets the refusal a fresh call would get (`ReplayCheck`, by the caller, who knows that refusal).

/** The patient and the permission a stored success was about. */
export type AnswerAccess = { patientId: string; permission: Permission };
export type StoredAnswer = { statusCode: number; body: unknown; access?: AnswerAccess | undefined };
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The answer a replay gives now: the stored one when the caller still has its access (perhaps with less
 * in it), else the refusal a fresh call gets. Called only for a stored answer with `access`.
 */
export type ReplayCheck = (
  tx: Transaction,
  stored: StoredAnswer & { access: AnswerAccess },
) => Promise<StoredAnswer | HttpError>;

/** Without a check for it, a stored answer about a patient is not given again (never a leak by omission). */
const refuseReplay: ReplayCheck = async () => notAllowed();

/** A stored answer, re-checked against the caller's access now when it was about a patient. */
export async function answerOnReplay(
  tx: Transaction,
  stored: StoredAnswer,
  check: ReplayCheck = refuseReplay,
): Promise<StoredAnswer | HttpError> {
  return stored.access ? check(tx, { ...stored, access: stored.access }) : stored;
}

/** The answer the error handler (plugins/errors.ts) gives for an HttpError. */
export function answerOfError(error: HttpError): StoredAnswer {
  const body: ErrorBody = { message: error.message, ...(error.code ? { code: error.code } : {}) };
  return { statusCode: error.statusCode, body: { ...body, ...error.extra } };
}

/** A refusal kept as the key's answer; a TransientRefusal (a quota that frees up) is judged again on retry. */
const isRefusal = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.statusCode < 500 && !(error instanceof TransientRefusal);

export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url.split('?')[0]} ${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

const keyReused = () => new HttpError(409, 'This Idempotency-Key was already used for a different request.');
const keyBusy = () => new HttpError(503, 'This request is already being processed. Try again in a moment.');

type Answered = StoredAnswer & { fingerprint: string };
type StoredRow = typeof idempotencyKeys.$inferSelect;

/** A stored row as an answer (one about a patient with no permission we know is not given again). */
function answeredOf(row: StoredRow): Answered {
  const { statusCode, body, fingerprint, patientId, permission } = row;
  if (!patientId) return { statusCode, body, fingerprint };
  if (!isPermission(permission)) return { ...answerOfError(notAllowed()), fingerprint };
  return { statusCode, body, fingerprint, access: { patientId, permission } };
}

/** The answer to a key that was answered before: the same request replays it, another one is refused. */
function replayOf(stored: Answered, fingerprint: string): StoredAnswer | HttpError {
  if (stored.fingerprint !== fingerprint) return keyReused();
  return { statusCode: stored.statusCode, body: stored.body, access: stored.access };
}

/** The columns that keep an answer and the access it was about. */
const storedColumns = (answer: StoredAnswer) => ({
  statusCode: answer.statusCode,
  body: answer.body,
  patientId: answer.access?.patientId ?? null,
  permission: answer.access?.permission ?? null,
});

export async function runIdempotent(
  db: Database,
  request: { userId: string; key: string | undefined; fingerprint: string; check?: ReplayCheck | undefined },
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  const { key } = request;
  return db.transaction(async (tx) => {
    if (!key) return { ...(await work(tx)), replayed: false };
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId: request.userId, key, fingerprint: request.fingerprint, statusCode: 0, body: {} }) // answer filled in below
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
      if (!stored) throw keyBusy();
      const replay = replayOf(answeredOf(stored), request.fingerprint);
      if (replay instanceof HttpError) throw replay;
      const answer = await answerOnReplay(tx, replay, request.check);
      // Refused for lost access: the answer of a fresh call, not a replay.
      if (answer instanceof HttpError) return { ...answerOfError(answer), replayed: false };
      return { ...answer, replayed: true };
    }
    let answer: StoredAnswer;
    try {
      // In a savepoint, so a refusal undoes its work but keeps the claim, to store the refusal on it.
      answer = await tx.transaction((savepoint) => work(savepoint));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      answer = answerOfError(error);
    }
    await tx
      .update(idempotencyKeys)
      .set(storedColumns(answer))
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
    return { ...answer, replayed: false };
  });
}

/** What to do with one item of a batch, by its key. */
export type KeyDecision =
  { kind: 'replay'; answer: StoredAnswer } | { kind: 'run' } | { kind: 'refuse'; error: HttpError };

/**
 * The same mechanism for a batch of calls in one transaction (POST /api/sync/push), with a round trip per
 * batch instead of two per call: every key is claimed up front (in sorted order, and before the batch
 * takes the version lock, as a single call does, so two batches or a batch and a single call never wait
 * on each other in a circle), the items then run in order, and `settle` stores the answers of the items
 * that succeeded or were refused and lets go of every other claim. A key repeated inside the batch behaves
 * as the same call sent again: its first answer is replayed.
 */
export class IdempotencyLedger {
  /** Keys this batch holds and has no answer for yet. */
  private readonly open = new Set<string>();
  /** Keys with an answer: stored before the batch, or given by an item of it. */
  private readonly answered = new Map<string, Answered>();
  /** The answers given by items of this batch, to store when it settles. */
  private readonly toStore = new Map<string, Answered>();

  private constructor(
    private readonly tx: Transaction,
    private readonly userId: string,
  ) {}

  static async claim(
    tx: Transaction,
    userId: string,
    calls: readonly { key: string; fingerprint: string }[],
  ): Promise<IdempotencyLedger> {
    const ledger = new IdempotencyLedger(tx, userId);
    const firstCall = new Map<string, string>();
    for (const call of calls) if (!firstCall.has(call.key)) firstCall.set(call.key, call.fingerprint);
    if (firstCall.size === 0) return ledger;
    const keys = [...firstCall.keys()].sort();
    // The keys as one JSON parameter (in their sorted order), not five parameters each: cheaper to build.
    const claims = JSON.stringify(keys.map((key) => ({ key, fingerprint: firstCall.get(key) ?? '' })));
    const claimed = await tx
      .insert(idempotencyKeys)
      .select(
        sql`select ${userId}::uuid, claim.key, claim.fingerprint, 0, '{}'::jsonb, null, null, now()
          from jsonb_to_recordset(${claims}::jsonb) as claim(key text, fingerprint text)`,
      )
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    for (const { key } of claimed) ledger.open.add(key);
    const taken = keys.filter((key) => !ledger.open.has(key));
    if (taken.length > 0) {
      const stored = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), inArray(idempotencyKeys.key, taken)));
      for (const row of stored) ledger.answered.set(row.key, answeredOf(row));
    }
    return ledger;
  }

  /** The answers stored before this batch, to the keys it holds that were answered already. */
  get answeredBefore(): StoredAnswer[] {
    return [...this.answered.entries()].flatMap(([key, answer]) => (this.toStore.has(key) ? [] : [answer]));
  }

  /** Whether any item may run (and write): false when every key was already answered. */
  get mayWrite(): boolean {
    return this.open.size > 0;
  }

  /**
   * Replay, refuse or run the call with this key (a refused call leaves its key open: it may run again).
   * A replay's answer still has to pass `answerOnReplay`.
   */
  decide(key: string, fingerprint: string): KeyDecision {
    const done = this.answered.get(key);
    if (done) {
      const replay = replayOf(done, fingerprint);
      return replay instanceof HttpError
        ? { kind: 'refuse', error: replay }
        : { kind: 'replay', answer: replay };
    }
    return this.open.has(key) ? { kind: 'run' } : { kind: 'refuse', error: keyBusy() };
  }

  /** The item under `key` succeeded or was refused: its answer is stored with the batch. */
  record(key: string, fingerprint: string, answer: StoredAnswer): void {
    this.open.delete(key);
    this.answered.set(key, { ...answer, fingerprint });
    this.toStore.set(key, { ...answer, fingerprint });
  }

  /** Stores the answers and lets go of the claims of items that were refused or not tried. */
  async settle(): Promise<void> {
    const { tx, userId } = this;
    if (this.toStore.size > 0) {
      // The answers as one JSON parameter, not six parameters each: this runs under the version lock, and
      // building a statement of 120 parameters cost more than the update itself (as for CreateBatch).
      const rows = JSON.stringify(
        [...this.toStore].map(([key, answer]) => {
          const { statusCode, body, patientId, permission } = storedColumns(answer);
          return {
            key,
            fingerprint: answer.fingerprint,
            status_code: statusCode,
            body,
            patient_id: patientId,
            permission,
          };
        }),
      );
      await tx.execute(sql`
        update ${idempotencyKeys} as stored
        set fingerprint = answer.fingerprint, status_code = answer.status_code, body = answer.body,
          patient_id = answer.patient_id, permission = answer.permission
        from (
          select * from jsonb_to_recordset(${rows}::jsonb)
            as item(key text, fingerprint text, status_code integer, body jsonb, patient_id uuid, permission text)
          -- the planner then counts on this many rows (not its default 100) and looks each key up by index
          limit ${this.toStore.size}
        ) as answer
        where stored.user_id = ${userId} and stored.key = answer.key`);
    }
    if (this.open.size > 0) {
      await tx
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), inArray(idempotencyKeys.key, [...this.open])));
    }
  }
}

/** Forgets answers older than `before` (kept as long as tombstones, so a long-offline replay still matches). */
export async function purgeIdempotencyKeys(db: Database, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
}
