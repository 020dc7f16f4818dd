import type { KincareDb, OutboxOp } from '../../src/local/db';
import { BLOB_REFERENCE_PREFIX } from '../../src/domain/sync';

// What the chaos run expects, kept apart from what the engine believes. Every change a device queued is
// read from its outbox right after the enqueue (op, record, fields and values, changed_at, idempotency
// key), and its fate is read from the outbox after each of that device's syncs: gone without a refusal is
// acknowledged, `failed` is refused. At the end the server must hold, for every field of every record, the
// last acknowledged write of that field by changed_at (a delete wins over everything; a refused write does
// not count), every acknowledged create that no acknowledged delete removed, nothing else; every refusal
// must be one the server had a right to make; and every replica must equal the server for what its account
// may see.

export const TRACKED_FIELDS = [
  'appointment_title',
  'appointment_date',
  'location',
  'notes',
  'status',
  'doctor_id',
  'attachment_key',
  'caregiver_id',
] as const;

export type Permission = 'ReadAppointment' | 'AddAppointment' | 'EditAppointment' | 'DeleteAppointment';
const NEEDED: Record<OutboxOp, Permission> = {
  create: 'AddAppointment',
  update: 'EditAppointment',
  delete: 'DeleteAppointment',
};

export type Mutation = {
  device: string;
  /** The caregiver's account acts under granted permissions; a patient may always act on their own records. */
  byCaregiver: boolean;
  seq: number;
  idempotencyKey: string;
  op: OutboxOp;
  id: string;
  fields: Record<string, unknown>;
  changedAt: number;
  step: number;
  outcome: 'pending' | 'acknowledged' | 'refused';
  /** The step after which the refusal was first seen, and the server's reason. */
  refusedAt?: number;
  refusal?: string;
};

export type ServerRecord = {
  id: string;
  patientId: string;
  version: number;
  deleted: boolean;
  data: Record<string, unknown>;
  /** When each field was last written (the server's merge reads it). */
  fieldChangedAt?: Record<string, number>;
};

export type ReplicaRow = Record<string, unknown> & { id: string; version: number };

export class Oracle {
  readonly mutations: Mutation[] = [];
  /** Every record id a device created, in the order of creation (choices of the run use this order). */
  readonly creationOrder = new Map<string, number>();
  /** File keys the server answered for each blob (from the answers of POST /api/upload-image). */
  readonly uploadedKeys = new Map<string, string>();
  /**
   * The caregiver's permissions over the run: each entry holds from its step until the next one (a change
   * made in a kill window counts from just after that step's syncs: step + 0.5).
   */
  readonly permissionTimeline: { step: number; permissions: readonly Permission[] }[] = [];
  private readonly unresolved = new Map<string, Mutation[]>();

  constructor(private readonly caregiverId: string | null) {}

  /** The newest outbox entry of a device, so that `queued` can tell what an action added. */
  static async lastSeq(db: KincareDb): Promise<number> {
    return (await db.outbox.orderBy('seq').last())?.seq ?? 0;
  }

  /** Reads the changes an action queued on this device (after `since`) from its outbox, as they will be sent. */
  async queued(
    device: string,
    db: KincareDb,
    options: { byCaregiver: boolean; step: number; since: number },
  ): Promise<Mutation[]> {
    const entries = await db.outbox.where('seq').above(options.since).toArray();
    const known = this.unresolved.get(device) ?? [];
    const added: Mutation[] = [];
    for (const entry of entries) {
      if (entry.seq === undefined) continue;
      const { updated_at: _u, created_at: _c, id: _id, patient_id: _p, ...fields } = entry.payload;
      const mutation: Mutation = {
        device,
        byCaregiver: options.byCaregiver,
        seq: entry.seq,
        idempotencyKey: entry.idempotencyKey,
        op: entry.op,
        id: entry.entityId,
        // The server records who booked an appointment from the token, not from the body.
        fields:
          entry.op === 'create'
            ? { ...fields, caregiver_id: options.byCaregiver ? this.caregiverId : null }
            : fields,
        changedAt: entry.changedAt,
        step: options.step,
        outcome: 'pending',
      };
      if (entry.op === 'create') this.creationOrder.set(entry.entityId, this.creationOrder.size);
      this.mutations.push(mutation);
      known.push(mutation);
      added.push(mutation);
    }
    this.unresolved.set(device, known);
    return added;
  }

