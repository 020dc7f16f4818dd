import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

// The one place that knows which database driver runs: PGlite (Postgres in WASM, kept in DATA_DIR) by
// default, node-postgres when DATABASE_URL is set. Both get the same schema and the same migrations.

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseHandle = {
  db: Database;
  driver: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** PGlite only: the whole database as a tarball, for `pgliteSnapshot` (tests start from a migrated one). */
  snapshot?: () => Promise<Blob>;
};

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseOptions = {
  databaseUrl?: string | undefined;
  pgliteDir?: string | undefined;
  /** PGlite only: start from this snapshot (DatabaseHandle.snapshot) instead of an empty database. */
  pgliteSnapshot?: Blob | undefined;
};

/** Opens the database and applies every pending migration before returning. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzle({ client: pool, schema });
    await migrate(db, { migrationsFolder });
    return { db, driver: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm'); // the directory's name search
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = options.pgliteDir;
  if (dir && !dir.startsWith('memory://')) mkdirSync(dir, { recursive: true }); // PGlite won't create it
  const client = new PGlite(dir, {
    extensions: { pg_trgm },
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
  });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    driver: 'pglite',
    close: () => client.close(),
    snapshot: async () => await client.dumpDataDir('none'),
  };
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'pglite');
}
