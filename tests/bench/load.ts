// Benchmark: many devices at once. BENCH_LOAD_DEVICES simulated devices (2 per patient) speak the real
// sync protocol to a Kincare server on Postgres, for BENCH_LOAD_SECONDS: each loops "push a few changes
// (POST /api/sync/push: creates with client-minted UUIDs and edits of its patient's appointments, fresh
// Idempotency-Keys), pull since its cursor (GET /api/sync/pull, later pages by token), think a little".
// Devices are plain HTTP clients on keep-alive connections, not Dexie replicas, so the load generator is
// not what limits; the server runs in its own process (src/server/main.ts), so client and server do not
// share an event loop. Traffic goes only to 127.0.0.1, and the run is bounded in time and requests.
// Then, for how far it goes, the same devices without think time for BENCH_LOAD_SATURATION_SECONDS.
// Beside the figures: bare `pg` inserts of the same rows, the ceiling Postgres itself sets here, with and
// without the one advisory lock every writer of `records` takes (src/server/services/records.ts).
import { createHmac, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { patients, sessions, users } from '../../src/server/db/schema';
import { PULL_PAGE } from '../../src/local/sync-pull';
import { PUSH_BATCH } from '../../src/local/sync-push';
import { ServerProcess, TEST_JWT_SECRET } from '../sync/server-process';
import { seeded } from '../sync/seeded';
import { descendantsCpuMs, machineCpuMs, ownCpuMs, postgresCpuMs } from './cpu';
import { bareInserts, bareInsertsConcurrent, withBenchDatabase, type BareRow } from './postgres';

const DEVICES = Math.max(2, Number(process.env.BENCH_LOAD_DEVICES ?? 200));
const SECONDS = Math.min(3600, Math.max(1, Number(process.env.BENCH_LOAD_SECONDS ?? 120)));
/** Mean pause between two rounds of a device (uniform in [0.5, 1.5] times it). */
const THINK_MS = Number(process.env.BENCH_LOAD_THINK_MS ?? 1000);
/** Changes per push: uniform in [1, MAX_CHANGES]. */
const MAX_CHANGES = Math.max(1, Math.min(PUSH_BATCH, Number(process.env.BENCH_LOAD_CHANGES ?? 5)));
/** Then the same devices without think time, to see how far the server goes: 0 skips it. */
const SATURATION_SECONDS = Math.min(
  600,
  Math.max(0, Number(process.env.BENCH_LOAD_SATURATION_SECONDS ?? 30)),
);
const DEVICES_PER_PATIENT = 2;
const REQUEST_TIMEOUT_MS = 30_000;
/** A hard cap on requests, whatever the time says. */
const MAX_REQUESTS = 5_000_000;
/** The server's database connections (src/server/db/client.ts), for the bare inserts beside it. */
const SERVER_POOL = 10;

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json | null };

const agent = new Agent({ keepAlive: true, maxSockets: DEVICES + 16 });

