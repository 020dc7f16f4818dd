// `npm run test:mutants`: the sensitivity proof of the chaos test. Each planted bug of mutants.mjs goes
// alone into a fresh copy of the repository (the working tree is never touched), the chaos test alone runs
// against it, and the bug counts as caught when that run fails. First the same test runs on an unchanged
// copy and must pass, or a "caught" would mean nothing. Prints each bug with caught or missed, and
// `N/N planted bugs caught`; exits non-zero when one is missed (or a patch no longer applies).
//
//   node tests/mutants/run.mjs [--only 1,5] [--no-baseline] [--keep] [--base patches.mjs]
// --base names a module whose `patches` go into every copy first (the baseline too): a candidate fix, say,
// to see the mutants judged against the code as it will be.
// The chaos test's own settings pass through: CHAOS_SEED, TEST_DATABASE=postgres with DATABASE_URL, ...
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MUTANTS } from './mutants.mjs';
import { checkPatches, makeSandbox } from './sandbox.mjs';

const CHAOS_TEST = 'tests/sync/chaos.test.ts';
const RUN_TIMEOUT_MS = 15 * 60 * 1000;

const args = process.argv.slice(2);
const onlyArg = args.find((arg, index) => args[index - 1] === '--only' || arg.startsWith('--only='));
const only = onlyArg
  ? new Set(
      onlyArg
        .replace('--only=', '')
        .split(',')
        .map((part) => Number(part.trim())),
    )
  : null;
const keep = args.includes('--keep');
const baseArg = args.includes('--base') ? args[args.indexOf('--base') + 1] : undefined;
const basePatches = baseArg ? (await import(pathToFileURL(resolve(baseArg)).href)).patches : [];
const baseline = !args.includes('--no-baseline');

/** Runs the chaos test alone in a copy; answers whether it passed, the problems it printed, and its log. */
function runChaosTest(dir, label) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(dir, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'sync', CHAOS_TEST, '--no-cache'],
      {
        cwd: dir,
        env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const log = join(dir, `${label}.log`);
      writeFileSync(log, output);
      const problems = [...output.matchAll(/^\s*problem: (.*)$/gm)].map((match) => match[1]);
      const assertion = /^(AssertionError|Error|TypeError)[^\n]*/m.exec(output)?.[0];
      resolve({
        passed: code === 0,
        timedOut: signal === 'SIGKILL',
        problems,
        reason: problems[0] ?? assertion ?? (signal ? `ended by ${signal}` : `exit code ${code}`),
        seconds: Math.round((Date.now() - started) / 1000),
        log,
      });
    });
  });
}

const selected = MUTANTS.map((mutant, index) => ({ ...mutant, number: index + 1 })).filter(
  (mutant) => !only || only.has(mutant.number),
);

const stale = [
  ...checkPatches(basePatches).map((problem) => `base: ${problem}`),
  ...selected.flatMap((mutant) =>
    checkPatches(mutant.patches).map((problem) => `#${mutant.number} ${mutant.name}: ${problem}`),
  ),
];
if (stale.length > 0) {
  console.error(
    'Planted bugs that no longer apply (the code they patch has moved; update tests/mutants/mutants.mjs):',
  );
  for (const problem of stale) console.error(`  ${problem}`);
  process.exit(2);
}

const sandboxes = [];
const cleanUp = () => {
  if (!keep) for (const sandbox of sandboxes) sandbox.remove();
};

if (baseline) {
  const sandbox = makeSandbox('kincare-mutant-0-');
  sandboxes.push(sandbox);
  sandbox.apply(basePatches);
  process.stdout.write('unchanged copy: ');
  const result = await runChaosTest(sandbox.dir, 'baseline');
  if (!result.passed) {
    console.log(`FAILS (${result.seconds} s): ${result.reason}`);
    console.error(
      `The chaos test fails without a planted bug, so no mutant can be judged. Log: ${result.log}`,
    );
    sandbox.remove = () => undefined; // keep its log
    cleanUp();
    process.exit(1);
  }
  console.log(`passes (${result.seconds} s)`);
}

const results = [];
for (const mutant of selected) {
  const sandbox = makeSandbox(`kincare-mutant-${mutant.number}-`);
  sandboxes.push(sandbox);
  sandbox.apply(basePatches);
  sandbox.apply(mutant.patches);
  process.stdout.write(`#${mutant.number} ${mutant.name}: `);
  const result = await runChaosTest(sandbox.dir, `mutant-${mutant.number}`);
  const caught = !result.passed;
  results.push({ mutant, caught, result });
  console.log(
    caught
      ? `caught (${result.seconds} s, ${result.problems.length || 'no'} problems shown)${result.timedOut ? ' [timed out]' : ''}`
      : `MISSED (${result.seconds} s)`,
  );
  console.log(`    planted: ${mutant.detail}`);
  if (caught) console.log(`    first problem: ${result.reason.slice(0, 300)}`);
  else sandbox.remove = () => console.log(`    log kept: ${result.log}`);
}
cleanUp();

const caughtCount = results.filter((entry) => entry.caught).length;
console.log(`\n${caughtCount}/${results.length} planted bugs caught`);
process.exit(caughtCount === results.length ? 0 : 1);
