// Bundled into the benchmark page (see pull-chromium.ts). Each function pulls the same rows from a
// server in its own way and answers how long it took, so the Node side can compare them:
// - engine: the real engine's `pull()` into a fresh replica;
// - plainLoop: the fair baseline: plain `fetch` page by page (`cursor`, then the previous page's `token`),
//   `res.json()`, and raw IndexedDB puts, one transaction a page (optionally fetching the next page while
//   writing this one);
// - rawBulk: the rows already in memory, written in one raw IndexedDB transaction (the floor of the write);
// - fetchOnly, writeOnly, loop: the pieces and variants used to find where the engine's time goes.
import { KincareDb, type SyncedRow } from '../../src/local/db';
import { pull } from '../../src/local/sync-pull';
import { createTransport } from '../../src/local/sync-transport';
import { pullResponseSchema } from '../../src/domain/sync';

type WireChange = {
  resource: 'appointments';
  id: string;
  version: number;
  deleted: boolean;
  data: Record<string, unknown> | null;
};
type WirePage = {
  changes: WireChange[];
  cursor: number;
  more: boolean;
  reset: boolean;
  scope: string;
  token?: string | undefined;
};

/** Where pages come from: the real server (same origin, bearer token) or the bench's side server. */
export type Source = { base: string; token: string | null };
export type Durability = 'default' | 'relaxed' | 'strict';