let requestsSent = 0;
function call(
  origin: URL,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
): Promise<Answer> {
  requestsSent++;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method,
        path: `/api${path}`,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Json | null = null;
          try {
            parsed = text ? (JSON.parse(text) as Json) : null;
          } catch {
            parsed = { unparsable: text.slice(0, 200) };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A token the server accepts: the claims and algorithm of src/server/plugins/auth.ts, its secret. */
/** A token for a session made straight in the database (the claims the server issues: sub, sid, iat, exp). */
function signToken(userId: string, sessionId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: Json) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: userId, sid: sessionId, iat: now, exp: now + 86_400 })}`;
  return `${unsigned}.${createHmac('sha256', TEST_JWT_SECRET).update(unsigned).digest('base64url')}`;
}

type Device = {
  name: string;
  token: string;
  patientId: string;
  cursor: number;
  /** The patient's appointments this device knows of, with the version it last saw. */
  known: Map<string, number>;
  random: () => number;
};

const newStats = () => ({
  pushMs: [] as number[],
  pullMs: [] as number[],
  pushes: 0,
  pullRequests: 0,
  creates: 0,
  edits: 0,
  merged: 0,
  pulledChanges: 0,
  errors: 0,
  errorSamples: [] as string[],
  /** A row per accepted change (an edit as a row of its own), for the bare inserts beside the run. */
  rows: [] as BareRow[],
  pushSizes: [] as number[],
});
type Stats = ReturnType<typeof newStats>;
/** The figures of the phase under way. */
let stats: Stats = newStats();
let totalErrors = 0;
let totalCreates = 0;

function fail(message: string): void {
  stats.errors++;
  totalErrors++;
  if (stats.errorSamples.length < 10) stats.errorSamples.push(message);
}

let visitNumber = 0;
function newVisit(device: Device, now: number): Json {
  visitNumber++;
  return {
    patient_id: device.patientId,
    caregiver_id: null,
    appointment_title: `Visit ${visitNumber}`,
    appointment_date: new Date(Date.UTC(2027, 0, 1, 9) + visitNumber * 1_800_000).toISOString(),
    doctor_id: null,
    location: `Clinic ${visitNumber % 40}`,
    notes: 'Bring the list of medicines',
    status: 'scheduled',
    changed_at: now,
  };
}

async function pushRound(origin: URL, device: Device): Promise<void> {
  const count = 1 + Math.floor(device.random() * MAX_CHANGES);
  const now = Date.now();
  const changes: Json[] = [];
  const creates = new Map<string, Json>();
  const ids = [...device.known.keys()];
  for (let index = 0; index < count; index++) {
    const edit = ids.length > 0 && device.random() < 0.5;
    if (edit) {
      const id = ids[Math.floor(device.random() * ids.length)] ?? '';
      changes.push({
        idempotency_key: randomUUID(),
        resource: 'appointments',
        op: 'update',
        id,
        base_version: device.known.get(id) ?? 0,
        payload: { notes: `Edited on ${device.name} at ${now}`, changed_at: now },
      });
    } else {
      const id = randomUUID();
      const payload = newVisit(device, now);
      creates.set(id, payload);
      changes.push({ idempotency_key: randomUUID(), resource: 'appointments', op: 'create', id, payload });
    }
  }
  const start = performance.now();
  const answer = await call(origin, 'POST', '/sync/push', device.token, { changes });
  stats.pushMs.push(performance.now() - start);
  stats.pushes++;
  stats.pushSizes.push(count);
  const results = (answer.body?.results ?? null) as { status: number; body: Json | null }[] | null;
  if (answer.status !== 200 || !results || results.length !== changes.length) {
    fail(`push answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return;
  }
  for (const [index, result] of results.entries()) {
    const change = changes[index] as { id: string; op: string };
    if (result.status !== 200 && result.status !== 201) {
      fail(`push item ${change.op} answered ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`);
      continue;
    }
    const data = (result.body?.data ?? null) as { version?: number } | null;
    if (typeof data?.version === 'number') device.known.set(change.id, data.version);
    if (result.body?.merged === true) stats.merged++;
    if (change.op === 'create') {
      stats.creates++;
      totalCreates++;
      const { patient_id: _patient, changed_at: _at, ...fields } = creates.get(change.id) ?? {};
      stats.rows.push({ id: change.id, patientId: device.patientId, data: fields });
    } else {
      stats.edits++;
      stats.rows.push({ id: randomUUID(), patientId: device.patientId, data: newVisit(device, now) });
    }
  }
}