  /** After a sync of this device: which of its queued changes were acknowledged or refused meanwhile. */
  async settle(device: string, db: KincareDb, step: number): Promise<void> {
    const pending = this.unresolved.get(device) ?? [];
    const entries = await db.outbox.bulkGet(pending.map((mutation) => mutation.seq));
    const still: Mutation[] = [];
    pending.forEach((mutation, index) => {
      const entry = entries[index];
      if (!entry) mutation.outcome = 'acknowledged';
      else if (entry.status === 'failed') {
        mutation.outcome = 'refused';
        mutation.refusedAt ??= step;
        mutation.refusal ??= entry.error ?? '';
        still.push(mutation); // a failed change could still be retried or discarded later
      } else {
        mutation.outcome = 'pending';
        still.push(mutation);
      }
    });
    this.unresolved.set(device, still);
  }

  grant(step: number, permissions: readonly Permission[]): void {
    this.permissionTimeline.push({ step, permissions });
  }

  /** What the caregiver may do at the end of the run. */
  finalPermissions(): readonly Permission[] {
    return this.permissionTimeline.at(-1)?.permissions ?? [];
  }

  private lacked(permission: Permission, from: number, to: number): boolean {
    return this.permissionTimeline.some((period, index) => {
      const until = this.permissionTimeline[index + 1]?.step ?? Number.POSITIVE_INFINITY;
      return period.step <= to && until > from && !period.permissions.includes(permission);
    });
  }

  /** The value the server must hold: blob references become the key the upload answered. */
  private expectedValue(value: unknown): unknown {
    if (typeof value === 'string' && value.startsWith(BLOB_REFERENCE_PREFIX))
      return this.uploadedKeys.get(value.slice(BLOB_REFERENCE_PREFIX.length)) ?? `${value} (never uploaded)`;
    return value;
  }

  /** Every difference between the run's acknowledged history and the server's records. */
  checkServer(server: ServerRecord[]): string[] {
    const problems: string[] = [];
    const onServer = new Map(server.map((row) => [row.id, row]));
    const byRecord = new Map<string, Mutation[]>();
    for (const mutation of this.mutations) {
      const list = byRecord.get(mutation.id) ?? [];
      list.push(mutation);
      byRecord.set(mutation.id, list);
    }
    for (const [id, history] of byRecord) {
      const row = onServer.get(id);
      const live = row && !row.deleted ? row : undefined;
      const create = history.find((mutation) => mutation.op === 'create');
      const acknowledged = history.filter((mutation) => mutation.outcome === 'acknowledged');
      const deleted = acknowledged.some((mutation) => mutation.op === 'delete');
      for (const mutation of history) {
        if (mutation.outcome === 'pending')
          problems.push(`never sent: ${describe(mutation)} is still queued on ${mutation.device}`);
        if (mutation.outcome === 'refused' && !this.mayRefuse(mutation, history))
          problems.push(
            `refused without a reason the server may have: ${describe(mutation)}: ${mutation.refusal}`,
          );
      }
      if (!create || create.outcome !== 'acknowledged') {
        if (live)
          problems.push(`on the server although its create was ${create?.outcome ?? 'never made'}: ${id}`);
        continue;
      }
      if (deleted) {
        if (live) problems.push(`deleted (acknowledged) but still on the server: ${id}`);
        continue;
      }
      if (!live) {
        problems.push(
          `lost: the acknowledged create of ${id} is not on the server (${row ? 'a tombstone' : 'no row'})`,
        );
        continue;
      }
      for (const field of TRACKED_FIELDS) {
        let last: Mutation | undefined;
        for (const mutation of acknowledged) {
          if (!(field in mutation.fields)) continue;
          if (!last || mutation.changedAt > last.changedAt) last = mutation;
        }
        if (!last) continue;
        const expected = this.expectedValue(last.fields[field]);
        const actual = live.data[field] ?? null;
        if (JSON.stringify(expected ?? null) !== JSON.stringify(actual))
          problems.push(
            `wrong value: ${id}.${field} is ${JSON.stringify(actual)} on the server; the last acknowledged write is ${JSON.stringify(expected)} (${describe(last)})`,
          );
      }
    }
    for (const row of server) {
      if (!row.deleted && !byRecord.has(row.id))
        problems.push(`on the server but never created by a device: ${row.id}`);
    }
    return problems;
  }

