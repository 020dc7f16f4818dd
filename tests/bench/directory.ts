// Benchmark: the provider directory at the registry's scale, on a fresh Postgres
// database (or the one of TEST_DATABASE=postgres + DATABASE_URL).
// 1. The import: a generated NPPES-format file of BENCH_DIRECTORY_ROWS rows (default 1,000,000) streamed
//    through importNppes, with rows/s and the peak RSS of this process while it runs. Memory is bounded
//    when the peak does not grow with the file: the same import of a tenth of the rows is measured first.
// 2. The search: GET /api/doctors and GET /api/pharmacies through Kincare over HTTP, one request at a
//    time, beside the same two indexed SQL statements (the count and the page, side by side) run bare
//    with `pg`, interleaved; p50/p95 of each, and the ratio of the p95s (target <= 2).
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/server/db/client';
import { importNppes } from '../../src/server/directory/import';
import { makeAccount, startServer } from '../sync/harness';
import { withBenchDatabase } from './postgres';

const ROWS = Number(process.env.BENCH_DIRECTORY_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_DIRECTORY_ROUNDS ?? 200);
const P95_RATIO_TARGET = 2;
const MILES_PER_DEGREE = 69.05;
const NEARBY_MILES = 50;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function generate(rows: number, file: string): void {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/server/directory/generate-sample.ts', '--rows', String(rows), '--out', file],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`generating ${rows} rows failed`);
}

/** Imports the file, sampling this process's RSS every 50 ms: the peak above the RSS before. */
async function timedImport(databaseUrl: string, file: string) {
  const handle = await openDatabase({ databaseUrl });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    const result = await importNppes(handle.db, createReadStream(file, { encoding: 'utf8' }));
    const elapsed = performance.now() - started;
    return { result, elapsed, rss: { before, peak, grew: peak - before } };
  } finally {
    clearInterval(sampler);
    await handle.close();
  }
}

type SearchCase = {
  label: string;
  url: string;
  /** The same statements as the service, for the bare side: [count, page]. */
  bare: { text: string; values: unknown[] }[];
};

const doctorColumns = `doctor_id, npi, name, speciality, qualifications, gender, address, city, state, zip, phone,
  accepting_new_patients`;

/** The square and distance of the service (services/directory-search.ts), as plain SQL. */
function around(latitude: number, longitude: number, from: number) {
  const latitudeSpan = NEARBY_MILES / MILES_PER_DEGREE;
  const scale = Math.cos((latitude * Math.PI) / 180);
  const longitudeSpan = NEARBY_MILES / (MILES_PER_DEGREE * scale);
  const miles = `${MILES_PER_DEGREE}::float8 * sqrt(power(latitude - $${from + 4}::float8, 2) + power((longitude - $${from + 5}::float8) * $${from + 6}::float8, 2))`;
  return {
    within: `latitude between $${from} and $${from + 1} and longitude between $${from + 2} and $${from + 3} and ${miles} <= ${NEARBY_MILES}`,
    miles,
    values: [
      latitude - latitudeSpan,
      latitude + latitudeSpan,
      longitude - longitudeSpan,
      longitude + longitudeSpan,
      latitude,
      longitude,
      scale,
    ],
  };
}

function cases(): SearchCase[] {
  // 10001 (Manhattan), as the zipcodes table has it.
  const manhattan = around(40.7484, -73.9967, 1);
  const named = (term: string) => `%${term}%`;
  return [
    {
      label: 'doctors by part of a name ("smit")',
      url: '/api/doctors?name=smit',
      bare: [
        { text: `select count(*) from directory_doctors where lower(name) like $1`, values: [named('smit')] },
        {
          text: `select ${doctorColumns}, null as distance_miles from directory_doctors where lower(name) like $1
                 order by name, doctor_id limit 5 offset 0`,
          values: [named('smit')],
        },
      ],
    },
    {
      label: 'doctors by speciality, page 3',
      url: '/api/doctors?speciality=Cardiology&page=3',
      bare: [
        {
          text: `select count(*) from directory_doctors where lower(speciality) = $1`,
          values: ['cardiology'],
        },
        {
          text: `select ${doctorColumns}, null as distance_miles from directory_doctors where lower(speciality) = $1
                 order by name, doctor_id limit 5 offset 10`,
          values: ['cardiology'],
        },
      ],
    },
    {
      label: 'doctors near a zip, nearest first',
      url: '/api/doctors?zip=10001',
      bare: [
        {
          text: `select count(*) from directory_doctors where ${manhattan.within}`,
          values: manhattan.values,
        },
        {
          text: `select ${doctorColumns}, ${manhattan.miles} as distance_miles from directory_doctors
                 where ${manhattan.within} order by distance_miles, name, doctor_id limit 5 offset 0`,
          values: manhattan.values,
        },
      ],
    },
    {
      label: 'doctors by speciality near a zip',
      url: '/api/doctors?zip=10001&speciality=Family%20Medicine',
      bare: [
        {
          text: `select count(*) from directory_doctors where lower(speciality) = $8 and ${manhattan.within}`,
          values: [...manhattan.values, 'family medicine'],
        },
        {
          text: `select ${doctorColumns}, ${manhattan.miles} as distance_miles from directory_doctors
                 where lower(speciality) = $8 and ${manhattan.within} order by distance_miles, name, doctor_id limit 5 offset 0`,
          values: [...manhattan.values, 'family medicine'],
        },
      ],
    },
    {
      label: 'pharmacies near a zip',
      url: '/api/pharmacies?zip=10001',
      bare: [
        {
          text: `select count(*) from directory_pharmacies where ${manhattan.within}`,
          values: manhattan.values,
        },
        {
          text: `select pharmacy_id, npi, name, address, city, state, zip, phone, opening_hours, open_24_hours,
                   ${manhattan.miles} as distance_miles from directory_pharmacies
                 where ${manhattan.within} order by distance_miles, name, pharmacy_id limit 5 offset 0`,
          values: manhattan.values,
        },
      ],
    },
  ];
}

