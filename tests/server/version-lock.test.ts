import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client';
import type { Transaction } from '../../src/server/services/idempotency';
import { CreateBatch, takeVersionLock, type NewRecord } from '../../src/server/services/records';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { makePerson, type Person } from './fixtures';

// Versions must become visible in the order they are drawn (services/records.ts), so every writer holds
// the version lock before it draws one. A pushed batch that starts with creates takes the lock in its
// insert (CreateBatch with lockHeld false): that statement must hold the lock when it ends, and must not
// draw a version before the lock is granted.

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

const newAppointment = (title: string): NewRecord => ({
  resource: 'appointments',
  id: randomUUID(),
  patientId: patient.patientId ?? '',
  createdBy: patient.userId,
  fields: { appointment_title: title, appointment_date: '2027-01-05T10:00:00.000Z' },
  existsMessage: 'exists',
});

/** Inserts these as one batch that does not hold the lock yet; answers their versions. */
async function insertTakingTheLock(tx: Transaction, titles: string[]): Promise<number[]> {
  const batch = new CreateBatch(tx, false);
  const rows = titles.map((title) => batch.add(newAppointment(title)));
  await batch.flush();
  expect(batch.holdsLock).toBe(true);
  return (await Promise.all(rows)).map((row) => row.version);
}

/** The version lock's holders and waiters (a bigint advisory key shows as classid 0, objid the key). */
const versionLockEntries = (db: Parameters<typeof queryRows>[0]) =>
  queryRows<{ granted: boolean; mine: boolean }>(
    db,
    sql`select granted, pid = pg_backend_pid() as mine from pg_locks
      where locktype = 'advisory' and classid = 0 and objid = 7406511`,
  );

describe('a batch that takes the version lock in its insert', () => {
  it('holds the lock once the insert is done, with the rows versioned in order', async () => {
    await ctx.database.db.transaction(async (tx) => {
      expect(await versionLockEntries(tx)).toEqual([]);
      const versions = await insertTakingTheLock(tx, ['First', 'Second', 'Third']);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(await versionLockEntries(tx)).toEqual([{ granted: true, mine: true }]);
    });
  });
});

// Two transactions at once need two connections: PGlite has one, so this part runs on Postgres (the
// suite's second pass, TEST_DATABASE=postgres).
describe.skipIf(process.env.TEST_DATABASE !== 'postgres')('two writers on Postgres', () => {
  it('draws no version before the lock is granted: a writer holding it draws first and commits first', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // The first writer takes the lock and keeps it until told, then draws a version and commits.
    const first = ctx.database.db.transaction(async (tx) => {
      await takeVersionLock(tx);
      holding();
      await released;
      const [drawn] = await queryRows<{ version: string }>(
        tx,
        sql`select nextval('change_version_seq') as version`,
      );
      return Number(drawn?.version);
    });
    await held;
    // The batch must wait for the lock before drawing: had it drawn while waiting, its version would be
    // lower than the first writer's, committed after it, and a pull in between would skip it for good.
    const second = ctx.database.db.transaction((tx) => insertTakingTheLock(tx, ['Waiting']));
    await expect
      .poll(async () => (await versionLockEntries(ctx.database.db)).filter((lock) => !lock.granted).length)
      .toBe(1);
    release();
    const firstVersion = await first;
    const [secondVersion] = await second;
    expect(secondVersion).toBeGreaterThan(firstVersion);
  });
});
