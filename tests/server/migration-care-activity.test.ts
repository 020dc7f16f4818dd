import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { listActivity } from '../../src/server/services/care-activity';
import { MIGRATIONS_FOLDER, migrationsBefore, removeMigrationCopies } from './migrations-before';

// Migration 0012 on a database whose activity log holds a row per delivery: a caregiver's deliveries of
// one day and one kind of record fold into one row counting them all (at the newest's time), other days,
// kinds, caregivers and every write stay as they were, and the log reads as before.

afterAll(removeMigrationCopies);

const PATIENT_USER = '11111111-1111-4111-8111-111111111111';
const CARER_USER = '22222222-2222-4222-8222-222222222222';
const PATIENT = '33333333-3333-4333-8333-333333333333';
const WRITE = '44444444-4444-4444-8444-444444444444';

describe('migration 0012_care_activity_delivery_days', () => {
  it("folds each caregiver's deliveries of a day into one counted row and keeps every write", async () => {
    const client = new PGlite('memory://', { extensions: { pg_trgm } });
    const db = drizzle({ client, schema });
    try {
      await migrate(db, { migrationsFolder: migrationsBefore('0012_care_activity_delivery_days') });
      await db.execute(sql`
        insert into users (id, email, name, password_hash, role, zip_code) values
          (${PATIENT_USER}, 'pat@example.com', 'Pat', 'x', 'Patient', '10001'),
          (${CARER_USER}, 'alex@example.com', 'Alex', 'x', 'Caregiver', '10001')`);
      await db.execute(sql`insert into patients (id, user_id) values (${PATIENT}, ${PATIENT_USER})`);
      await db.execute(sql`
        insert into care_activity (patient_id, actor_user_id, actor_name, kind, resource, op, record_id, count, at) values
          (${PATIENT}, ${CARER_USER}, 'Alex', 'delivery', 'appointments', null, null, 2, '2026-11-20T08:00:00Z'),
          (${PATIENT}, ${CARER_USER}, 'Alex', 'delivery', 'appointments', null, null, 3, '2026-11-20T23:59:00Z'),
          (${PATIENT}, ${CARER_USER}, 'Alex', 'write', 'appointments', 'create', ${WRITE}, 1, '2026-11-20T12:00:00Z'),
          (${PATIENT}, ${CARER_USER}, 'Alex', 'delivery', 'doctors', null, null, 1, '2026-11-20T09:00:00Z'),
          (${PATIENT}, ${CARER_USER}, 'Alex', 'delivery', 'appointments', null, null, 4, '2026-11-21T00:01:00Z'),
          (${PATIENT}, null, 'Gone', 'delivery', 'appointments', null, null, 5, '2026-11-20T10:00:00Z'),
          (${PATIENT}, null, 'Gone', 'delivery', 'appointments', null, null, 6, '2026-11-20T11:00:00Z'),
          (${PATIENT}, null, 'Also gone', 'delivery', 'appointments', null, null, 7, '2026-11-20T10:30:00Z')`);

      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

      const entries = await listActivity(db, PATIENT, 50);
      expect(
        entries.map(({ at, actor_name, kind, resource, op, record_id, count }) => [
          at,
          actor_name,
          kind,
          resource,
          op,
          record_id,
          count,
        ]),
      ).toEqual([
        ['2026-11-21T00:01:00.000Z', 'Alex', 'delivery', 'appointments', null, null, 4],
        ['2026-11-20T23:59:00.000Z', 'Alex', 'delivery', 'appointments', null, null, 5],
        ['2026-11-20T12:00:00.000Z', 'Alex', 'write', 'appointments', 'create', WRITE, 1],
        ['2026-11-20T11:00:00.000Z', 'Gone', 'delivery', 'appointments', null, null, 11],
        ['2026-11-20T10:30:00.000Z', 'Also gone', 'delivery', 'appointments', null, null, 7],
        ['2026-11-20T09:00:00.000Z', 'Alex', 'delivery', 'doctors', null, null, 1],
      ]);
      const days = await db.execute<{ kind: string; day: string | null }>(
        sql`select kind, day::text as day from care_activity order by at`,
      );
      expect(days.rows.filter((row) => row.kind === 'write').map((row) => row.day)).toEqual([null]);
      expect(days.rows.filter((row) => row.kind === 'delivery').every((row) => row.day !== null)).toBe(true);
      // A second delivery line for the same caregiver, day and kind of record cannot be stored.
      await expect(
        db.execute(sql`
          insert into care_activity (patient_id, actor_user_id, actor_name, kind, resource, count, day)
            values (${PATIENT}, ${CARER_USER}, 'Alex', 'delivery', 'appointments', 1, '2026-11-20')`),
      ).rejects.toThrow();
    } finally {
      await client.close();
    }
  });
});
