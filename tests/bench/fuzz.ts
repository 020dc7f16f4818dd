// Benchmark-sized fuzz gate (tests/server/fuzz.test.ts): the same generator, read from the same OpenAPI
// document, at 100,000 requests (BENCH_FUZZ_RUNS), a new seed each run unless BENCH_FUZZ_SEED is set.
// On PGlite by default; on Postgres with BENCH_FUZZ_DATABASE=postgres (a fresh database it creates and
// drops, or DATABASE_URL with TEST_DATABASE=postgres). Prints requests/s, answers by status class and
// every 5xx or hang with its request; exits non-zero when it found one or the server was unhealthy after.
import {
  describeFailures,
  healthProblems,
  prepareFuzz,
  runFuzz,
  Sessions,
  startFuzzApp,
  summarize,
} from '../server/fuzz/runner';
import { givenDatabaseUrl, withBenchDatabase } from './postgres';

const RUNS = Number(process.env.BENCH_FUZZ_RUNS ?? 100_000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? Date.now() % 1_000_000_007);
const SLOW_MS = 3_000;
const onPostgres = process.env.BENCH_FUZZ_DATABASE === 'postgres' || givenDatabaseUrl() !== undefined;

async function fuzz(database: string): Promise<boolean> {
  console.log(
    `fuzz gate at bench size: ${RUNS} requests, seed ${SEED} (BENCH_FUZZ_SEED replays it), on ${database}`,
  );
  // With the same local services as the gate: a weather service, and a Fitbit for the Fitbit routes.
  const { ctx, close } = await startFuzzApp();
  try {
    const sessions = await Sessions.start(ctx);
    const setup = await prepareFuzz(ctx, sessions);
    const report = await runFuzz(ctx, setup, sessions, {
      runs: RUNS,
      seed: SEED,
      slowMs: SLOW_MS,
      giveUpMs: 10_000,
      onProgress: (sent, progress) => {
        if (sent % 10_000 === 0)
          console.log(
            `  ${sent} sent, ${Math.round(sent / (progress.elapsedMs / 1000))} requests/s, ${JSON.stringify(progress.byClass)}`,
          );
      },
    });
    console.log(summarize(report));
    const problems = await healthProblems(ctx);
    const fivexx = Object.entries(report.byStatus).filter(([status]) => status.startsWith('5'));
    console.log(`5xx answers: ${fivexx.length > 0 ? JSON.stringify(Object.fromEntries(fivexx)) : 'none'}`);
    if (report.failures.length > 0) console.log(describeFailures(report, SLOW_MS, 'BENCH_FUZZ_SEED'));
    console.log(
      problems.length > 0 ? `server after the run: ${problems.join('; ')}` : 'server after the run: healthy',
    );
    // Fewer requests answered than asked for is a run that stopped early: broken, whatever it found.
    if (report.sent < RUNS) console.log(`error: ${report.sent} of ${RUNS} requests were sent`);
    return report.failures.length === 0 && problems.length === 0 && report.sent >= RUNS;
  } finally {
    await close();
  }
}

let passed: boolean;
if (onPostgres) {
  passed = await withBenchDatabase('kincare_bench_fuzz', async (url) => {
    process.env.TEST_DATABASE = 'postgres';
    process.env.DATABASE_URL = url;
    return fuzz('Postgres');
  });
} else {
  passed = await fuzz('PGlite');
}
process.exit(passed ? 0 : 1);
