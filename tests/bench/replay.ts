// Benchmark: replay of 1,000 queued changes by the sync engine (`push()` of a device from the sync harness:
// Dexie on fake-indexeddb, the real server over HTTP, batches of POST /api/sync/push), beside the same
// changes sent one request per change (POST /api/appointments) by a plain loop, in the same run. On
// Postgres (a fresh database on the local server unless TEST_DATABASE=postgres and DATABASE_URL name
// one) and on PGlite. Beside the Postgres figure: bare `pg` inserts of the same rows, the floor.
import axios from 'axios';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { addAppointment } from '../../src/local/appointments';
import { push, PUSH_BATCH } from '../../src/local/sync-push';
import type { Transport } from '../../src/local/sync-transport';
import { makeAccount, makeDevice, startServer } from '../sync/harness';
import { bareInserts, withBenchDatabase } from './postgres';

const MUTATIONS = Number(process.env.BENCH_MUTATIONS ?? 1000);
const RATIO_TARGET = 4;
const POSTGRES_RATE_TARGET = 2000;

const visit = (patientId: string, index: number) => ({
  patient_id: patientId,
  caregiver_id: null,
  appointment_title: `Visit ${index}`,
  appointment_date: new Date(Date.UTC(2027, 0, 1, 9, 0) + index * 1800_000).toISOString(),
  doctor_id: null,
  location: 'Clinic',
  notes: 'Bring the list of medicines',
  status: 'scheduled' as const,
});

type Figures = {
  driver: string;
  engineMs: number;
  plainMs: number;
  /** Of the engine's time: waiting for the server's answers (the rest is the device's own work). */
  engineWaitMs: number;
  requests: number;
  /** The same changes as bare POST /api/sync/push batches from a plain loop: the server's part alone. */
  batchesMs: number;
  /** Statements the server sent to Postgres (null on PGlite), for the engine's replay and the plain loop. */
  engineQueries: number | null;
  plainQueries: number | null;
};

/**
 * Counts the statements node-postgres sends (every round trip of the server to Postgres), by wrapping
 * the client's query method for the length of the run: how many round trips a change costs.
 */
let queries = 0;
{
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    queries++;
    return original.apply(this, args);
  };
}

const perSecond = (count: number, ms: number) => ((count / ms) * 1000).toFixed(0);

async function measure(databaseUrl: string | undefined): Promise<Figures> {
  if (databaseUrl) {
    process.env.TEST_DATABASE = 'postgres';
    process.env.DATABASE_URL = databaseUrl;
  } else delete process.env.TEST_DATABASE;
  const server = await startServer();
  try {
    const patient = await makeAccount(server, 'Patient');
    const patientId = patient.patientId ?? '';
    const client = axios.create({
      baseURL: server.baseURL,
      headers: { Authorization: `Bearer ${patient.token}` },
    });
    const restCreate = (index: number) =>
      client.post(
        '/appointments',
        { id: crypto.randomUUID(), ...visit(patientId, index), changed_at: Date.now() },
        { headers: { 'Idempotency-Key': crypto.randomUUID() } },
      );
    // Warm up both paths (JIT, connections, first queries), not counted.
    for (let index = 0; index < 20; index++) await restCreate(index);
    {
      const warm = await makeDevice(server, patient, 'warm-up');
      warm.network.online = false;
      for (let index = 0; index < 20; index++) await addAppointment(warm.db, visit(patientId, index));
      warm.network.online = true;
      await push(warm.db, warm.network.transport, { force: true });
      warm.close();
    }

    const queriesBeforePlain = queries;
    const plainStart = performance.now();
    for (let index = 0; index < MUTATIONS; index++) {
      const response = await restCreate(index);
      if (response.status !== 201 && response.status !== 200)
        throw new Error(`the plain loop got ${response.status}`);
    }
    const plainMs = performance.now() - plainStart;
    const plainQueries = queries - queriesBeforePlain;

    // The server's part alone: the same creates as bare batches, no device.
    const batchesStart = performance.now();
    for (let offset = 0; offset < MUTATIONS; offset += PUSH_BATCH) {
      const changes = Array.from({ length: Math.min(PUSH_BATCH, MUTATIONS - offset) }, (_, index) => {
        const { patient_id, ...rest } = visit(patientId, offset + index);
        return {
          idempotency_key: crypto.randomUUID(),
          resource: 'appointments',
          op: 'create',
          id: crypto.randomUUID(),
          payload: { patient_id, ...rest, changed_at: Date.now() },
        };
      });
      const response = await client.post<{ results: { status: number }[] }>('/sync/push', { changes });
      const refused = response.data.results.filter(
        (result) => result.status !== 201 && result.status !== 200,
      );
      if (response.status !== 200 || refused.length > 0)
        throw new Error(
          `a bare batch got ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`,
        );
    }
    const batchesMs = performance.now() - batchesStart;

    const device = await makeDevice(server, patient, 'bench');
    device.network.online = false;
    for (let index = 0; index < MUTATIONS; index++) await addAppointment(device.db, visit(patientId, index));
    device.network.online = true;
    let engineWaitMs = 0;
    let requests = 0;
    const timed: Transport = async (request) => {
      const start = performance.now();
      try {
        return await device.network.transport(request);
      } finally {
        engineWaitMs += performance.now() - start;
        requests++;
      }
    };
    const queriesBeforeEngine = queries;
    const engineStart = performance.now();
    const outcome = await push(device.db, timed, { force: true });
    const engineMs = performance.now() - engineStart;
    const engineQueries = queries - queriesBeforeEngine;
    if (outcome.sent !== MUTATIONS || (await device.db.outbox.count()) !== 0)
      throw new Error(`replay incomplete: sent ${outcome.sent}, stopped by ${outcome.stoppedBy}`);
    device.close();

    const counted = (await server
      .database()
      .db.execute(
        sql`select count(*)::int as n from records where patient_id = ${patientId}`,
      )) as unknown as { rows: { n: number }[] };
    const expected = 40 + 3 * MUTATIONS;
    if (counted.rows[0]?.n !== expected)
      throw new Error(`the server holds ${counted.rows[0]?.n} records, expected ${expected}`);
    const postgres = server.database().driver === 'postgres';
    return {
      driver: server.database().driver,
      engineMs,
      plainMs,
      engineWaitMs,
      requests,
      batchesMs,
      engineQueries: postgres ? engineQueries : null,
      plainQueries: postgres ? plainQueries : null,
    };
  } finally {
    await server.close();
  }
}

