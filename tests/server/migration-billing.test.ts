import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, migrationsBefore, removeMigrationCopies } from './migrations-before';

afterAll(removeMigrationCopies);

// Migration 0007 (plans and subscriptions) on a database that already has people: every patient keeps
// signing in (the Free plan, with a customer id of Kincare's own), caregivers get nothing, and the
// seeded plans are there. The earlier migrations run first from a copy of the folder cut at 0006.

const migrations = MIGRATIONS_FOLDER;

describe('migration 0007_billing', () => {
  it('gives every existing patient the Free plan and seeds the plans', async () => {
    const client = new PGlite('memory://', { extensions: { pg_trgm } });
    const db = drizzle({ client });
    try {
      await migrate(db, { migrationsFolder: migrationsBefore('0007_billing') });
      await db.execute(sql`
        insert into users (id, email, name, password_hash, role, zip_code) values
          ('11111111-1111-4111-8111-111111111111', 'pat@example.com', 'Pat', 'x', 'Patient', '10001'),
          ('22222222-2222-4222-8222-222222222222', 'cara@example.com', 'Cara', 'x', 'Caregiver', '10001')`);
      await migrate(db, { migrationsFolder: migrations });
      const subscriptions = await db.execute<{
        user_id: string;
        plan_id: string;
        status: string;
        customer_id: string;
      }>(sql`select user_id, plan_id, status, customer_id from subscriptions`);
      expect(subscriptions.rows).toEqual([
        {
          user_id: '11111111-1111-4111-8111-111111111111',
          plan_id: 'free',
          status: 'active',
          customer_id: 'cus_local_11111111111141118111111111111111',
        },
      ]);
      const customers = await db.execute<{ stripe_customer_id: string | null }>(
        sql`select stripe_customer_id from users order by email`,
      );
      expect(customers.rows.map((row) => row.stripe_customer_id)).toEqual([
        null,
        'cus_local_11111111111141118111111111111111',
      ]);
      const plans = await db.execute<{ id: string }>(sql`select id from plans order by sort_order`);
      expect(plans.rows.map((row) => row.id)).toEqual(['free', 'plus-monthly', 'plus-yearly']);
    } finally {
      await client.close();
    }
  });
});
