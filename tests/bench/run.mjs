// `npm run bench`: every benchmark in turn, each printing its figures. Ratios compare with a baseline
// measured in the same process, since the machines are shared and noisy. A benchmark exits non-zero only
// when its run broke (an error, lost or wrong data, or nothing measured), never for a missed target: it
// prints those.
//
// `node tests/bench/run.mjs --smoke` (a stage of `npm test`): every benchmark once at a tiny size, so that
// one that no longer runs, refuses its own work or measures nothing fails the test run the day it breaks,
// not the day someone next reads its figures. It checks that each still works, never how fast.
import { spawn, spawnSync } from 'node:child_process';
import pg from 'pg';

const smoke = process.argv.includes('--smoke');

/**
 * Each benchmark: its title, its file, whether it needs a Postgres server (it makes a database of its own
 * there, postgres.ts), and at smoke size the environment and arguments that make it tiny.
 */
const benches = [
  {
    title: 'Lighthouse, mobile preset, on /login and the signed-in dashboard (empty and populated accounts)',
    file: 'tests/bench/lighthouse.ts',
    // One page: the browser tests already drive the signed-in screens in Chromium.
    smoke: { env: { BENCH_LIGHTHOUSE_PAGES: 'login' } },
  },
  {
    title: 'Replay of queued changes (batched push) on Postgres and PGlite',
    file: 'tests/bench/replay.ts',
    postgres: true,
    smoke: { env: { BENCH_MUTATIONS: '40' } },
  },
  {
    title: 'First pull into Dexie in Chromium',
    file: 'tests/bench/pull-chromium.ts',
    smoke: { env: { BENCH_ROWS: '300', BENCH_PULL_ROUNDS: '1', BENCH_PULL_PAIRS: '1' } },
  },
  {
    title: 'Medicine schedule in Chromium (12 prescriptions, 5 years of marks)',
    file: 'tests/bench/schedule-chromium.ts',
    smoke: { env: { BENCH_SCHEDULE_RUNS: '1', BENCH_SCHEDULE_COLD_RUNS: '1', BENCH_SCHEDULE_YEARS: '1' } },
  },
  {
    title: 'Many devices at once (push and pull against Postgres)',
    file: 'tests/bench/load.ts',
    postgres: true,
    smoke: {
      env: {
        BENCH_LOAD_DEVICES: '3',
        BENCH_LOAD_SECONDS: '2',
        BENCH_LOAD_THINK_MS: '100',
        BENCH_LOAD_SATURATION_SECONDS: '1',
      },
    },
  },
  {
    title: 'Server speed: Kincare beside a bare node:http + pg server',
    file: 'tests/bench/server.ts',
    smoke: {
      env: {
        BENCH_SERVER_SECONDS: '1',
        BENCH_SERVER_CONNECTIONS: '2',
        BENCH_SERVER_DATABASES: 'pglite',
        // The push alone: the endpoint whose answer the baseline must keep matching as records grow fields.
        BENCH_SERVER_ONLY: 'push',
        BENCH_SERVER_PULL_ROWS: '50',
      },
    },
  },
  {
    title: 'Lab report extraction: the corpus as text PDFs, scans and phone photos',
    file: 'tests/bench/extraction.ts',
    smoke: { args: ['--kind', 'text', '--limit', '2', '--no-stall'] },
  },
  {
    title: "Hostile files: HEIF and PDF bombs against memory and other people's latency",
    file: 'tests/bench/hostile-files.ts',
    smoke: { env: { BENCH_HOSTILE_PLAIN_REQUESTS: '15', BENCH_HOSTILE_ROUNDS: '1' } },
  },
  {
    title: 'Provider directory: NPPES import and search at a million rows',
    file: 'tests/bench/directory.ts',
    postgres: true,
    smoke: { env: { BENCH_DIRECTORY_ROWS: '500', BENCH_DIRECTORY_ROUNDS: '2' } },
  },
  {
    title: 'Large chaos run',
    file: 'tests/bench/chaos-large.ts',
    smoke: { env: { CHAOS_DEVICES: '2', CHAOS_OPERATIONS: '60', CHAOS_RESTARTS: '0', CHAOS_SEED: '7' } },
  },
  {
    title: 'Fuzz gate at 100,000 requests (hostile requests from the OpenAPI document)',
    file: 'tests/bench/fuzz.ts',
    smoke: { env: { BENCH_FUZZ_RUNS: '150', BENCH_FUZZ_SEED: '7' } },
  },
];

/** Whether the Postgres server the benchmarks make their databases on answers (postgres.ts). */
async function postgresAnswers() {
  const client = new pg.Client({
    connectionString: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs one benchmark and answers whether it finished. Full size: in turn, its output as it comes (its
 * timings are the point, so nothing runs beside it). Smoke size: its output gathered and printed whole
 * once it ends, so that two can run side by side; a hung one is killed (each takes seconds at this size).
 */
function runBench(bench) {
  // node with tsx's loader, not `npx tsx`: that is a second Node process and a second second of start-up.
  const args = ['--import', 'tsx', bench.file, ...(smoke ? (bench.smoke.args ?? []) : [])];
  if (!smoke) {
    console.log(`\n=== ${bench.title} ===`);
    return Promise.resolve(spawnSync(process.execPath, args, { stdio: 'inherit' }).status === 0);
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The test run's own database is the Postgres pass's: each benchmark makes and drops one of its own.
      env: { ...process.env, ...bench.smoke.env, TEST_DATABASE: '' },
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${SMOKE_LIMIT_MS / 1000} s)`;
      process.kill(-child.pid, 'SIGKILL');
    }, SMOKE_LIMIT_MS);
    child.on('close', (status) => {
      clearTimeout(timer);
      console.log(`\n=== ${bench.title} (smoke size) ===`);
      process.stdout.write(output);
      resolve(status === 0);
    });
  });
}

const SMOKE_LIMIT_MS = 180_000;
/** At smoke size two at a time: mostly starting servers and browsers, which leaves a core idle. */
const LANES = smoke ? 2 : 1;

spawnSync('node', ['tests/e2e/ensure-chromium.mjs'], { stdio: 'inherit' });
const hasPostgres = await postgresAnswers();
const took = new Map();
const broke = [];
const waiting = [...benches];
async function lane() {
  for (let bench = waiting.shift(); bench; bench = waiting.shift()) {
    if (bench.postgres && !hasPostgres) {
      // A machine of this kind runs Postgres; elsewhere say plainly what did not run.
      console.log(
        `\n=== ${bench.title} ===\n(not run: no Postgres answers at BENCH_POSTGRES_URL or 127.0.0.1:5432)`,
      );
      took.set(bench.file, 'not run');
      continue;
    }
    const began = Date.now();
    const finished = await runBench(bench);
    took.set(bench.file, `${Math.round((Date.now() - began) / 1000)} s`);
    if (!finished) {
      broke.push(bench.file);
      console.log(`(${bench.file} did not finish)`);
    }
  }
}
await Promise.all(Array.from({ length: LANES }, lane));
console.log('');
for (const { file } of benches) console.log(`${file}: ${took.get(file)}`);
if (broke.length > 0) console.log(`\n${broke.length} benchmark(s) broke: ${broke.join(', ')} (see above).`);
process.exit(broke.length > 0 ? 1 : 0);
