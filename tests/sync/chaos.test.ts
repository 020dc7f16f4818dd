import { expect, it } from 'vitest';
import { runChaos } from './chaos';

it('survives 2,000 random operations on 3 devices with a flaky network and 3 server restarts', async () => {
  const seed = Number(process.env.CHAOS_SEED ?? 20261121);
  const report = await runChaos({ devices: 3, operations: 2000, restarts: 3, seed });
  console.log(`chaos (seed ${seed}):`, JSON.stringify(report));
  expect(report.operations).toBeGreaterThanOrEqual(2000);
  expect(report.restarts).toBe(3);
  expect(report.creates).toBeGreaterThan(300);
  expect({
    lost: report.lost,
    duplicated: report.duplicated,
    unexpected: report.unexpected,
    replicasDiffering: report.replicasDiffering,
  }).toEqual({
    lost: 0,
    duplicated: 0,
    unexpected: 0,
    replicasDiffering: 0,
  });
}, 120_000);