async function main(databaseUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kincare-bench-directory-'));
  try {
    const small = join(dir, 'small.csv');
    const large = join(dir, 'large.csv');
    const smallRows = Math.max(1000, Math.round(ROWS / 10));
    generate(smallRows, small);
    generate(ROWS, large);
    const first = await timedImport(databaseUrl, small);
    const full = await timedImport(databaseUrl, large);
    const rate = (full.result.doctors + full.result.pharmacies + full.result.skipped) / (full.elapsed / 1000);
    console.log(`import of a generated NPPES-format file, streamed (Postgres):`);
    console.log(
      `  ${smallRows} rows: ${ms(first.elapsed)}; RSS grew ${mb(first.rss.grew)} (peak ${mb(first.rss.peak)})`,
    );
    console.log(
      `  ${ROWS} rows: ${(full.elapsed / 1000).toFixed(1)} s, ${rate.toFixed(0)} rows/s; ${full.result.doctors} doctors, ${full.result.pharmacies} pharmacies, ${full.result.skipped} skipped, ${full.result.malformed} malformed; RSS grew ${mb(full.rss.grew)} (peak ${mb(full.rss.peak)})`,
    );
    const bounded = full.rss.grew <= Math.max(first.rss.grew * 2, 64 * 1024 * 1024);
    console.log(`  memory bounded (10x the rows, RSS growth within 2x or 64 MB): ${bounded ? 'yes' : 'NO'}`);
    if (full.result.malformed > 0) throw new Error('the generated file imported with malformed rows');
    if (full.result.doctors === 0 || full.result.pharmacies === 0)
      throw new Error('the import stored no doctors or no pharmacies: it measured nothing');

    // The search, Kincare over HTTP (the sync harness's server on this database) beside the same SQL bare.
    process.env.TEST_DATABASE = 'postgres';
    process.env.DATABASE_URL = databaseUrl;
    const server = await startServer();
    const { token } = await makeAccount(server, 'Patient');
    await server.database().db.execute(sql`analyze directory_doctors`);
    await server.database().db.execute(sql`analyze directory_pharmacies`);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    try {
      console.log(
        `search over ${full.result.doctors} doctors and ${full.result.pharmacies} pharmacies, one request at a time, ${ROUNDS} rounds interleaved:`,
      );
      let worst = 0;
      for (const searchCase of cases()) {
        const ours: number[] = [];
        const bare: number[] = [];
        for (let round = 0; round < ROUNDS + 10; round++) {
          const started = performance.now();
          const response = await fetch(server.baseURL + searchCase.url.replace(/^\/api/, ''), {
            headers: { authorization: `Bearer ${token}` },
          });
          const body = (await response.json()) as { totalCount?: number };
          if (response.status !== 200 || typeof body.totalCount !== 'number')
            throw new Error(`${searchCase.url}: ${response.status}`);
          const oursMs = performance.now() - started;
          const bareStarted = performance.now();
          const [counted] = await Promise.all(searchCase.bare.map((statement) => pool.query(statement)));
          const bareMs = performance.now() - bareStarted;
          if (Number(counted?.rows[0]?.count) !== body.totalCount)
            throw new Error(
              `${searchCase.label}: Kincare counted ${body.totalCount}, bare ${counted?.rows[0]?.count}`,
            );
          if (round >= 10) {
            ours.push(oursMs);
            bare.push(bareMs);
          }
        }
        const ratio = percentile(ours, 95) / percentile(bare, 95);
        worst = Math.max(worst, ratio);
        console.log(
          `  ${searchCase.label}: Kincare p50 ${ms(percentile(ours, 50))} p95 ${ms(percentile(ours, 95))}; bare p50 ${ms(percentile(bare, 50))} p95 ${ms(percentile(bare, 95))}; p95 ratio ${ratio.toFixed(2)}`,
        );
      }
      console.log(
        `  worst p95 ratio ${worst.toFixed(2)} (target <= ${P95_RATIO_TARGET}: ${worst <= P95_RATIO_TARGET ? 'met' : 'NOT met'})`,
      );
    } finally {
      await pool.end();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await withBenchDatabase('kincare_bench_directory', main);
