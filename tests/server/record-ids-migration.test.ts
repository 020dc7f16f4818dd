import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { medicalHistoryId } from '../../src/domain/medical-history';
import * as schema from '../../src/server/db/schema';
import { createRecord, findRecord } from '../../src/server/services/records';
import { MIGRATIONS_FOLDER, migrationsBefore, removeMigrationCopies } from './migrations-before';

// Migration 0011 on a database where a record took the id of another resource's record before such ids
// were refused (an appointment with a patient's medical-history id): every row is kept as it was, and the
// patient's medical history can then be written under its id beside it.

afterAll(removeMigrationCopies);

const PATIENT_USER = '11111111-1111-4111-8111-111111111111';
const PATIENT = '33333333-3333-4333-8333-333333333333';
const SQUATTER_USER = '22222222-2222-4222-8222-222222222222';
const SQUATTER = '44444444-4444-4444-8444-444444444444';

describe('migration 0011_records_keyed_by_resource', () => {
  it('keeps every row, and a squatted id no longer blocks the record it names', async () => {
    const client = new PGlite('memory://', { extensions: { pg_trgm } });
    const db = drizzle({ client, schema });
    try {
      await migrate(db, { migrationsFolder: migrationsBefore('0011_records_keyed_by_resource') });
      for (const [user, patient, email] of [
        [PATIENT_USER, PATIENT, 'pat@example.com'],
        [SQUATTER_USER, SQUATTER, 'sam@example.com'],
      ] as const) {
        await db.execute(sql`
          insert into users (id, email, name, password_hash, role, zip_code)
            values (${user}, ${email}, 'Someone', 'x', 'Patient', '10001')`);
        await db.execute(sql`insert into patients (id, user_id) values (${patient}, ${user})`);
      }
      const historyId = await medicalHistoryId(PATIENT);
      const insert = (id: string, resource: string, patient: string, user: string, data: object) =>
        db.execute(sql`
          insert into records (id, resource, patient_id, version, data, field_changed_at, created_by)
          values (${id}, ${resource}, ${patient}, nextval('change_version_seq'), ${JSON.stringify(data)}::jsonb,
            '{}'::jsonb, ${user})`);
      await insert(historyId, 'appointments', SQUATTER, SQUATTER_USER, { appointment_title: 'Squat' });
      await insert('55555555-5555-4555-8555-555555555555', 'prescriptions', PATIENT, PATIENT_USER, {
        medicine_name: 'Metformin',
      });
      // Before: the key is the id alone, and the history cannot be written.
      await expect(
        insert(historyId, 'medical_history', PATIENT, PATIENT_USER, { lifestyle: {} }),
      ).rejects.toThrow();

      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

      const before = await db.execute<{ id: string; resource: string; data: unknown }>(
        sql`select id, resource, data from records order by version`,
      );
      expect(before.rows).toEqual([
        { id: historyId, resource: 'appointments', data: { appointment_title: 'Squat' } },
        {
          id: '55555555-5555-4555-8555-555555555555',
          resource: 'prescriptions',
          data: { medicine_name: 'Metformin' },
        },
      ]);
      const history = await db.transaction((tx) =>
        createRecord(tx, {
          resource: 'medical_history',
          id: historyId,
          patientId: PATIENT,
          createdBy: PATIENT_USER,
          fields: { lifestyle: { smoking: 'never' } },
          existsMessage: 'taken',
        }),
      );
      expect([history.resource, history.patientId]).toEqual(['medical_history', PATIENT]);
      expect((await findRecord(db, 'appointments', historyId))?.data).toEqual({ appointment_title: 'Squat' });
      expect((await findRecord(db, 'medical_history', historyId))?.patientId).toBe(PATIENT);
      // One resource still holds an id once.
      await expect(
        insert(historyId, 'appointments', PATIENT, PATIENT_USER, { appointment_title: 'Again' }),
      ).rejects.toThrow();
    } finally {
      await client.close();
    }
  });
});
