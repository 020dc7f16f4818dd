// Benchmark: the first pull of 50,000 appointments into Dexie in Chromium (the real engine, over HTTP
// from the real server), beside a raw IndexedDB bulk write of the same rows in the same page and run.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { makeAccount, startServer } from '../sync/harness';
import { PULL_PAGE } from '../../src/local/sync-pull';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const PAGE = Number(process.env.BENCH_PAGE ?? PULL_PAGE);

const bundle = await build({
  configFile: false,
  logLevel: 'error',
  build: {
    write: false,
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('./pull-entry.ts', import.meta.url)),
      formats: ['iife'],
      name: 'kincareBenchBundle',
    },
  },
});
const output = Array.isArray(bundle) ? bundle[0] : bundle;
const code =
  output && 'output' in output
    ? output.output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n')
    : '';
if (!code) throw new Error('the benchmark bundle is empty');

const server = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
});
try {
  const patient = await makeAccount(server, 'Patient');
  const seedStart = performance.now();
  await server.database().db.execute(sql`
    insert into records (id, resource, patient_id, version, data, field_changed_at, created_by)
    select gen_random_uuid(), 'appointments', ${patient.patientId}, nextval('change_version_seq'),
      jsonb_build_object('appointment_title', 'Visit ' || n, 'appointment_date', to_char(timestamp '2027-01-01' + n * interval '30 minutes', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
        'doctor_id', null, 'location', 'Clinic ' || (n % 40), 'notes', 'Bring the list of medicines and the last lab report', 'status', 'scheduled', 'caregiver_id', null),
      '{}'::jsonb, ${patient.userId}
    from generate_series(1, ${ROWS}) as n`);
  console.log(`seeded ${ROWS} appointments in ${(performance.now() - seedStart).toFixed(0)} ms`);

  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${server.baseURL}/health`);
  await page.addScriptTag({ content: code });
  const result = await page.evaluate(
    ([token, pageSize]) =>
      (
        globalThis as unknown as {
          kincareBench: {
            compare: (
              t: string,
              p: number,
            ) => Promise<{ applied: number; pullMs: number; dexieMs: number; rawMs: number }>;
          };
        }
      ).kincareBench.compare(token, pageSize),
    [patient.token, PAGE] as const,
  );
  if (result.applied !== ROWS) throw new Error(`pulled ${result.applied} of ${ROWS}`);
  console.log(
    `first pull of ${ROWS} rows into Dexie (HTTP pages of ${PAGE} + parse + bulk transactions): ${result.pullMs.toFixed(0)} ms (${((ROWS / result.pullMs) * 1000).toFixed(0)} rows/s)`,
  );
  console.log(`Dexie bulkPut of the same rows: ${result.dexieMs.toFixed(0)} ms`);
  console.log(`raw IndexedDB bulk write of the same rows: ${result.rawMs.toFixed(0)} ms`);
  console.log(
    `ratio pull/raw write: ${(result.pullMs / result.rawMs).toFixed(2)}; Dexie bulkPut/raw write: ${(result.dexieMs / result.rawMs).toFixed(2)}`,
  );
} finally {
  await browser.close();
  await server.close();
}
