import { and, eq, isNotNull, lt, max, sql } from 'drizzle-orm';
import { isNameBasedId, NAME_BASED_ID_RESOURCES, RECORD_ID_MESSAGES } from '../../domain/record-ids';
import type { SyncedResource } from '../../domain/sync';
import { TEXT_MESSAGES } from '../../domain/text';
import type { Database } from '../db/client';
import { records, syncMeta } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { Transaction } from './idempotency';
import type { Queryable } from './transaction';

// The one implementation of synced records, for every resource: client-minted ids, a version from one
// sequence on every change, tombstones for deletes, and the per-field last-writer-wins merge when an
// edit was made on an older version than the server holds.
//
// A record is named by its resource and its id everywhere: the table's key, every statement here, and a
// device's replica (one table per resource, keyed by id; a push or a REST call names a record by resource
// and id, never by patient). Ids are deliberately not scoped by patient too. Scoped, a create with the id
// of another account's record would be answered as a new id is (201, where it is 409 now); but a device
// holds the records of every patient its person may read (a caregiver's, several patients'), so two
// patients' records of one resource and id would be one row there, and an edit or a delete of that id
// would reach whichever the server picked. Anyone with Add on one patient who once saw an id of another's
// (a former caregiver) could then hide that record on a shared caregiver's device behind one of their
// own, and a dose marked on their prescription would show as taken on the other's (a dose mark's id is
// made from its prescription's). So the 409 stays: it tells only someone who already holds a random id
// that it is taken, and the same whoever's record it is, live or deleted. Ids anyone can work out
// (record-ids.ts) are refused for any other record before anything is looked up (createRecord), and the
// server makes them itself for their own record: no answer depends on whether such a record exists.
//
// Versions must become visible in the order they were handed out, or a pull could step past a version
// whose transaction had not committed yet and miss it for good. Every writer therefore takes one
// transaction-scoped advisory lock before it draws a version, which orders commits by version.

const VERSION_LOCK = 7_406_511; // any constant shared by all writers of `records`

export type RecordRow = typeof records.$inferSelect;
export type Fields = Record<string, unknown>;

/**
 * Takes the version lock until the transaction ends. A batch of changes takes it once, before its first
 * item, and tells each write so (`versionLockHeld`), which saves a round trip per write.
 */
