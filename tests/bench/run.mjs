// `npm run bench`: every benchmark in turn, each printing its figures. Ratios compare with a baseline
// measured in the same process, since the machines are shared and noisy. A benchmark exits non-zero only
// when its run broke (an error, lost or wrong data), never for a missed target: it prints those.
import { spawnSync } from 'node:child_process';

const benches = [
  [
    'Lighthouse, mobile preset, on /login and the signed-in dashboard (empty and populated accounts)',
    'tests/bench/lighthouse.ts',
  ],
  ['Replay of queued changes (batched push) on Postgres and PGlite', 'tests/bench/replay.ts'],
  ['First pull into Dexie in Chromium', 'tests/bench/pull-chromium.ts'],
  ['Medicine schedule in Chromium (12 prescriptions, 5 years of marks)', 'tests/bench/schedule-chromium.ts'],
  ['Many devices at once (push and pull against Postgres)', 'tests/bench/load.ts'],
  ['Server speed: Kincare beside a bare node:http + pg server', 'tests/bench/server.ts'],
  ['Lab report extraction: the corpus as text PDFs, scans and phone photos', 'tests/bench/extraction.ts'],
  [
    "Hostile files: HEIF and PDF bombs against memory and other people's latency",
    'tests/bench/hostile-files.ts',
  ],
  ['Provider directory: NPPES import and search at a million rows', 'tests/bench/directory.ts'],
  ['Large chaos run', 'tests/bench/chaos-large.ts'],
  ['Fuzz gate at 100,000 requests (hostile requests from the OpenAPI document)', 'tests/bench/fuzz.ts'],
];
spawnSync('node', ['tests/e2e/ensure-chromium.mjs'], { stdio: 'inherit' });
let failed = 0;
for (const [title, file] of benches) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync('npx', ['tsx', file], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.log(`(${file} did not finish: exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
