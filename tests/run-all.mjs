// `npm test`: every check, in order, stopping at the first failure: type check and lint (side by side),
// unit and server tests on PGlite, then the browser tests in Chromium against a fresh build (after checking
// the build's first-load JavaScript against its budget, tests/build/budget.mjs) with, beside them, the
// server tests again on Postgres when DATABASE_URL is set. Prints how long each stage took, and one
// closing line with the number of tests.
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

/** Checks started in the background (startInBackground), stopped when the run fails before they end. */
const background = new Set();

function fail(title, status) {
  for (const child of background) child.kill('SIGTERM');
  console.error(`\n${title} failed.`);
  printTotals();
  process.exit(status ?? 1);
}

/**
 * Runs checks that need nothing from each other side by side, each a process of its own (the type checker
 * and the linter use one core each), and prints each one's output whole once it has ended.
 */
async function runTogether(steps) {
  const ended = await Promise.all(steps.map((step) => startInBackground(step).ended));
  for (const { title, output, seconds } of ended) {
    console.log(`\n=== ${title} ===`);
    process.stdout.write(output);
    stages.push([title, seconds]);
  }
  const failed = ended.find(({ status }) => status !== 0);
  if (failed) fail(failed.title, failed.status);
}

/**
 * Starts a check as a process of its own, its output kept to be printed whole: `ended` resolves with its
 * title, exit status, output and how long it took.
 */
function startInBackground({ title, command, args, env = {} }) {
  const began = Date.now();
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  background.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const ended = new Promise((resolve) =>
    child.on('close', (status) => {
      background.delete(child);
      resolve({ title, status, output, seconds: secondsSince(began) });
    }),
  );
  return { ended };
}

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

await runTogether([
  { title: 'Type check', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { title: 'Lint', command: 'npm', args: ['run', '--silent', 'lint'] },
]);
// Two workers: each test file has its own in-memory PGlite, so files run side by side (on a 2-core machine
// this took the stage from about 460 s to 295 s).
run(
  'Unit, server and sync tests (PGlite)',
  'npx',
  ['vitest', 'run', '--maxWorkers=2', ...vitestJson('vitest.json')],
  {},
  () => countVitest(join(resultsDir, 'vitest.json')),
);
// The Postgres pass runs beside the build and the browser tests: those mostly wait (on the browser, the
// network, timers) and left more than half of this 2-core machine idle, which the Postgres pass fills. Its
// output is printed whole once it ends.
const postgresPass = process.env.DATABASE_URL
  ? startInBackground({
      title: 'Server and sync tests (Postgres)',
      command: 'npx',
      // Two workers: each has a database of its own, made from DATABASE_URL's and dropped at the end
      // (tests/server/worker-database.ts); on the one shared database the files had to run one at a time.
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
      // The fuzz gate's full 10,000 requests ran on PGlite; what it tests (the server's handling of hostile
      // input) does not depend on the database, so Postgres gets a shorter run of the same generator.
      env: { TEST_DATABASE: 'postgres', FUZZ_RUNS: process.env.FUZZ_RUNS ?? '2000' },
    })
  : null;
if (!postgresPass) console.log('\nDATABASE_URL is not set: the server tests ran on PGlite only.');
run('Chromium', 'node', ['tests/e2e/ensure-chromium.mjs']);
run('Build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
// Each first page within its gzip JavaScript budget (a page over it fails, naming its chunks).
run('First-load budget', 'node', ['tests/build/budget.mjs']);
// The service worker must stay a classic script (no import(), no import.meta), or it never installs.
run('Service worker script', 'node', ['tests/build/service-worker.mjs']);
const e2eDir = mkdtempSync(join(tmpdir(), 'kincare-e2e-'));
run(
  'Browser tests (Chromium)',
  'npx',
  ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts'],
  { E2E_DATA_DIR: e2eDir },
  () => countPlaywright(join(e2eDir, 'e2e-results.json')),
);
if (postgresPass) {
  const { title, status, output, seconds } = await postgresPass.ended;
  console.log(`\n=== ${title} (ran beside the browser tests) ===`);
  process.stdout.write(output);
  stages.push([`${title}, beside the browser tests`, seconds]);
  countVitest(join(resultsDir, 'vitest-pg.json'));
  if (status !== 0) fail(title, status);
}
printTotals();
