// `npm test`: every check, in order, stopping at the first failure: type check and lint (side by side),
// unit and server tests on PGlite, a fresh build with its first-load JavaScript checked against its budget
// (tests/build/budget.mjs), then the server tests again on Postgres when DATABASE_URL is set with every
// benchmark once at a tiny size beside them (tests/bench/run.mjs --smoke), and last the browser tests in
// Chromium. Prints how long each stage took, and one closing line with the number of tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const resultsDir = mkdtempSync(join(tmpdir(), 'kincare-results-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();
/** Each stage's title and how long it took, in seconds. */
const stages = [];
const secondsSince = (time) => Math.round((Date.now() - time) / 1000);

function run(title, command, args, env = {}, count = () => {}) {
  console.log(`\n=== ${title} ===`);
  const began = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  stages.push([title, secondsSince(began)]);
  count(); // failed runs count too: their failures belong in the closing line
  if (result.status !== 0) fail(title, result.status);
}

function fail(title, status) {
  console.error(`\n${title} failed.`);
  printTotals();
  process.exit(status ?? 1);
}

/**
 * Runs lanes of checks side by side, each lane its steps in turn (a step's failure ends its lane), each step a
 * process of its own, and prints each step's output whole once every lane has ended, in lane order. For
 * checks that need nothing from each other: the type checker and the linter use one core each; the Postgres
 * pass leaves a quarter of the two cores idle (its database answers), which the smoke benchmarks fill.
 */
async function runLanes(lanes) {
  const runStep = ({ title, command, args, env = {} }) =>
    new Promise((resolve) => {
      const began = Date.now();
      const child = spawn(command, args, {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', (status) => resolve({ title, status, output, seconds: secondsSince(began) }));
    });
  const runLane = async (steps) => {
    const ended = [];
    for (const step of steps) {
      const result = await runStep(step);
      ended.push({ ...result, count: step.count });
      if (result.status !== 0) break;
    }
    return ended;
  };
  const ended = (await Promise.all(lanes.map(runLane))).flat();
  for (const { title, output, seconds, count } of ended) {
    console.log(`\n=== ${title} ===`);
    process.stdout.write(output);
    stages.push([title, seconds]);
    count?.(); // failed runs count too: their failures belong in the closing line
  }
  const failed = ended.find(({ status }) => status !== 0);
  if (failed) fail(failed.title, failed.status);
}

const runTogether = (steps) => runLanes(steps.map((step) => [step]));

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  // CI retries a failed browser test once (playwright.config.ts); one that passed only then is a race in
  // the test or the app, and is named here (the list reporter marks it 'flaky') so it gets fixed.
  if (stats.flaky > 0)
    console.log(
      `\n${stats.flaky} browser test(s) passed only on their retry: see the lines marked flaky above.`,
    );
}

function printTotals() {
  console.log('');
  for (const [title, seconds] of stages) console.log(`${title}: ${seconds} s`);
  const seconds = secondsSince(started);
  console.log(`\nAll checks took ${seconds} s.`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
}

const vitestJson = (name) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(resultsDir, name)}`,
];

// Three processes on the two cores (`npm run lint` is ESLint then Prettier, one after the other): as two
// lanes, the type check (about 56 CPU-seconds) waited for nothing while ESLint and Prettier (52 and 30)
// ran in turn, so the stage took as long as the longer lane.
await runTogether([
  { title: 'Type check', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { title: 'Lint', command: 'npx', args: ['eslint', '.', '--max-warnings', '0'] },
  { title: 'Format check', command: 'npx', args: ['prettier', '--check', '--log-level', 'warn', '.'] },
]);
// Three workers on the two cores: each test file has its own in-memory PGlite, so files run side by side,
// and the third fills the time the others wait (on servers they spawned, on timers): measured on one
// machine, 247 s with two workers (1.78 cores busy), 225 s with three (1.94).
run(
  'Unit, server and sync tests (PGlite)',
  'npx',
  ['vitest', 'run', '--maxWorkers=3', ...vitestJson('vitest.json')],
  {},
  () => countVitest(join(resultsDir, 'vitest.json')),
);
run('Chromium', 'node', ['tests/e2e/ensure-chromium.mjs']);
run('Build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
// Each first page within its gzip JavaScript budget (a page over it fails, naming its chunks).
run('First-load budget', 'node', ['tests/build/budget.mjs']);
// The service worker must stay a classic script (no import(), no import.meta), or it never installs.
run('Service worker script', 'node', ['tests/build/service-worker.mjs']);

// Every benchmark once at a tiny size: one that broke, refuses its own work or measures nothing fails here
// (tests/bench/run.mjs). Lighthouse audits the build just made; with DATABASE_URL set, the benchmarks
// that need Postgres make their databases on that server (each its own).
const benchPostgres = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
if (benchPostgres) benchPostgres.pathname = '/postgres';
const smokeBenchmarks = {
  title: 'Benchmarks at smoke size',
  command: 'node',
  args: ['tests/bench/run.mjs', '--smoke'],
  env: {
    BENCH_LIGHTHOUSE_SKIP_BUILD: '1',
    ...(benchPostgres ? { BENCH_POSTGRES_URL: benchPostgres.toString() } : {}),
  },
};
if (process.env.DATABASE_URL) {
  // Two workers here too: each has a database of its own, made from DATABASE_URL's and dropped at the end
  // (tests/server/worker-database.ts); on the one shared database the files had to run one at a time.
  // The project 'server-once' is left out: its files answer the same on any database (vite.config.ts).
  // The fuzz gate's full 10,000 requests ran on PGlite; what it tests (the server's handling of hostile
  // input) does not depend on the database, so Postgres gets a shorter run of the same generator.
  // The smoke benchmarks run beside it: it waits on its database a quarter of the time.
  await runLanes([
    [
      {
        title: 'Server and sync tests (Postgres)',
        command: 'npx',
        args: [
          'vitest',
          'run',
          '--project',
          'server',
          '--project',
          'sync',
          '--maxWorkers=2',
          ...vitestJson('vitest-pg.json'),
        ],
        env: { TEST_DATABASE: 'postgres', FUZZ_RUNS: process.env.FUZZ_RUNS ?? '2000' },
        count: () => countVitest(join(resultsDir, 'vitest-pg.json')),
      },
    ],
    [smokeBenchmarks],
  ]);
} else {
  console.log('\nDATABASE_URL is not set: the server tests ran on PGlite only.');
  await runLanes([[smokeBenchmarks]]);
}
const e2eDir = mkdtempSync(join(tmpdir(), 'kincare-e2e-'));
run(
  'Browser tests (Chromium)',
  'npx',
  ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts'],
  { E2E_DATA_DIR: e2eDir },
  () => countPlaywright(join(e2eDir, 'e2e-results.json')),
);
printTotals();