export async function takeVersionLock(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${VERSION_LOCK})`);
}

/** The next version, drawn inside the statement that writes it, always after takeVersionLock. */
const nextVersion = sql`nextval('change_version_seq')`;

export type WriteOptions = {
  /**
   * This transaction already holds the version lock (see takeVersionLock), and so any record it read
   * since is current: no other writer of `records` can commit meanwhile.
   */
  versionLockHeld?: boolean;
  /**
   * Creates are handed to this batch, which writes them together (see CreateBatch) and takes the version
   * lock in that same statement when the transaction does not hold it yet.
   */
  createBatch?: Pick<CreateBatch, 'add'> | undefined;
};

/** What the API shows of a record: reads that answer with records select only these columns. */
export const wireColumns = {
  id: records.id,
  patientId: records.patientId,
  version: records.version,
  data: records.data,
  createdAt: records.createdAt,
  updatedAt: records.updatedAt,
};
export type WireRow = Pick<RecordRow, keyof typeof wireColumns>;

/** The record as the API shows it: its fields plus id, patient_id, version and times. */
export function toWire(row: WireRow): Fields {
  return {
    ...row.data,
    id: row.id,
    patient_id: row.patientId,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Server time wins over a device clock that runs ahead. */
function editTime(changedAt: number | undefined): number {
  const now = Date.now();
  return changedAt === undefined ? now : Math.min(changedAt, now);
}

const placeholder = (name: string) => sql.placeholder(name);

/** The statements run once per record, prepared (see txStatements). */
function prepareStatements(db: Queryable) {
  return {
    findRecord: db
      .select()
      .from(records)
      .where(and(eq(records.id, placeholder('id')), eq(records.resource, placeholder('resource'))))
      .limit(1)
      .prepare('records_find'),
    insertRecord: db
      .insert(records)
      .values({
        id: placeholder('id'),
        resource: placeholder('resource'),
        patientId: placeholder('patientId'),
        version: nextVersion,
        data: placeholder('data'),
        fieldChangedAt: placeholder('fieldChangedAt'),
        createdBy: placeholder('createdBy'),
      })
      .onConflictDoNothing()
      .returning()
      .prepare('records_insert'),
    updateRecord: db
      .update(records)
      .set({
        // drizzle's update takes no placeholders for values: these are sent as JSON and ISO text
        version: nextVersion,
        data: sql`${placeholder('data')}::jsonb`,
        fieldChangedAt: sql`${placeholder('fieldChangedAt')}::jsonb`,
        updatedAt: sql`${placeholder('updatedAt')}::timestamptz`,
      })
      .where(and(eq(records.id, placeholder('id')), eq(records.resource, placeholder('resource'))))
      .returning()
      .prepare('records_update'),
  };
}

const statementsOf = new WeakMap<Queryable, ReturnType<typeof prepareStatements>>();

/**
 * The prepared statements of this transaction (or database). A batch of changes writes hundreds of
 * records in one transaction: building each statement once, and letting Postgres parse it once per
 * connection (it is named), makes a create about four times cheaper than building and sending it afresh.
 */
function txStatements(db: Queryable): ReturnType<typeof prepareStatements> {
  let statements = statementsOf.get(db);
  if (!statements) {
    statements = prepareStatements(db);
    statementsOf.set(db, statements);
  }
  return statements;
}

export async function findRecord(
  db: Queryable,
  resource: SyncedResource,
  id: string,
): Promise<RecordRow | undefined> {
  const [row] = await txStatements(db).findRecord.execute({ id, resource });
  return row;
}

/** Text that jsonb cannot hold: a NUL character, and half of a UTF-16 surrogate pair (not text at all). */
const holdsNul = (text: string) => text.includes('\u0000');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const holdsLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
const unstorable = (text: string) => holdsNul(text) || holdsLoneSurrogate(text);

/** Whether any text of `value` (its strings, and the names of its objects' fields) passes `test`. */
function holdsText(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => holdsText(item, test));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => test(key) || holdsText(inner, test));
}

/**
 * 400 for a field whose text the database cannot store. The domain schemas refuse such text in the fields
 * people type; this is for everything else a record keeps, whatever its resource: text inside other text
 * (report_ocr is JSON text, whose strings no schema reads as text), a field's name. Without it, Postgres
 * refuses the statement, which answered 500 and, in a pushed batch, held back the items after it.
 */
function refuseUnstorableText(fields: Fields): void {
  if (!holdsText(fields, unstorable)) return; // one walk for the usual record, which holds neither
  for (const [field, value] of Object.entries(fields)) {
    const holds = (test: (text: string) => boolean) => test(field) || holdsText(value, test);
    const message = holds(holdsNul)
      ? TEXT_MESSAGES.controlCharacters
      : holds(holdsLoneSurrogate)
        ? TEXT_MESSAGES.brokenCharacters
        : null;
    if (message) throw new HttpError(400, message, undefined, { errors: [{ msg: message, path: field }] });
  }
}

export type NewRecord = {
  resource: SyncedResource;
  id: string;
  patientId: string;
  createdBy: string;
  fields: Fields;
  changedAt?: number | undefined;
  /** The answer when a record of this resource has the id already. */
  existsMessage: string;
};

/** The row a create inserts, its version drawn from the sequence inside the statement. */
function insertedValues(input: NewRecord) {
  const at = editTime(input.changedAt);
  return {
    id: input.id,
    resource: input.resource,
    patientId: input.patientId,
    data: input.fields,
    fieldChangedAt: Object.fromEntries(Object.keys(input.fields).map((field) => [field, at])),
    createdBy: input.createdBy,
  };
}

/** What names a record: its resource and its id (in lower case, as Postgres gives a uuid back). */
const keyOf = (record: { resource: string; id: string }) => `${record.resource}:${record.id.toLowerCase()}`;

/**
 * Creates of a pushed batch, written with one multi-row insert instead of a round trip each. Every round
 * trip of a batch is made holding the version lock, which every writer waits for: a batch of 20 creates
 * held it for 20 inserts. A create handed to `add` waits until `flush` (the batch calls it once each of
 * its items has handed over its create or ended), then gets its row, or the 409 a lone insert would get:
 * its id was taken before, or by an earlier create of the same flush. Rows get their versions in the
 * order they were added.
 *
 * When the transaction does not hold the version lock yet, the insert takes it itself, before it draws a
 * version (`lockHeld` false): the items' checks then ran before the lock rather than under it, and the
 * lock is held from the insert to the commit only, as for a lone REST create.
 */
export class CreateBatch {
  private pending: {
    input: NewRecord;
    resolve: (row: RecordRow) => void;
    reject: (error: unknown) => void;
  }[] = [];

  constructor(
    private readonly tx: Transaction,
    private lockHeld: boolean,
  ) {}

  /** Whether the transaction holds the version lock (taken before, or by a flush of this batch). */
  get holdsLock(): boolean {
    return this.lockHeld;
  }

  add(input: NewRecord): Promise<RecordRow> {
    return new Promise((resolve, reject) => this.pending.push({ input, resolve, reject }));
  }

  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    const seen = new Set<string>();
    const first = pending.filter(({ input, reject }) => {
      if (!seen.has(keyOf(input))) return seen.add(keyOf(input));
      reject(new HttpError(409, input.existsMessage)); // the id is taken by an earlier create here
      return false;
    });
    if (first.length === 0) return;
    try {
      // The rows as one JSON parameter, not ten parameters each: building a statement of 200 parameters
      // cost more than the insert itself. Versions are drawn in the order of the array.
      const rows = JSON.stringify(first.map(({ input }) => insertedValues(input)));
      // Without the lock yet: a materialized CTE takes it, and the rows are joined to its one row, so no
      // row (and no nextval of it) exists before the lock is granted (tests/server/version-lock.test.ts).
      const lockFirst = this.lockHeld
        ? sql``
        : sql`with version_lock as materialized (select pg_advisory_xact_lock(${VERSION_LOCK}) as granted) `;
      const lockRow = this.lockHeld ? sql`` : sql`version_lock, `;
      const inserted = await this.tx
        .insert(records)
        .select(
          // Every column of the table in its order, as drizzle names them all (deleted_at, times last).
          sql`${lockFirst}select created.id, created.resource, created."patientId", ${nextVersion}, created.data,
              created."fieldChangedAt", created."createdBy", null, now(), now()
            from ${lockRow}jsonb_to_recordset(${rows}::jsonb) as created(id uuid, resource text, "patientId" uuid,
              data jsonb, "fieldChangedAt" jsonb, "createdBy" uuid)`,
        )
        .onConflictDoNothing()
        .returning();
      this.lockHeld = true;
      const byKey = new Map(inserted.map((row) => [keyOf(row), row]));
      for (const { input, resolve, reject } of first) {
        const row = byKey.get(keyOf(input));
        if (row) resolve(row);
        else reject(new HttpError(409, input.existsMessage));
      }
    } catch (error) {
      for (const { reject } of first) reject(error);
    }
  }
}

/**
 * Creates a record, or answers 409 when its resource has a record of that id (see the top of this file).
 * An id made from a name (record-ids.ts) is refused for every resource but the one it names, whose
 * handler makes the id itself: refused before the insert, so the answer is the same whether or not the
 * record it names exists.
 */
export async function createRecord(
  tx: Transaction,
  input: NewRecord,
  options: WriteOptions = {},
): Promise<RecordRow> {
  if (!NAME_BASED_ID_RESOURCES.has(input.resource) && isNameBasedId(input.id)) {
    const message = RECORD_ID_MESSAGES.nameBased;
    throw new HttpError(400, message, undefined, { errors: [{ msg: message, path: 'id' }] });
  }
  refuseUnstorableText(input.fields);
  if (options.createBatch) return options.createBatch.add(input);
  if (!options.versionLockHeld) await takeVersionLock(tx);
  const inserted = await txStatements(tx).insertRecord.execute(insertedValues(input));
  const row = inserted[0];
  if (!row) throw new HttpError(409, input.existsMessage);
  return row;
}

/**
 * Applies the fields an edit changed. On a stale base (someone changed the record since the device saw
 * it), each field keeps whichever edit was made last; the answer says a merge happened. An edit never
 * brings a deleted record back: the delete wins.
 */
export async function updateRecord(
  tx: Transaction,
  current: RecordRow,
  input: {
    patch: Fields;
    baseVersion?: number | undefined;
    changedAt?: number | undefined;
    deletedMessage: string;
  },
  options: WriteOptions = {},
): Promise<{ row: RecordRow; merged: boolean }> {
  if (current.deletedAt) throw new HttpError(409, input.deletedMessage);
  refuseUnstorableText(input.patch);
  let fresh: RecordRow | undefined = current;
  if (!options.versionLockHeld) {
    // `current` was read before the lock: a writer that drew an earlier version may have committed since.
    await takeVersionLock(tx);
    [fresh] = await tx
      .select()
      .from(records)
      .where(and(eq(records.id, current.id), eq(records.resource, current.resource)));
  }
  if (!fresh || fresh.deletedAt) throw new HttpError(409, input.deletedMessage);
  const stale = input.baseVersion !== undefined && input.baseVersion < fresh.version;
  const at = editTime(input.changedAt);
  const data = { ...fresh.data };
  const times = { ...fresh.fieldChangedAt };
  for (const [field, value] of Object.entries(input.patch)) {
    if (value === undefined) continue;
    if (stale && (times[field] ?? 0) > at) continue; // a later edit of this field already won
    data[field] = value;
    times[field] = at;
  }
  const [row] = await txStatements(tx).updateRecord.execute({
    id: current.id,
    resource: current.resource,
    data: JSON.stringify(data),
    fieldChangedAt: JSON.stringify(times),
    updatedAt: new Date().toISOString(),
  });
  if (!row) throw new HttpError(409, input.deletedMessage);
  return { row, merged: stale };
}

/** Deletes as a tombstone: the fields go, the id and a new version stay so every device hears of it. */
export async function deleteRecord(
  tx: Transaction,
  current: RecordRow,
  options: WriteOptions = {},
): Promise<RecordRow> {
  if (current.deletedAt) return current; // a delete wins, and deleting twice is still deleted
  if (!options.versionLockHeld) await takeVersionLock(tx);
  const [row] = await tx
    .update(records)
    .set({
      version: nextVersion,
      data: {},
      fieldChangedAt: {},
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(records.id, current.id), eq(records.resource, current.resource)))
    .returning();
  if (!row) throw new HttpError(404, 'Not found');
  return row;
}

/** Where the tombstone horizon (the newest version ever purged) is kept; a pull older than it starts over. */
export const HORIZON_KEY = 'tombstone_horizon';

/** Removes tombstones older than `before`; a cursor older than the newest purged version must reset. */
export async function purgeTombstones(db: Database, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const condition = and(isNotNull(records.deletedAt), lt(records.deletedAt, before));
    const [newest] = await tx
      .select({ version: max(records.version) })
      .from(records)
      .where(condition);
    if (!newest?.version) return 0;
    const purged = await tx.delete(records).where(condition).returning({ id: records.id });
    await tx
      .insert(syncMeta)
      .values({ key: HORIZON_KEY, value: newest.version })
      .onConflictDoUpdate({
        target: syncMeta.key,
        set: { value: sql`greatest(${syncMeta.value}, ${newest.version})` },
      });
    return purged.length;
  });
}