const fresh = (label: string) => `bench-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

function pageUrl(source: Source, pageSize: number, previous: WirePage | null): string {
  if (!previous) return `${source.base}/sync/pull?cursor=0&limit=${pageSize}`;
  const token = previous.token ? `&token=${encodeURIComponent(previous.token)}` : '';
  return `${source.base}/sync/pull?cursor=${previous.cursor}&limit=${pageSize}${token}`;
}

type Timings = { fetchMs: number; parseMs: number; validateMs: number };

/** One page: the request and body transfer, JSON.parse and (optionally) the engine's schema check, timed apart. */
async function fetchPage(
  source: Source,
  url: string,
  validate: boolean,
  timings: Timings,
): Promise<WirePage> {
  const start = performance.now();
  const response = await fetch(
    url,
    source.token ? { headers: { Authorization: `Bearer ${source.token}` } } : {},
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`pull answered ${response.status}: ${text.slice(0, 200)}`);
  const parsedAt = performance.now();
  const json = JSON.parse(text) as WirePage;
  const validatedAt = performance.now();
  const page = validate ? (pullResponseSchema.parse(json) as WirePage) : json;
  const end = performance.now();
  timings.fetchMs += parsedAt - start;
  timings.parseMs += validatedAt - parsedAt;
  timings.validateMs += end - validatedAt;
  return page;
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    request.onblocked = () => resolve();
  });
}

/** A raw IndexedDB database shaped like the replica's appointments table (key id, indexed by patient_id). */
const REPLICA_INDEXES: (string | string[])[] = ['patient_id'];
function openRaw(name: string, indexes = REPLICA_INDEXES): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore('appointments', { keyPath: 'id' });
      for (const index of indexes) store.createIndex(String(index), index);
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => resolve(open.result);
  });
}

function rawPut(database: IDBDatabase, rows: unknown[], durability: Durability): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = database.transaction('appointments', 'readwrite', { durability });
    const store = tx.objectStore('appointments');
    for (const row of rows) store.put(row);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const rowsOf = (page: WirePage) =>
  page.changes.flatMap((change) => (change.deleted || !change.data ? [] : [change.data]));

/** How a page is written: opened once per run, then called for each page in order. */
type Writer = {
  write: (page: WirePage) => Promise<void>;
  count: () => Promise<number>;
  close: () => Promise<void>;
};
export type WriterKind =
  | 'raw'
  | 'raw-no-index'
  | 'raw-compound-index'
  | 'raw-date-index'
  | 'dexie-bulkput'
  | 'engine-apply'
  | 'engine-apply-no-count'
  | 'engine-apply-compound-index'
  | 'engine-apply-date-index'
  | 'none';

/**
 * The replica with other indexes on appointments, as a later schema version would make it: one compound
 * [patient_id+appointment_date] in place of patient_id, or the appointment_date index of schema
 * versions 1-7 back beside patient_id (version 8 dropped it: the app's query of appointments,
 * where('patient_id').equals(id).sortBy('appointment_date'), sorts in memory and never used it).
 */
class ReindexedDb extends KincareDb {
  constructor(name: string, options: ConstructorParameters<typeof KincareDb>[1], appointments: string) {
    super(name, options);
    this.version(100).stores({ appointments });
  }
}
const REINDEXED: Partial<Record<WriterKind, string>> = {
  'engine-apply-compound-index': 'id, [patient_id+appointment_date]',
  'engine-apply-date-index': 'id, patient_id, appointment_date',
};

async function openWriter(kind: WriterKind, durability: Durability): Promise<Writer> {
  if (kind === 'none') {
    let rows = 0;
    return {
      write: async (page) => {
        rows += rowsOf(page).length;
      },
      count: async () => rows,
      close: async () => undefined,
    };
  }
  if (
    kind === 'raw' ||
    kind === 'raw-no-index' ||
    kind === 'raw-compound-index' ||
    kind === 'raw-date-index'
  ) {
    const name = fresh('raw');
    const indexes = {
      raw: REPLICA_INDEXES,
      'raw-no-index': [],
      // One index [patient_id+appointment_date] would serve a patient's appointments in date order.
      'raw-compound-index': [['patient_id', 'appointment_date']],
      'raw-date-index': ['patient_id', 'appointment_date'],
    }[kind];
    const database = await openRaw(name, indexes);
    return {
      write: (page) => rawPut(database, rowsOf(page), durability),
      count: () =>
        new Promise((resolve, reject) => {
          const request = database.transaction('appointments').objectStore('appointments').count();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
      close: async () => {
        database.close();
        await deleteDatabase(name);
      },
    };
  }
  const options = { chromeTransactionDurability: durability };
  const reindexed = REINDEXED[kind];
  const db = reindexed
    ? new ReindexedDb(fresh('dexie'), options, reindexed)
    : new KincareDb(fresh('dexie'), options);
  await db.open();
  const close = async () => {
    db.close();
    await deleteDatabase(db.name);
  };
  const count = () => db.appointments.count();
  if (kind === 'dexie-bulkput')
    return {
      write: (page) => db.appointments.bulkPut(rowsOf(page) as never[]).then(() => undefined),
      count,
      close,
    };
  const checkQueued = kind !== 'engine-apply-no-count';
  return { write: (page) => engineApply(db, page, checkQueued), count, close };
}

/**
 * The engine's applyPage on a first sync (nothing queued, no reset), copied so its parts can be left out:
 * one transaction over the view tables, serverRows, outbox and syncState; the count of queued records;
 * the bulkPut; the cursor and scope.
 */
async function engineApply(db: KincareDb, page: WirePage, checkQueued: boolean): Promise<void> {
  await db.transaction('rw', [db.appointments, db.serverRows, db.outbox, db.syncState], async () => {
    const anyQueued = checkQueued ? (await db.serverRows.count()) > 0 : false;
    if (anyQueued) throw new Error('the benchmark replica has queued changes');
    const remove = page.changes.filter((change) => change.deleted || !change.data).map((change) => change.id);
    if (remove.length > 0) await db.viewOf('appointments').bulkDelete(remove);
    await db.viewOf('appointments').bulkPut(rowsOf(page) as SyncedRow[]);
    await db.syncState.bulkPut([
      { key: 'cursor', value: page.cursor },
      { key: 'scope', value: page.scope },
    ]);
  });
}

export type LoopOptions = {
  pageSize: number;
  /** Run the engine's zod check of each page. */
  validate: boolean;
  /** Fetch the next page while this one is written (as the engine does). */
  overlap: boolean;
  writer: WriterKind;
  durability: Durability;
};
export type LoopResult = { ms: number; rows: number; pages: number } & Timings & { writeMs: number };

/** A pull loop whose every part can be swapped: the fair baseline and the engine's variants. */
async function loop(source: Source, options: LoopOptions): Promise<LoopResult> {
  const writer = await openWriter(options.writer, options.durability);
  const timings: Timings = { fetchMs: 0, parseMs: 0, validateMs: 0 };
  let writeMs = 0;
  let pages = 0;
  const start = performance.now();
  const get = (previous: WirePage | null) =>
    fetchPage(source, pageUrl(source, options.pageSize, previous), options.validate, timings);
  let next = get(null);
  for (;;) {
    const page = await next;
    pages++;
    if (page.more && options.overlap) next = get(page);
    const writeStart = performance.now();
    await writer.write(page);
    writeMs += performance.now() - writeStart;
    if (!page.more) break;
    if (!options.overlap) next = get(page);
  }
  const ms = performance.now() - start;
  const rows = await writer.count();
  await writer.close();
  return { ms, rows, pages, writeMs, ...timings };
}

/** The real engine: `pull()` over its own transport into a fresh replica. */
async function engine(token: string, pageSize: number): Promise<{ ms: number; rows: number }> {
  const db = new KincareDb(fresh('engine'));
  await db.open();
  const transport = createTransport({ baseURL: '/api', getToken: () => token, adapter: 'fetch' });
  const start = performance.now();
  const { applied } = await pull(db, transport, pageSize);
  const ms = performance.now() - start;
  const rows = await db.appointments.count();
  if (rows !== applied) throw new Error(`the engine applied ${applied} changes but stored ${rows} rows`);
  db.close();
  await deleteDatabase(db.name);
  return { ms, rows };
}

/** Every row of the source, fetched once and kept in memory for the write-only measures. */
let memory: WirePage[] = [];
async function load(source: Source, pageSize: number): Promise<number> {
  memory = [];
  const timings: Timings = { fetchMs: 0, parseMs: 0, validateMs: 0 };
  let previous: WirePage | null = null;
  do {
    previous = await fetchPage(source, pageUrl(source, pageSize, previous), false, timings);
    memory.push(previous);
  } while (previous.more);
  return memory.reduce((sum, page) => sum + rowsOf(page).length, 0);
}

/** The rows in memory, written page by page (a transaction a page) by the given writer. */
async function writeOnly(kind: WriterKind, durability: Durability): Promise<{ ms: number; rows: number }> {
  const writer = await openWriter(kind, durability);
  const start = performance.now();
  for (const page of memory) await writer.write(page);
  const ms = performance.now() - start;
  const rows = await writer.count();
  await writer.close();
  return { ms, rows };
}

/** The rows in memory, written in ONE raw IndexedDB transaction: the floor of any write of them. */
async function rawBulk(durability: Durability): Promise<{ ms: number; rows: number }> {
  const name = fresh('bulk');
  const database = await openRaw(name);
  const rows = memory.flatMap(rowsOf);
  const start = performance.now();
  await rawPut(database, rows, durability);
  const ms = performance.now() - start;
  database.close();
  await deleteDatabase(name);
  return { ms, rows: rows.length };
}

/** JSON.parse and the engine's zod check of the rows in memory, without any network. */
function parseOnly(): { parseMs: number; validateMs: number } {
  const texts = memory.map((page) => JSON.stringify(page));
  const start = performance.now();
  const parsed = texts.map((text) => JSON.parse(text) as unknown);
  const parsedAt = performance.now();
  for (const page of parsed) pullResponseSchema.parse(page);
  return { parseMs: parsedAt - start, validateMs: performance.now() - parsedAt };
}

/**
 * The plain loop (fetch, JSON.parse, raw puts a transaction a page, next page fetched while writing) run
 * in a dedicated worker, so that the page's thread is free: whether writing off the main thread helps.
 * Self-contained, because it is sent to the worker as its source text.
 */
function workerMain() {
  const scope = self as unknown as {
    onmessage: ((event: MessageEvent) => void) | null;
    postMessage: (message: unknown) => void;
  };
  scope.onmessage = async (event: MessageEvent) => {
    const { base, token, pageSize, name } = event.data as {
      base: string;
      token: string;
      pageSize: number;
      name: string;
    };
    try {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onupgradeneeded = () => {
          const store = open.result.createObjectStore('appointments', { keyPath: 'id' });
          store.createIndex('patient_id', 'patient_id');
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => resolve(open.result);
      });
      type Answer = {
        changes: { deleted: boolean; data: unknown }[];
        more: boolean;
        cursor: number;
        token?: string;
      };
      const get = async (previous: Answer | null): Promise<Answer> => {
        const query = previous
          ? `cursor=${previous.cursor}&limit=${pageSize}${previous.token ? `&token=${encodeURIComponent(previous.token)}` : ''}`
          : `cursor=0&limit=${pageSize}`;
        const response = await fetch(`${base}/sync/pull?${query}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        return (await response.json()) as Answer;
      };
      const start = performance.now();
      let rows = 0;
      let next = get(null);
      for (;;) {
        const page = await next;
        if (page.more) next = get(page);
        await new Promise<void>((resolve, reject) => {
          const tx = database.transaction('appointments', 'readwrite');
          const store = tx.objectStore('appointments');
          for (const change of page.changes) if (!change.deleted && change.data) store.put(change.data);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        rows += page.changes.length;
        if (!page.more) break;
      }
      const ms = performance.now() - start;
      database.close();
      scope.postMessage({ ms, rows });
    } catch (error) {
      scope.postMessage({ error: String(error) });
    }
  };
}

async function loopInWorker(token: string, pageSize: number): Promise<{ ms: number; rows: number }> {
  const source = new Blob([`(${workerMain.toString()})()`], { type: 'text/javascript' });
  const url = URL.createObjectURL(source);
  const worker = new Worker(url);
  const name = fresh('worker');
  try {
    const answer = await new Promise<{ ms: number; rows: number; error?: string }>((resolve) => {
      worker.onmessage = (event: MessageEvent) => resolve(event.data as { ms: number; rows: number });
      worker.postMessage({ base: `${location.origin}/api`, token, pageSize, name });
    });
    if (answer.error) throw new Error(answer.error);
    return answer;
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
    await deleteDatabase(name);
  }
}

export const kincareBench = { engine, loop, loopInWorker, load, writeOnly, rawBulk, parseOnly };
export type KincareBench = typeof kincareBench;
(globalThis as unknown as { kincareBench: KincareBench }).kincareBench = kincareBench;
