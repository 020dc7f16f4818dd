// `npm run bench`: every benchmark in turn, each printing its figures. Ratios compare with a baseline
// measured in the same process, since the machines are shared and noisy.
import { spawnSync } from 'node:child_process';

const benches = [
  ['Replay of queued mutations', 'tests/bench/replay.ts'],
  ['First pull into Dexie in Chromium', 'tests/bench/pull-chromium.ts'],
  ['Large chaos run', 'tests/bench/chaos-large.ts'],
];
spawnSync('node', ['tests/e2e/ensure-chromium.mjs'], { stdio: 'inherit' });
let failed = 0;
for (const [title, file] of benches) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync('npx', ['tsx', file], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