  /**
   * A refusal is right when the record was deleted (an acknowledged delete of anyone's, the delete wins),
   * its create was refused, or the caregiver lacked the permission at some time while the change waited.
   */
  private mayRefuse(mutation: Mutation, history: Mutation[]): boolean {
    const refusedAt = mutation.refusedAt ?? Number.POSITIVE_INFINITY;
    if (mutation.op !== 'create') {
      // The delete (or the create's refusal) must have come first: queued no later than this refusal was seen.
      const deletedBefore = history.some(
        (other) => other.op === 'delete' && other.outcome === 'acknowledged' && other.step <= refusedAt,
      );
      const neverCreated = history.some(
        (other) =>
          other.op === 'create' &&
          other.outcome === 'refused' &&
          (other.refusedAt ?? Number.POSITIVE_INFINITY) <= refusedAt,
      );
      if (deletedBefore || neverCreated) return true;
    }
    return mutation.byCaregiver && this.lacked(NEEDED[mutation.op], mutation.step, refusedAt);
  }

  /** A replica must hold exactly the live server records its account may read, as the server has them. */
  checkReplica(device: string, rows: ReplicaRow[], visible: ServerRecord[]): string[] {
    const problems: string[] = [];
    const expected = new Map(visible.filter((row) => !row.deleted).map((row) => [row.id, row]));
    const local = new Map(rows.map((row) => [row.id, row]));
    for (const [id, row] of local) {
      const server = expected.get(id);
      if (!server) {
        problems.push(`${device} shows ${id}, which the server does not show it`);
        continue;
      }
      const { created_at: _c, updated_at: _u, ...mine } = row;
      const theirs = { ...server.data, id: server.id, patient_id: server.patientId, version: server.version };
      if (canonical(mine) !== canonical(theirs))
        problems.push(`${device} differs on ${id}: ${canonical(mine)} vs the server's ${canonical(theirs)}`);
    }
    for (const id of expected.keys())
      if (!local.has(id)) problems.push(`${device} is missing ${id}, which the server shows it`);
    return problems;
  }

  /** Everything the run did to one record, oldest first: to read a failing seed. */
  historyOf(id: string): string[] {
    return this.mutations
      .filter((mutation) => mutation.id === id)
      .map(
        (mutation) =>
          `${describe(mutation)} -> ${mutation.outcome}${mutation.refusal ? ` (${mutation.refusal})` : ''} ${JSON.stringify(mutation.fields)}`,
      );
  }

  counts() {
    const of = (outcome: Mutation['outcome']) => this.mutations.filter((m) => m.outcome === outcome).length;
    return { queued: this.mutations.length, acknowledged: of('acknowledged'), refused: of('refused') };
  }
}

function describe(mutation: Mutation): string {
  const fields = Object.keys(mutation.fields).join(',');
  return `${mutation.op} of ${mutation.id} by ${mutation.device} at step ${mutation.step} (seq ${mutation.seq}, key ${mutation.idempotencyKey}${fields ? `, ${fields}` : ''})`;
}

function canonical(row: Record<string, unknown>): string {
  const { created_at: _c, updated_at: _u, ...rest } = row;
  return JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((key) => [key, rest[key] ?? null]),
  );
}
