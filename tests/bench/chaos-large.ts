// Benchmark-sized chaos run: more devices, operations and restarts than the one in `npm test`.
import { runChaos } from '../sync/chaos';

const options = {
  devices: Number(process.env.CHAOS_DEVICES ?? 4),
  operations: Number(process.env.CHAOS_OPERATIONS ?? 10_000),
  restarts: Number(process.env.CHAOS_RESTARTS ?? 6),
  seed: Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000),
};
const report = await runChaos(options);
console.log(
  `chaos run (seed ${options.seed}): ${report.operations} operations on ${options.devices} devices, ${report.restarts} server restarts, ${report.seconds.toFixed(1)} s`,
);
console.log(
  `  creates ${report.creates}, edits ${report.edits}, deletes ${report.deletes}; edits refused because the record was deleted: ${report.refusedEdits}`,
);
console.log(
  `  lost ${report.lost}, duplicated ${report.duplicated}, unexpected ${report.unexpected}, replicas differing ${report.replicasDiffering}; server records ${report.serverRecords}`,
);
for (const problem of report.problems) console.log(`  problem: ${problem}`);
if (report.lost + report.duplicated + report.unexpected + report.replicasDiffering > 0) process.exitCode = 1;