async function pullRound(origin: URL, device: Device): Promise<void> {
  let query = `cursor=${device.cursor}&limit=${PULL_PAGE}`;
  for (let pages = 0; pages < 10_000; pages++) {
    const start = performance.now();
    const answer = await call(origin, 'GET', `/sync/pull?${query}`, device.token);
    stats.pullMs.push(performance.now() - start);
    stats.pullRequests++;
    const page = answer.body as {
      changes?: { id: string; version: number; deleted: boolean }[];
      cursor?: number;
      more?: boolean;
      reset?: boolean;
      token?: string;
    } | null;
    if (answer.status !== 200 || !page?.changes || typeof page.cursor !== 'number') {
      fail(`pull answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      return;
    }
    if (page.reset) device.known.clear();
    for (const change of page.changes) {
      if (change.deleted) device.known.delete(change.id);
      else device.known.set(change.id, Math.max(change.version, device.known.get(change.id) ?? 0));
    }
    stats.pulledChanges += page.changes.length;
    if (!page.more) {
      device.cursor = page.cursor;
      return;
    }
    if (!page.token) {
      fail('pull answered more without a token');
      return;
    }
    query = `limit=${PULL_PAGE}&token=${page.token}`;
  }
  fail('a pull did not end in 10,000 pages');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runDevice(origin: URL, device: Device, deadline: number, thinkMs: number): Promise<void> {
  await sleep(device.random() * thinkMs); // devices do not all start in the same millisecond
  while (Date.now() < deadline && requestsSent < MAX_REQUESTS) {
    try {
      await pushRound(origin, device);
      await pullRound(origin, device);
    } catch (error) {
      fail(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await sleep(thinkMs * (0.5 + device.random()));
  }
}

const LOCK_SAMPLE_MS = 100;

/**
 * Samples, while a phase runs, how many of the server's connections wait for an advisory lock (the
 * version lock: the server takes no other) and how many are running a statement.
 */
function sampleLockWaits(databaseUrl: string): { stop: () => Promise<{ waiting: number; active: number }> } {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  const samples: { waiting: number; active: number }[] = [];
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const result = await client.query<{ waiting: number; active: number }>(
        `select count(*) filter (where wait_event_type = 'Lock' and wait_event = 'advisory')::int as waiting,
                count(*) filter (where state = 'active' and wait_event_type is distinct from 'Lock')::int as active
           from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [database],
      );
      if (result.rows[0]) samples.push(result.rows[0]);
      await sleep(LOCK_SAMPLE_MS);
    }
    await client.end();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const mean = (pick: (sample: { waiting: number; active: number }) => number) =>
        samples.reduce((sum, sample) => sum + pick(sample), 0) / Math.max(1, samples.length);
      return { waiting: mean((sample) => sample.waiting), active: mean((sample) => sample.active) };
    },
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(databaseUrl: string): Promise<void> {
  const server = new ServerProcess({ databaseUrl, env: { LOG_LEVEL: 'error' } });
  try {
    // Migrations first (the server would also apply them), then the people, straight into the database.
    const patientIds = await server.withDatabase(async (db) => {
      const count = Math.ceil(DEVICES / DEVICES_PER_PATIENT);
      const made = await db
        .insert(users)
        .values(
          Array.from({ length: count }, (_, index) => ({
            email: `load-${index}-${randomUUID()}@example.com`,
            name: `Load patient ${index}`,
            passwordHash: 'not-used',
            role: 'Patient' as const,
            zipCode: '10001',
            emailVerifiedAt: new Date(),
            // As a real person who uses the app: the server refuses every change before the beta policy
            // is accepted, and a run of refusals measures nothing.
            betaPolicyAcceptedAt: new Date(),
          })),
        )
        .returning({ id: users.id });
      const rows = await db
        .insert(patients)
        .values(made.map((user) => ({ userId: user.id })))
        .returning({ id: patients.id, userId: patients.userId });
      const opened = await db
        .insert(sessions)
        .values(rows.map((row) => ({ userId: row.userId, expiresAt: new Date(Date.now() + 86_400_000) })))
        .returning({ id: sessions.id, userId: sessions.userId });
      const sessionOf = new Map(opened.map((session) => [session.userId, session.id]));
      return rows.map((row) => ({ ...row, sessionId: sessionOf.get(row.userId) ?? '' }));
    });
    await server.start();
    const origin = new URL(server.baseURL);
    const seed = Number(process.env.BENCH_LOAD_SEED ?? 1);
    const devices: Device[] = Array.from({ length: DEVICES }, (_, index) => {
      const patient = patientIds[Math.floor(index / DEVICES_PER_PATIENT)];
      if (!patient) throw new Error('not enough patients');
      return {
        name: `device-${index}`,
        token: signToken(patient.userId, patient.sessionId),
        patientId: patient.id,
        cursor: 0,
        known: new Map(),
        random: seeded(seed * 100_003 + index),
      };
    });
    const database = new URL(databaseUrl).pathname.slice(1);
    const cpu = () => ({
      machine: machineCpuMs(),
      generator: ownCpuMs(),
      server: descendantsCpuMs(),
      postgres: postgresCpuMs(database),
    });
    /** Every device loops for `seconds`; answers that phase's figures, printed. */
    const phase = async (title: string, phaseSeconds: number, thinkMs: number, active: Device[]) => {
      stats = newStats();
      console.log(title);
      const locks = sampleLockWaits(databaseUrl);
      const cpuBefore = cpu();
      const start = performance.now();
      const deadline = Date.now() + phaseSeconds * 1000;
      await Promise.all(active.map((device) => runDevice(origin, device, deadline, thinkMs)));
      const seconds = (performance.now() - start) / 1000;
      const cpuAfter = cpu();
      const waits = await locks.stop();
      const busyMs = cpuAfter.machine.busy - cpuBefore.machine.busy;
      const cores = (ms: number) => (ms / 1000 / seconds).toFixed(2);
      const used = {
        server: cpuAfter.server - cpuBefore.server,
        postgres: cpuAfter.postgres - cpuBefore.postgres,
        generator: cpuAfter.generator - cpuBefore.generator,
      };
      const changes = stats.creates + stats.edits;
      const requests = stats.pushes + stats.pullRequests;
      const fmt = (value: number) => value.toFixed(1);
      const latency = (values: number[]) =>
        `p50 ${fmt(percentile(values, 50))} ms, p95 ${fmt(percentile(values, 95))} ms, p99 ${fmt(percentile(values, 99))} ms, max ${fmt(Math.max(...values))} ms`;
      console.log(
        `  requests: ${requests} (${stats.pushes} pushes, ${stats.pullRequests} pull pages) in ${seconds.toFixed(1)} s, ${(requests / seconds).toFixed(0)} requests/s`,
      );
      console.log(`  errors: ${stats.errors}${stats.errors === 0 ? '' : ' (must be 0)'}`);
      for (const sample of stats.errorSamples) console.log(`    error: ${sample}`);
      console.log(`  push: ${latency(stats.pushMs)}`);
      console.log(`  pull: ${latency(stats.pullMs)} (${stats.pulledChanges} changes pulled)`);
      console.log(
        `  changes: ${changes} accepted (${stats.creates} creates, ${stats.edits} edits, ${stats.merged} merged with the other device's edit), ${(changes / seconds).toFixed(0)} changes/s`,
      );
      if (changes === 0) {
        console.log('  error: no change was accepted, so this phase measured nothing');
        totalErrors++;
      }
      console.log(
        `  CPU, in cores busy on average: server process ${cores(used.server)}, its Postgres backends ${cores(used.postgres)}, load generator ${cores(used.generator)}, everything else on the machine ${cores(busyMs - used.server - used.postgres - used.generator)} (of ${cpus().length} cores)`,
      );
      console.log(
        `  the server's connections (sampled every ${LOCK_SAMPLE_MS} ms): on average ${waits.waiting.toFixed(1)} waiting for the version lock, ${waits.active.toFixed(1)} running a statement (of ${SERVER_POOL})`,
      );
      return stats;
    };

    const main = await phase(
      `${DEVICES} devices (${patientIds.length} patients x ${DEVICES_PER_PATIENT}) for ${SECONDS} s, thinking ${THINK_MS} ms (x0.5-1.5) between rounds, 1-${MAX_CHANGES} changes a push, pull pages of ${PULL_PAGE}; server process on Postgres, seed ${seed}:`,
      SECONDS,
      THINK_MS,
      devices,
    );
    if (SATURATION_SECONDS > 0)
      await phase(
        `how far it goes: the same ${DEVICES} devices for ${SATURATION_SECONDS} s without thinking (each sends its next round as soon as the last is answered):`,
        SATURATION_SECONDS,
        0,
        devices,
      );

    // Everything acknowledged is on the server, once.
    const stored = await server.withDatabase(async (db) => {
      const result = (await db.execute(sql`select count(*)::int as n from records`)) as unknown as {
        rows: { n: number }[];
      };
      return result.rows[0]?.n ?? -1;
    });
    if (stored !== totalCreates) {
      totalErrors++;
      console.log(`error: the server holds ${stored} records, but ${totalCreates} creates were acknowledged`);
    } else console.log(`every acknowledged create is on the server, once (${stored} records)`);
    await server.closeDatabase();
    await server.stop();
    if (server.errors.length > 0)
      console.log(`server error log (first lines):\n${server.errors.slice(0, 5).join('\n')}`);

    // The ceiling: a row per change accepted in the main phase, inserted with bare pg into a scratch table.
    const rows = main.rows;
    const oneTransaction = await bareInserts(databaseUrl, rows, { batch: PUSH_BATCH });
    const sizes = main.pushSizes;
    const perPush = await bareInsertsConcurrent(databaseUrl, rows, sizes, SERVER_POOL, false);
    const perPushLocked = await bareInsertsConcurrent(databaseUrl, rows, sizes, SERVER_POOL, true);
    console.log(
      `ceiling, bare pg inserts of ${rows.length} rows (one per accepted change) into a scratch table:`,
    );
    console.log(
      `  one transaction, multi-row inserts of ${PUSH_BATCH}: ${oneTransaction.perSecond.toFixed(0)} rows/s`,
    );
    console.log(
      `  a transaction per push (the same ${sizes.length} sizes, mean ${(rows.length / Math.max(1, sizes.length)).toFixed(1)} rows), ${SERVER_POOL} connections: ${perPush.perSecond.toFixed(0)} rows/s, ${perPush.transactionsPerSecond.toFixed(0)} commits/s`,
    );
    console.log(
      `  the same, each transaction first taking the one advisory lock and drawing versions from one sequence (as the server does): ${perPushLocked.perSecond.toFixed(0)} rows/s, ${perPushLocked.transactionsPerSecond.toFixed(0)} commits/s`,
    );
  } finally {
    await server.close();
    agent.destroy();
  }
  if (totalErrors > 0) process.exitCode = 1;
}

await withBenchDatabase('kincare_bench_load', run);
