import pg from 'pg';

// Benchmarks that need Postgres use the database named by DATABASE_URL (with TEST_DATABASE=postgres), or
// else make a fresh one on the local server (127.0.0.1:5432, user postgres, trust) and drop it after, so
// a run never depends on, or leaves behind, anything in a shared database.

export const LOCAL_POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function givenDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE === 'postgres' && process.env.DATABASE_URL
    ? process.env.DATABASE_URL
    : undefined;
}

export async function withBenchDatabase<T>(prefix: string, run: (url: string) => Promise<T>): Promise<T> {
  const given = givenDatabaseUrl();
  if (given) return run(given);
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: LOCAL_POSTGRES });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(LOCAL_POSTGRES);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    const dropper = new pg.Client({ connectionString: LOCAL_POSTGRES });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  }
}

export type BareRow = { id: string; patientId: string; data: Record<string, unknown> };

async function createScratchTable(client: pg.ClientBase, table: string): Promise<void> {
  await client.query(`create table ${table} (
    id uuid primary key, resource text not null, patient_id uuid not null, version bigint not null unique,
    data jsonb not null, field_changed_at jsonb not null, created_by uuid not null,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now())`);
  await client.query(`create index on ${table} (resource, patient_id, version)`);
  await client.query(`create sequence ${table}_seq`);
}

async function dropScratchTable(client: pg.ClientBase, table: string): Promise<void> {
  await client.query(`drop table if exists ${table}`).catch(() => undefined);
  await client.query(`drop sequence if exists ${table}_seq`).catch(() => undefined);
}

/** One multi-row insert statement of these rows into the scratch table, versions from its sequence. */
function insertStatement(table: string, rows: BareRow[]): { text: string; values: unknown[] } {
  const values = rows
    .map(
      (_, index) =>
        `($${index * 3 + 1}, 'appointments', $${index * 3 + 2}, nextval('${table}_seq'), $${index * 3 + 3}, '{}', $${index * 3 + 2})`,
    )
    .join(', ');
  return {
    text: `insert into ${table} (id, resource, patient_id, version, data, field_changed_at, created_by) values ${values}`,
    values: rows.flatMap((row) => [row.id, row.patientId, row.data]),
  };
}

/**
 * The floor (or ceiling) that Postgres itself sets: the same rows inserted with bare `pg` into a scratch
 * table shaped like `records`, one transaction, either as multi-row inserts of `batch` rows or as a loop
 * of single-row inserts. Answers rows per second.
 */
export async function bareInserts(
  databaseUrl: string,
  rows: BareRow[],
  mode: { batch: number } | 'single',
): Promise<{ ms: number; perSecond: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const table = `bench_scratch_${process.pid}_${Date.now()}`;
  try {
    await createScratchTable(client, table);
    const start = performance.now();
    await client.query('begin');
    if (mode === 'single') {
      for (const row of rows)
        await client.query(
          `insert into ${table} (id, resource, patient_id, version, data, field_changed_at, created_by)
           values ($1, 'appointments', $2, nextval('${table}_seq'), $3, '{}', $2)`,
          [row.id, row.patientId, row.data],
        );
    } else {
      for (let offset = 0; offset < rows.length; offset += mode.batch) {
        const chunk = rows.slice(offset, offset + mode.batch);
        const values = chunk
          .map(
            (_, index) =>
              `($${index * 3 + 1}, 'appointments', $${index * 3 + 2}, nextval('${table}_seq'), $${index * 3 + 3}, '{}', $${index * 3 + 2})`,
          )
          .join(', ');
        await client.query(
          `insert into ${table} (id, resource, patient_id, version, data, field_changed_at, created_by) values ${values}`,
          chunk.flatMap((row) => [row.id, row.patientId, row.data]),
        );
      }
    }
    await client.query('commit');
    const ms = performance.now() - start;
    return { ms, perSecond: (rows.length / ms) * 1000 };
  } finally {
    await dropScratchTable(client, table);
    await client.end();
  }
}

/** Not the server's lock (7_406_511): the server is stopped by then, but a shared database may hold others. */
const SCRATCH_LOCK = 7_406_512;

/**
 * The same rows as many concurrent transactions of the given sizes (cycled), one multi-row insert each,
 * over `connections` connections: what Postgres commits per second here. `locked`: each transaction
 * first takes one transaction-scoped advisory lock, as every writer of `records` does, so commits queue
 * behind one another.
 */
export async function bareInsertsConcurrent(
  databaseUrl: string,
  rows: BareRow[],
  sizes: number[],
  connections: number,
  locked: boolean,
): Promise<{ ms: number; perSecond: number; transactionsPerSecond: number }> {
  const table = `bench_scratch_${process.pid}_${Date.now()}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  // An idle connection ended from outside (the database dropped) must not crash the run.
  pool.on('error', () => undefined);
  const chunks: BareRow[][] = [];
  for (let offset = 0, index = 0; offset < rows.length; index++) {
    const size = Math.max(1, sizes[index % Math.max(1, sizes.length)] ?? 1);
    chunks.push(rows.slice(offset, offset + size));
    offset += size;
  }
  const setup = await pool.connect();
  try {
    await createScratchTable(setup, table);
  } finally {
    setup.release();
  }
  try {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const client = await pool.connect();
        try {
          for (let chunk = chunks[next++]; chunk; chunk = chunks[next++]) {
            await client.query('begin');
            if (locked) await client.query(`select pg_advisory_xact_lock(${SCRATCH_LOCK})`);
            await client.query(insertStatement(table, chunk));
            await client.query('commit');
          }
        } finally {
          client.release();
        }
      }),
    );
    const ms = performance.now() - start;
    return {
      ms,
      perSecond: (rows.length / ms) * 1000,
      transactionsPerSecond: (chunks.length / ms) * 1000,
    };
  } finally {
    const client = await pool.connect();
    await dropScratchTable(client, table);
    client.release();
    await pool.end();
  }
}
