import pg from 'pg';

// With TEST_DATABASE=postgres every vitest worker works in a database of its own, so the server and sync
// test files run side by side on Postgres as they do on PGlite (each file empties every table between its
// tests: on one shared database the files had to run one at a time). The worker's database is named after
// DATABASE_URL's with the worker's number (kincare_ci_123 -> kincare_ci_123_w1) and made, empty, the first
// time a worker needs it; the migrations run when a test opens it, as on any new database.
//
// This file has two uses (vite.config.ts): as a setup file it runs in each worker before each test file and
// points DATABASE_URL at the worker's database, so everything that reads it there uses that one
// (helpers.ts, the sync harness, the server processes the sync tests start); as a global setup, its
// teardown drops the workers' databases once the whole run is over.

/** DATABASE_URL as the run was given it (a worker's own copy of the environment is rewritten). */
const BASE_URL_KEY = 'KINCARE_TEST_BASE_DATABASE_URL';

function usesPostgres(): boolean {
  return process.env.TEST_DATABASE === 'postgres' && Boolean(process.env.DATABASE_URL);
}

function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** The database of worker `poolId`: the base database's name with `_w<poolId>`, on the same server. */
export function workerDatabaseUrl(baseUrl: string, poolId: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(`${databaseNameOf(baseUrl)}_w${poolId}`)}`;
  return url.toString();
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Makes the database of `url` unless it exists (asked on the base database, which does). */
async function ensureDatabase(baseUrl: string, url: string): Promise<void> {
  const name = databaseNameOf(url);
  await withClient(baseUrl, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`create database ${quoted(name)}`);
    } catch (error) {
      // Made meanwhile by a run of its own on the same base database: it is there, which is all we need.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  });
}

/** Drops every worker database made from `baseUrl` (connections left open by a failed test too). */
export async function dropWorkerDatabases(baseUrl: string): Promise<string[]> {
  const base = databaseNameOf(baseUrl);
  return withClient(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database');
    const workers = rows
      .map((row) => row.datname)
      .filter((name) => name.startsWith(`${base}_w`) && /^\d+$/.test(name.slice(base.length + 2)));
    for (const name of workers) await client.query(`drop database if exists ${quoted(name)} with (force)`);
    return workers;
  });
}

// In a worker (the setup file's use): VITEST_POOL_ID numbers the workers from 1, and stays the same for
// every file a worker runs.
const poolId = process.env.VITEST_POOL_ID;
if (poolId && usesPostgres()) {
  const baseUrl = (process.env[BASE_URL_KEY] ??= process.env.DATABASE_URL ?? '');
  const url = workerDatabaseUrl(baseUrl, poolId);
  await ensureDatabase(baseUrl, url);
  process.env.DATABASE_URL = url;
}

/** The global setup's end: the whole run is over, and the workers' databases go. */
export async function teardown(): Promise<void> {
  if (!usesPostgres()) return;
  await dropWorkerDatabases(process.env.DATABASE_URL ?? '');
}
