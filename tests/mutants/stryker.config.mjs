// Stryker mutation testing of the sync engine (`npm run test:stryker`, which goes through
// tests/mutants/stryker.mjs: StrykerJS 10's command line refuses Node 20). A figure for the README, not a
// CI gate.
//
// Restricted to fit about 20 minutes on a 2-core machine: the push (outbox replay, batching, retries,
// refusals) and the pull (pages, resets, rebase) of the client, killed by the engine tests against the real
// server (tests/sync/engine.test.ts). Over every sync module (src/local/sync-*.ts, outbox.ts and
// src/server/services/records.ts: 957 mutants) with the server's sync tests as well, one run takes about two
// hours here; ask for it with `node tests/mutants/stryker.mjs --mutate <globs> --tests <globs>`.
// The chaos test is left out: its server is a separate process, in which Stryker cannot switch mutants on,
// and at about a minute a run it would take days; `npm run test:mutants` is its sensitivity proof.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vite.config.ts', related: false, pool: 'forks' },
  testFiles: ['tests/sync/engine.test.ts'],
  mutate: ['src/local/sync-push.ts', 'src/local/sync-push-batch.ts', 'src/local/sync-pull.ts'],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 30_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'coverage/mutation/index.html' },
  jsonReporter: { fileName: 'coverage/mutation/mutation.json' },
  tempDirName: 'coverage/.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'data', 'coverage', 'test-results', 'playwright-report', 'tests/e2e/.tmp'],
};