function report(figures: Figures, targetRate: number | null): void {
  const { driver, engineMs, plainMs, engineWaitMs, requests, batchesMs, engineQueries, plainQueries } =
    figures;
  const ratio = plainMs / engineMs;
  const rate = (MUTATIONS / engineMs) * 1000;
  console.log(`${driver}:`);
  console.log(
    `  engine, push() of ${MUTATIONS} queued changes in batches of ${PUSH_BATCH}: ${engineMs.toFixed(0)} ms, ${rate.toFixed(0)} changes/s (${requests} requests; waiting for answers ${engineWaitMs.toFixed(0)} ms, the device's own work ${(engineMs - engineWaitMs).toFixed(0)} ms)`,
  );
  console.log(
    `  plain loop, one POST /api/appointments per change: ${plainMs.toFixed(0)} ms, ${perSecond(MUTATIONS, plainMs)} changes/s`,
  );
  console.log(
    `  engine is ${ratio.toFixed(1)}x faster than the plain loop (target >= ${RATIO_TARGET}x: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  the server's part alone: the same ${MUTATIONS} creates as bare POST /api/sync/push batches of ${PUSH_BATCH} from a plain loop: ${batchesMs.toFixed(0)} ms, ${perSecond(MUTATIONS, batchesMs)} changes/s`,
  );
  if (engineQueries !== null && plainQueries !== null)
    console.log(
      `  statements sent to Postgres: engine ${engineQueries} (${(engineQueries / MUTATIONS).toFixed(1)} a change), plain loop ${plainQueries} (${(plainQueries / MUTATIONS).toFixed(1)} a change)`,
    );
  if (targetRate !== null)
    console.log(
      `  ${rate.toFixed(0)} changes/s into ${driver} (target >= ${targetRate}: ${rate >= targetRate ? 'met' : 'NOT met'})`,
    );
}

await withBenchDatabase('kincare_bench_replay', async (url) => {
  const figures = await measure(url);
  report(figures, POSTGRES_RATE_TARGET);
  const rows = Array.from({ length: MUTATIONS }, (_, index) => {
    const { patient_id, ...fields } = visit(crypto.randomUUID(), index);
    return { id: crypto.randomUUID(), patientId: patient_id, data: fields };
  });
  const multi = await bareInserts(url, rows, { batch: PUSH_BATCH });
  const single = await bareInserts(url, rows, 'single');
  console.log(
    `  floor, bare pg inserts of the same ${MUTATIONS} rows in one transaction into a scratch table: multi-row inserts of ${PUSH_BATCH} ${multi.ms.toFixed(0)} ms (${multi.perSecond.toFixed(0)} rows/s); single-row inserts ${single.ms.toFixed(0)} ms (${single.perSecond.toFixed(0)} rows/s)`,
  );
});
report(await measure(undefined), null);
