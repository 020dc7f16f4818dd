import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { checkInsBetween, readCheckIn } from '../../src/server/services/check-in';
import { MIGRATIONS_FOLDER, migrationsBefore, removeMigrationCopies } from './migrations-before';

// Migration 0010 on a database that holds check-ins in 0008's table: every day moves into the synced
// records with its answers and status, a version of its own, and the patient's user as author; the
// service reads them as before, and the old table is gone.

afterAll(removeMigrationCopies);

const USER = '11111111-1111-4111-8111-111111111111';
const PATIENT = '33333333-3333-4333-8333-333333333333';

describe('migration 0010_check_ins_synced', () => {
  it('moves every stored check-in into the records, readable as before', async () => {
    const client = new PGlite('memory://', { extensions: { pg_trgm } });
    const db = drizzle({ client, schema });
    try {
      await migrate(db, { migrationsFolder: migrationsBefore('0010_check_ins_synced') });
      await db.execute(sql`
        insert into users (id, email, name, password_hash, role, zip_code)
          values (${USER}, 'pat@example.com', 'Pat', 'x', 'Patient', '10001')`);
      await db.execute(sql`insert into patients (id, user_id) values (${PATIENT}, ${USER})`);
      await db.execute(sql`
        insert into check_ins (id, patient_id, day, answers, status) values
          ('44444444-4444-5444-8444-444444444444', ${PATIENT}, '2026-11-20',
            '[{"question_id":"mood","answer":"good"},{"question_id":"sleep","answer":"7"}]', 'in_progress'),
          ('55555555-5555-5555-8555-555555555555', ${PATIENT}, '2026-11-21', '[]', 'skipped')`);

      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

      const moved = await db.execute<{ id: string; resource: string; version: number; created_by: string }>(
        sql`select id, resource, version, created_by from records order by version`,
      );
      expect(moved.rows.map((row) => [row.id, row.resource, row.created_by])).toEqual([
        ['44444444-4444-5444-8444-444444444444', 'check_ins', USER],
        ['55555555-5555-5555-8555-555555555555', 'check_ins', USER],
      ]);
      expect(new Set(moved.rows.map((row) => Number(row.version))).size).toBe(2);
      const days = await checkInsBetween(db, PATIENT, '2026-11-19', '2026-11-22');
      expect([...days.keys()]).toEqual(['2026-11-20', '2026-11-21']);
      expect(days.get('2026-11-20')).toMatchObject({
        status: 'in_progress',
        answers: [
          { question_id: 'mood', answer: 'good' },
          { question_id: 'sleep', answer: '7' },
        ],
      });
      expect(days.get('2026-11-21')).toMatchObject({ status: 'skipped', answers: [] });
      const table = await db.execute<{ name: string | null }>(sql`select to_regclass('check_ins') as name`);
      expect(table.rows[0]?.name).toBeNull();
      // A day that was not stored reads as a fresh check-in (its id made from the patient and the day).
      expect(await readCheckIn(db, PATIENT, '2026-11-22')).toMatchObject({
        status: 'in_progress',
        answers: [],
      });
    } finally {
      await client.close();
    }
  });
});
