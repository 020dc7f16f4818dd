// Benchmark: the first pull of 50,000 appointments into Dexie in Chromium (the real engine, over HTTP
// from the real server), beside, in the same page and run:
// - the fair baseline: the same rows fetched with plain `fetch` page by page from the same server and
//   written with raw IndexedDB puts (a transaction a page), which is what the target compares with;
// - the raw bulk write: the same rows, already in memory, in one raw IndexedDB transaction;
// - the pieces (server, transfer, JSON.parse, schema check, each kind of write) and engine variants (page
//   size, overlap, durability, indexes), to show where the engine's time goes: BENCH_PULL_VARIANTS=1
//   (they take several minutes), each run in BENCH_PULL_PAIRS pairs with its reference.
// The main figures are medians of BENCH_PULL_ROUNDS interleaved rounds (machines are shared and noisy).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { makeAccount, startServer } from '../sync/harness';
import { PULL_PAGE } from '../../src/local/sync-pull';
import { PULL_PAGE_MAX, pullResponseSchema, SYNCED_RESOURCES } from '../../src/domain/sync';
import type { ReadScope } from '../../src/server/services/access';
import { pullChanges } from '../../src/server/services/sync-pull';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import type { Durability, KincareBench, LoopOptions, Source } from './pull-entry';
import { withBenchDatabase } from './postgres';
import { descendantsCpuMs, ownCpuMs } from './cpu';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const PAGE = Number(process.env.BENCH_PAGE ?? PULL_PAGE);
const ROUNDS = Math.max(1, Number(process.env.BENCH_PULL_ROUNDS ?? 3));
const VARIANTS = process.env.BENCH_PULL_VARIANTS === '1';
const PAIRS = Math.max(1, Number(process.env.BENCH_PULL_PAIRS ?? 2));
/** Runs only the variants whose label holds this text. */
const ONLY = process.env.BENCH_PULL_ONLY ?? '';
const RATIO_TARGET = 1.2;
const SECONDS_TARGET = 3;

/** CPU used so far by Chromium (every process descended from this one) and this process (the server). */
function cpuNow(): { chromiumMs: number; nodeMs: number } {
  return { chromiumMs: descendantsCpuMs(), nodeMs: ownCpuMs() };
}

