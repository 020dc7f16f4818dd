// Benchmark-sized chaos run (tests/sync/chaos.ts): more devices, operations and server SIGKILLs than the one
// in `npm test`. On Postgres when TEST_DATABASE=postgres and DATABASE_URL are set, else PGlite.
import { runChaos } from '../sync/chaos';

const options = {
  devices: Number(process.env.CHAOS_DEVICES ?? 4),
  operations: Number(process.env.CHAOS_OPERATIONS ?? 10_000),
  restarts: Number(process.env.CHAOS_RESTARTS ?? 6),
  seed: Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000),
};
const report = await runChaos(options);
const { network } = report;
console.log(
  `chaos run (seed ${options.seed}, ${report.database}): ${report.operations} operations on ${options.devices} devices, ${report.restarts} server SIGKILLs (${report.requestsCutByKills} requests cut), ${report.seconds.toFixed(1)} s`,
);
console.log(
  `  creates ${report.creates}, edits ${report.edits}, deletes ${report.deletes}, files ${report.attachments}; queued ${report.queued}, acknowledged ${report.acknowledged}, refused ${report.refused}, merged ${report.merged}`,
);
console.log(
  `  faults: lost answers ${network.lostAnswers}, duplicates ${network.duplicates}, stale replays ${network.staleReplays}, injected 5xx ${network.injected5xx}, 429 ${network.injected429}, 500 after applying ${network.replacedWith500}, 401 ${network.unauthorized}; purges ${report.purges} (${report.tombstonesPurged} tombstones), access changes ${report.scopeChanges}`,
);
console.log(
  `  pulls ${network.pulls} (at most ${network.maxPullsPerSync} requests in one sync); server records ${report.serverRecords}; problems ${report.problemCount}`,
);
for (const problem of report.problems) console.log(`  problem: ${problem}`);
if (report.problemCount > 0) process.exitCode = 1;
// A run in which the server acknowledged nothing tested nothing.
if (report.acknowledged === 0) {
  console.log('  error: no change was acknowledged, so the run tested nothing');
  process.exitCode = 1;
}
