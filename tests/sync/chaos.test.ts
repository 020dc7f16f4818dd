import { expect, it } from 'vitest';
import { runChaos } from './chaos';
import { testDatabaseUrl } from './server-process';

// The chaos run of npm test (see chaos.ts): on PGlite, and on Postgres when TEST_DATABASE=postgres.
// CHAOS_SEED replays a run; CHAOS_OPERATIONS and CHAOS_RESTARTS change its size; CHAOS_VERBOSE=1 prints
// the kill windows as they happen.

const seed = Number(process.env.CHAOS_SEED ?? 20261123);
// 600 operations and 3 SIGKILLs: every planted bug of `npm run test:mutants` is caught at this size too
// (8/8, 46-87 s each), in two thirds of the time of 1200 and 5; a different size also walks other paths
// (it found a deleted record shown while its create waited to be resent: chaos-findings.test.ts).
// tests/bench/chaos-large.ts runs larger ones.
const operations = Number(process.env.CHAOS_OPERATIONS ?? 600);
const restarts = Number(process.env.CHAOS_RESTARTS ?? 3);
const database = testDatabaseUrl() ? 'Postgres' : 'PGlite';

it(`keeps every acknowledged change through ${operations} random operations on 3 devices, a hostile network and ${restarts} SIGKILLs of the server (${database}, seed ${seed})`, async () => {
  const report = await runChaos({
    seed,
    operations,
    restarts,
    ...(process.env.CHAOS_VERBOSE ? { log: (line: string) => console.log(line) } : {}),
  });
  const { problems, ...figures } = report;
  console.log(`chaos (seed ${seed}, replay with CHAOS_SEED=${seed}):`, JSON.stringify(figures));
  for (const problem of problems) console.log(`  problem: ${problem}`);
  // The run must have met every fault it claims to survive, or a pass would prove nothing.
  expect(report.restarts).toBeGreaterThanOrEqual(restarts);
  expect(report.requestsCutByKills, 'requests cut by a SIGKILL').toBeGreaterThan(0);
  expect(report.acknowledged).toBeGreaterThan(operations / 3);
  expect(report.attachments).toBeGreaterThan(0);
  for (const fault of ['lostAnswers', 'duplicates', 'injected5xx', 'injected429', 'replacedWith500'] as const)
    expect(report.network[fault], fault).toBeGreaterThan(0);
  expect(report.network.unauthorized, 'expired tokens answered 401').toBeGreaterThan(0);
  expect(report.network.maxPullsPerSync, 'pulls span pages').toBeGreaterThan(2);
  expect(report.tombstonesPurged, 'tombstones purged').toBeGreaterThan(0);
  expect(report.scopeChanges, "the caregiver's access granted and withdrawn").toBeGreaterThanOrEqual(2);
  expect(report.network.resets, 'pulls told to start over').toBeGreaterThan(0);
  expect({ seed, problemCount: report.problemCount, problems }).toEqual({
    seed,
    problemCount: 0,
    problems: [],
  });
}, 240_000);