async function withCpu<T>(run: () => Promise<T>): Promise<T & { chromiumCpuMs: number; nodeCpuMs: number }> {
  const before = cpuNow();
  const result = await run();
  const after = cpuNow();
  return {
    ...result,
    chromiumCpuMs: after.chromiumMs - before.chromiumMs,
    nodeCpuMs: after.nodeMs - before.nodeMs,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function bundleEntry(): Promise<string> {
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
  return code;
}

/** Calls one of pull-entry's functions in the page. */
function inPage<K extends keyof KincareBench>(
  page: Page,
  name: K,
  ...args: Parameters<KincareBench[K]>
): Promise<Awaited<ReturnType<KincareBench[K]>>> {
  return page.evaluate(
    ([fn, fnArgs]) => {
      const bench = (globalThis as unknown as { kincareBench: Record<string, (...a: unknown[]) => unknown> })
        .kincareBench;
      const run = bench[fn];
      if (!run) throw new Error(`no bench function ${fn}`);
      return run(...fnArgs);
    },
    [name, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<KincareBench[K]>>>;
}

async function main(databaseUrl: string | undefined) {
  const code = await bundleEntry();
  if (databaseUrl) {
    process.env.TEST_DATABASE = 'postgres';
    process.env.DATABASE_URL = databaseUrl;
  }
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let side: ReturnType<typeof createServer> | null = null;
  try {
    const patient = await makeAccount(server, 'Patient');
    const patientId = patient.patientId ?? '';
    const db = server.database().db;
    const seedStart = performance.now();
    await db.execute(sql`
      insert into records (id, resource, patient_id, version, data, field_changed_at, created_by)
      select gen_random_uuid(), 'appointments', ${patientId}, nextval('change_version_seq'),
        jsonb_build_object('appointment_title', 'Visit ' || n, 'appointment_date', to_char(timestamp '2027-01-01' + n * interval '30 minutes', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
          'doctor_id', null, 'location', 'Clinic ' || (n % 40), 'notes', 'Bring the list of medicines and the last lab report', 'status', 'scheduled', 'caregiver_id', null, 'attachment_key', null),
        '{}'::jsonb, ${patient.userId}
      from generate_series(1, ${ROWS}) as n`);
    console.log(
      `seeded ${ROWS} appointments in ${ms(performance.now() - seedStart)} (database: ${server.database().driver}; Chromium ${browser.version()}; engine page ${PAGE}, server max ${PULL_PAGE_MAX})`,
    );

    // A side server on the same database that answers pulls of any page size with a plain
    // JSON.stringify (no Fastify, no auth, no response schema): what larger pages and a leaner
    // answer would give. It serves only this benchmark, on the loopback, for as long as it runs.
    const scope = Object.fromEntries(
      SYNCED_RESOURCES.map((resource) => [resource, [patientId]]),
    ) as ReadScope;
    side = createServer((request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const cursor = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? PULL_PAGE_MAX);
      pullChanges(db, scope, { cursor, limit }).then(
        (answer) => {
          response.writeHead(200, {
            'content-type': 'application/json',
            'access-control-allow-origin': '*',
          });
          response.end(JSON.stringify(answer));
        },
        (error: unknown) => {
          response.writeHead(500, { 'access-control-allow-origin': '*' });
          response.end(String(error));
        },
      );
    });
    await new Promise<void>((resolve) => side?.listen(0, '127.0.0.1', resolve));
    const sidePort = (side.address() as AddressInfo).port;

    const real: Source = { base: '/api', token: patient.token };
    const lean: Source = { base: `http://127.0.0.1:${sidePort}/api`, token: null };

    // The server's share, measured in Node: the query, the response schema's encode and JSON.stringify.
    const serverShare = { queryMs: 0, encodeMs: 0, stringifyMs: 0, httpMs: 0 };
    {
      let cursor = 0;
      for (;;) {
        const start = performance.now();
        const answer = await pullChanges(db, scope, { cursor, limit: PAGE });
        const queried = performance.now();
        const encoded = pullResponseSchema.encode(answer);
        const encodedAt = performance.now();
        JSON.stringify(encoded);
        serverShare.queryMs += queried - start;
        serverShare.encodeMs += encodedAt - queried;
        serverShare.stringifyMs += performance.now() - encodedAt;
        if (!answer.more) break;
        cursor = answer.cursor;
      }
      const start = performance.now();
      let query = `cursor=0&limit=${PAGE}`;
      for (;;) {
        const response = await fetch(`${server.baseURL}/sync/pull?${query}`, {
          headers: { Authorization: `Bearer ${patient.token}` },
        });
        const answer = JSON.parse(await response.text()) as { more: boolean; cursor: number; token?: string };
        if (!answer.more) break;
        query = `cursor=${answer.cursor}&limit=${PAGE}${answer.token ? `&token=${answer.token}` : ''}`;
      }
      serverShare.httpMs = performance.now() - start;
    }

    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.baseURL}/health`);
    await page.addScriptTag({ content: code });

    const plain: LoopOptions = {
      pageSize: PAGE,
      validate: false,
      overlap: false,
      writer: 'raw',
      durability: 'default',
    };
    const check = (label: string, rows: number) => {
      if (rows !== ROWS) throw new Error(`${label}: stored ${rows} of ${ROWS} rows`);
    };

    // Warm-up (JIT, connection, IndexedDB's first open), not counted.
    await inPage(page, 'loop', real, plain);

    type Run = { ms: number; chromiumCpuMs: number; nodeCpuMs: number };
    const runs: Record<'engine' | 'fair' | 'fairOverlap' | 'raw', Run[]> = {
      engine: [],
      fair: [],
      fairOverlap: [],
      raw: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      const engine = await withCpu(() => inPage(page, 'engine', patient.token, PAGE));
      check('engine', engine.rows);
      runs.engine.push(engine);
      const fair = await withCpu(() => inPage(page, 'loop', real, plain));
      check('plain loop', fair.rows);
      runs.fair.push(fair);
      const fairOverlap = await withCpu(() => inPage(page, 'loop', real, { ...plain, overlap: true }));
      check('plain loop with overlap', fairOverlap.rows);
      runs.fairOverlap.push(fairOverlap);
      check('load', await inPage(page, 'load', real, PAGE));
      const raw = await withCpu(() => inPage(page, 'rawBulk', 'default'));
      check('raw bulk', raw.rows);
      runs.raw.push(raw);
    }
    const wall = (kind: keyof typeof runs) => median(runs[kind].map((run) => run.ms));
    const figures = (kind: keyof typeof runs) =>
      `${ms(wall(kind))} [${runs[kind].map((run) => run.ms.toFixed(0)).join(', ')}]; CPU Chromium ${ms(median(runs[kind].map((run) => run.chromiumCpuMs)))}, server ${ms(median(runs[kind].map((run) => run.nodeCpuMs)))}`;
    // Ratios are taken within each round (runs seconds apart), then the median of the rounds.
    const ratioTo = (kind: keyof typeof runs) =>
      median(runs.engine.map((run, round) => run.ms / (runs[kind][round]?.ms ?? Number.NaN)));
    const engine = wall('engine');
    console.log(`first pull of ${ROWS} rows, median of ${ROUNDS} interleaved rounds:`);
    console.log(
      `  engine (pull(): axios fetch, zod check, Dexie, a transaction a page, next page fetched while writing): ${figures('engine')}; ${((ROWS / engine) * 1000).toFixed(0)} rows/s`,
    );
    console.log(
      `  fair baseline (plain fetch page by page + res.json() + raw IndexedDB puts, a transaction a page): ${figures('fair')}`,
    );
    console.log(`  the same plain loop fetching the next page while writing: ${figures('fairOverlap')}`);
    console.log(
      `  raw IndexedDB bulk write of the same rows (in memory, one transaction): ${figures('raw')}`,
    );
    const ratio = ratioTo('fair');
    console.log(
      `  ratio engine/fair baseline: ${ratio.toFixed(2)} (target <= ${RATIO_TARGET}: ${ratio <= RATIO_TARGET ? 'met' : 'NOT met'}); engine/overlapped plain loop: ${ratioTo('fairOverlap').toFixed(2)}; engine/raw bulk: ${ratioTo('raw').toFixed(2)}`,
    );
    console.log(
      `  engine's first pull of ${ROWS} rows <= ${SECONDS_TARGET} s: ${engine <= SECONDS_TARGET * 1000 ? 'met' : 'NOT met'} (${(engine / 1000).toFixed(2)} s)`,
    );

    console.log(`where the time goes (page ${PAGE} unless said):`);
    console.log(
      `  server, measured in Node over all pages: query ${ms(serverShare.queryMs)}, response schema encode ${ms(serverShare.encodeMs)}, JSON.stringify ${ms(serverShare.stringifyMs)}; the whole route over HTTP from Node: ${ms(serverShare.httpMs)}`,
    );
    const fetchOnly = await inPage(page, 'loop', real, { ...plain, validate: true, writer: 'none' });
    console.log(
      `  in the page, no writes: ${ms(fetchOnly.ms)} for ${fetchOnly.pages} pages = request and transfer ${ms(fetchOnly.fetchMs)} + JSON.parse ${ms(fetchOnly.parseMs)} + zod check ${ms(fetchOnly.validateMs)}`,
    );
    const parse = await inPage(page, 'parseOnly');
    console.log(
      `  JSON.parse / zod check of all pages already in memory: ${ms(parse.parseMs)} / ${ms(parse.validateMs)}`,
    );

    if (!VARIANTS) return;

    // Each variant runs in PAIRS alternating with its reference, and is told as the median of its
    // ratios to the reference run just beside it: the load of a shared machine drifts within seconds.
    const paired = async (
      label: string,
      reference: () => Promise<{ ms: number; rows: number }>,
      variant: () => Promise<{ ms: number; rows: number }>,
    ) => {
      if (ONLY && !label.includes(ONLY)) return;
      const ratios: number[] = [];
      const times: number[] = [];
      const chromiumRatios: number[] = [];
      const nodeRatios: number[] = [];
      const chromiumCpu: number[] = [];
      const nodeCpu: number[] = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        const before = await withCpu(reference);
        const result = await withCpu(variant);
        check(label, result.rows);
        ratios.push(result.ms / before.ms);
        times.push(result.ms);
        chromiumRatios.push(result.chromiumCpuMs / before.chromiumCpuMs);
        nodeRatios.push(result.nodeCpuMs / before.nodeCpuMs);
        chromiumCpu.push(result.chromiumCpuMs);
        nodeCpu.push(result.nodeCpuMs);
      }
      console.log(
        `    ${label}: wall ${ms(median(times))} x${median(ratios).toFixed(2)} [${ratios.map((r) => r.toFixed(2)).join(', ')}]; CPU Chromium ${ms(median(chromiumCpu))} x${median(chromiumRatios).toFixed(2)}, server ${ms(median(nodeCpu))} x${median(nodeRatios).toFixed(2)}`,
      );
    };

    const writeOnly =
      (kind: Parameters<KincareBench['writeOnly']>[0], durability: Durability = 'default') =>
      () =>
        inPage(page, 'writeOnly', kind, durability);
    console.log(
      `  writes of the ${ROWS} rows from memory, a transaction a page of ${PAGE}, against raw IndexedDB puts into the replica's store shape:`,
    );
    await paired('raw puts again (the noise)', writeOnly('raw'), writeOnly('raw'));
    await paired('raw puts, relaxed durability', writeOnly('raw'), writeOnly('raw', 'relaxed'));
    await paired('raw puts, no indexes', writeOnly('raw'), writeOnly('raw-no-index'));
    await paired(
      'raw puts, one [patient_id+appointment_date] index instead of patient_id',
      writeOnly('raw'),
      writeOnly('raw-compound-index'),
    );
    await paired(
      'raw puts, with the appointment_date index of schema versions 1-7',
      writeOnly('raw'),
      writeOnly('raw-date-index'),
    );
    await paired('Dexie bulkPut on the table alone', writeOnly('raw'), writeOnly('dexie-bulkput'));
    await paired(
      "the engine's applyPage (4-table transaction, serverRows count, bulkPut, cursor)",
      writeOnly('raw'),
      writeOnly('engine-apply'),
    );
    await paired(
      'applyPage without the serverRows count',
      writeOnly('raw'),
      writeOnly('engine-apply-no-count'),
    );
    await paired(
      'applyPage, replica with one compound index',
      writeOnly('raw'),
      writeOnly('engine-apply-compound-index'),
    );
    await paired(
      'applyPage, replica with the appointment_date index of versions 1-7',
      writeOnly('raw'),
      writeOnly('engine-apply-date-index'),
    );
    await paired('one raw transaction for all rows', writeOnly('raw'), () =>
      inPage(page, 'rawBulk', 'default'),
    );

    const engineLike: LoopOptions = {
      pageSize: PAGE,
      validate: true,
      overlap: true,
      writer: 'engine-apply',
      durability: 'default',
    };
    const loopOf = (source: Source, options: LoopOptions) => () => inPage(page, 'loop', source, options);
    const engineCopy = loopOf(real, engineLike);
    console.log(`  whole pulls against a copy of the engine's loop (plain fetch in place of axios):`);
    await paired('the real engine, pull()', engineCopy, () => inPage(page, 'engine', patient.token, PAGE));
    await paired('the copy again (the noise)', engineCopy, engineCopy);
    await paired('without the zod check', engineCopy, loopOf(real, { ...engineLike, validate: false }));
    await paired(
      'without overlap of fetch and write',
      engineCopy,
      loopOf(real, { ...engineLike, overlap: false }),
    );
    await paired(
      'Dexie bulkPut alone instead of applyPage',
      engineCopy,
      loopOf(real, { ...engineLike, writer: 'dexie-bulkput' }),
    );
    await paired(
      'replica with the appointment_date index of versions 1-7',
      engineCopy,
      loopOf(real, { ...engineLike, writer: 'engine-apply-date-index' }),
    );
    await paired(
      'replica with one compound index',
      engineCopy,
      loopOf(real, { ...engineLike, writer: 'engine-apply-compound-index' }),
    );
    await paired('raw puts instead of Dexie', engineCopy, loopOf(real, { ...engineLike, writer: 'raw' }));
    for (const size of [500, 1000])
      if (size < PAGE)
        await paired(`page ${size}`, engineCopy, loopOf(real, { ...engineLike, pageSize: size }));
    await paired('the plain loop in a dedicated worker (raw puts, overlap)', engineCopy, () =>
      inPage(page, 'loopInWorker', patient.token, PAGE),
    );
    console.log(
      `  through a lean server on the same database (pullChanges + JSON.stringify: no Fastify, no response schema) with larger pages:`,
    );
    await paired(`lean server, page ${PAGE}`, engineCopy, loopOf(lean, engineLike));
    for (const size of [5000, 10_000, 25_000])
      await paired(`lean server, page ${size}`, engineCopy, loopOf(lean, { ...engineLike, pageSize: size }));
    await paired(
      'the changes proposed together: lean server, page 10000, one compound index (zod check and overlap kept)',
      engineCopy,
      loopOf(lean, { ...engineLike, pageSize: 10_000, writer: 'engine-apply-compound-index' }),
    );
    await paired(
      'lean server, page 10000, replica with the appointment_date index of versions 1-7 (zod check and overlap kept)',
      engineCopy,
      loopOf(lean, { ...engineLike, pageSize: 10_000, writer: 'engine-apply-date-index' }),
    );
    await paired(
      'plain loop: lean server, page 10000, raw puts, overlap',
      engineCopy,
      loopOf(lean, { ...plain, pageSize: 10_000, overlap: true }),
    );
  } finally {
    await browser.close();
    side?.close();
    await server.close();
  }
}

// BENCH_PULL_DATABASE=postgres runs the server on a fresh database of the local Postgres (dropped after).
if (process.env.BENCH_PULL_DATABASE === 'postgres') await withBenchDatabase('kincare_bench_pull', main);
else await main(undefined);
