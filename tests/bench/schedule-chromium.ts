// Benchmark: the medicine schedule of a patient with 12 active prescriptions and 5
// years of dose marks renders in Chromium within 100 ms from the device's tables.
//
// The page (schedule-entry.tsx, bundled with vite's build(): the app's React, Dexie and Tailwind CSS)
// seeds a fresh replica through openUserDb and signs the patient in on its origin; Chromium is then closed
// and started again on the same profile directory (IndexedDB on disk, as on a phone), and the real
// TodaysSchedule ('page' variant) is timed from "start reading" until its dose rows and its 7-day chart are
// in the DOM: cold (the first open after the restart, the session resumed and the replica opened as at app
// start) and warm (WARM_RUNS opens). The baseline, measured in the same page and interleaved with the warm
// opens (the machines are shared and noisy), is the same screen made from the same rows already in memory
// (no IndexedDB); the reads alone (scheduleOn, adherenceOf 7 and 30) are also timed with and without it.
// Like the other benchmarks it exits non-zero only when the run broke, never for a missed target.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import type { KincareSchedule } from './schedule-entry';

const WARM_RUNS = Math.max(1, Number(process.env.BENCH_SCHEDULE_RUNS ?? 20));
const COLD_RUNS = Math.max(1, Number(process.env.BENCH_SCHEDULE_COLD_RUNS ?? 3));
/** Years of dose marks in the replica: 5 as the target says; 1 in the smoke run of npm test. */
const YEARS = Math.max(1, Math.round(Number(process.env.BENCH_SCHEDULE_YEARS ?? 5)));
const TARGET_MS = 100;
const ZONE = 'America/New_York';
/** A phone's viewport (the schedule is used at arm's length, on a phone). */
const PHONE = { width: 390, height: 844 };

const ms = (value: number) => `${value.toFixed(1)} ms`;
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 0.5))}, p95 ${ms(percentile(values, 0.95))}, max ${ms(Math.max(...values))}`;

/** The entry as one script and the app's CSS (Tailwind over the app's sources), as the app builds them. */
async function bundleEntry(): Promise<{ code: string; css: string }> {
  const bundle = await build({
    configFile: false,
    logLevel: 'error',
    plugins: [react(), tailwindcss()],
    // The device's Zod (no eval), as vite.config.ts sets it for the app.
    resolve: {
      alias: [
        {
          find: /^zod$/,
          replacement: fileURLToPath(new URL('../../src/local/zod-without-eval.ts', import.meta.url)),
        },
      ],
    },
    // Library mode keeps process.env as it is: React's production build, as the app ships.
    define: { 'process.env.NODE_ENV': JSON.stringify('production'), __SCHEDULE_YEARS__: String(YEARS) },
    build: {
      write: false,
      minify: true,
      cssCodeSplit: false,
      lib: {
        entry: fileURLToPath(new URL('./schedule-entry.tsx', import.meta.url)),
        formats: ['iife'],
        name: 'kincareScheduleBundle',
      },
    },
  });
  const output = Array.isArray(bundle) ? bundle[0] : bundle;
  if (!output || !('output' in output)) throw new Error('the benchmark bundle is empty');
  let code = '';
  let css = '';
  for (const chunk of output.output) {
    if (chunk.type === 'chunk') code += `${chunk.code}\n`;
    else if (chunk.fileName.endsWith('.css')) css += String(chunk.source);
  }
  if (!code) throw new Error('the benchmark bundle is empty');
  if (!css) throw new Error("the benchmark bundle has no CSS (the app's styles.css)");
  return { code, css };
}

/** Calls one of schedule-entry's functions in the page. */
function inPage<K extends keyof KincareSchedule>(
  page: Page,
  name: K,
  ...args: Parameters<KincareSchedule[K]>
): Promise<Awaited<ReturnType<KincareSchedule[K]>>> {
  return page.evaluate(
    ([fn, fnArgs]) => {
      const bench = (
        globalThis as unknown as { kincareSchedule: Record<string, (...a: unknown[]) => unknown> }
      ).kincareSchedule;
      const run = bench[fn];
      if (!run) throw new Error(`no bench function ${fn}`);
      return run(...fnArgs);
    },
    [name, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<KincareSchedule[K]>>>;
}

async function main() {
  const bundleStart = performance.now();
  const { code, css } = await bundleEntry();
  const bundleMs = performance.now() - bundleStart;
  // A page of its own origin (IndexedDB needs one), served from this process on the loopback.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>${css}</style></head><body class="bg-canvas"><main class="p-4"><div id="root"></div></main><script src="/bench.js"></script></body></html>`;
  const server = createServer((request, response) => {
    const script = request.url === '/bench.js';
    response.writeHead(script || request.url === '/' ? 200 : 404, {
      'content-type': script ? 'text/javascript' : 'text/html',
    });
    response.end(script ? code : request.url === '/' ? html : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // A profile on disk, as on a phone (a context without one keeps IndexedDB in memory).
  const profileDir = await mkdtemp(join(tmpdir(), 'kincare-bench-schedule-'));
  const launch = () =>
    chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      timezoneId: ZONE,
      viewport: PHONE,
    });
  const openPage = async (context: BrowserContext) => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForFunction(() => 'kincareSchedule' in globalThis);
    return page;
  };
  let context: BrowserContext | null = null;
  try {
    context = await launch();
    const userId = crypto.randomUUID();
    const seeded = await inPage(await openPage(context), 'seed', userId);
    console.log(
      `seeded ${seeded.prescriptions} active prescriptions and ${seeded.marks} dose marks over ${YEARS} year(s) (${seeded.taken} taken, ${seeded.notTaken} not taken, the rest never marked) in ${(seeded.seedMs / 1000).toFixed(1)} s; ${seeded.dosesToday} doses today (${seeded.today}, ${ZONE}); bundle ${(bundleMs / 1000).toFixed(1)} s`,
    );

    // Cold: Chromium closed and started again on the same profile, then the schedule's first open;
    // COLD_RUNS times, since one sample on a shared machine says little. The last page stays for the rest.
    const expected = { rows: seeded.dosesToday, bars: 7 };
    const colds: Awaited<ReturnType<KincareSchedule['openCold']>>[] = [];
    let page: Page | null = null;
    for (let run = 0; run < COLD_RUNS; run++) {
      await context.close();
      context = await launch();
      page = await openPage(context);
      const cold = await inPage(page, 'openCold', seeded.patientId, expected);
      if (cold.rows !== expected.rows || cold.bars !== expected.bars)
        throw new Error(`cold open showed ${cold.rows} rows and ${cold.bars} bars`);
      colds.push(cold);
    }
    if (!page) throw new Error('no cold open ran');
    const cold = {
      openMs: percentile(
        colds.map((each) => each.openMs),
        0.5,
      ),
      renderMs: percentile(
        colds.map((each) => each.renderMs),
        0.5,
      ),
      rowsMs: percentile(
        colds.map((each) => each.rowsMs),
        0.5,
      ),
      frameMs: percentile(
        colds.map((each) => each.frameMs),
        0.5,
      ),
      slots: colds[0]?.slots ?? 0,
    };
    const coldSwitchMs = await inPage(page, 'switchTo30Days');

    // Warm opens of the real screen, interleaved with the in-memory baseline (one of each per round).
    const memoryMarks = await inPage(page, 'loadMemory', seeded.patientId, seeded.today);
    const real: { rows: number[]; frame: number[] } = { rows: [], frame: [] };
    const memory: { rows: number[]; frame: number[] } = { rows: [], frame: [] };
    const ratios: number[] = [];
    const switches: number[] = [];
    // One round of each, not counted: the baseline's code path runs for the first time.
    await inPage(page, 'openFromMemory', expected);
    await inPage(page, 'openWarm', seeded.patientId, expected);
    for (let run = 0; run < WARM_RUNS; run++) {
      const warm = await inPage(page, 'openWarm', seeded.patientId, expected);
      switches.push(await inPage(page, 'switchTo30Days'));
      const fromMemory = await inPage(page, 'openFromMemory', expected);
      for (const opened of [warm, fromMemory])
        if (opened.rows !== expected.rows || opened.bars !== expected.bars)
          throw new Error(`an open showed ${opened.rows} rows and ${opened.bars} bars`);
      real.rows.push(warm.rowsMs);
      real.frame.push(warm.frameMs);
      memory.rows.push(fromMemory.rowsMs);
      memory.frame.push(fromMemory.frameMs);
      ratios.push(warm.rowsMs / fromMemory.rowsMs);
    }
    const reads: Awaited<ReturnType<KincareSchedule['reads']>>[] = [];
    for (let run = 0; run < WARM_RUNS; run++) reads.push(await inPage(page, 'reads', seeded.patientId));

    // Where the cold open's time goes: Chromium restarted once more, the same first steps one at a time.
    await context.close();
    context = await launch();
    const parts = await inPage(await openPage(context), 'coldParts', seeded.patientId, expected);
    await inPage(context.pages()[0] ?? (await context.newPage()), 'cleanUp');

    const readFigures = (side: 'tables' | 'memory', part: 'schedule' | 'week' | 'month' | 'together') =>
      ms(
        percentile(
          reads.map((round) => round[side][part]),
          0.5,
        ),
      );
    const readRatio = (part: 'schedule' | 'week' | 'month' | 'together') =>
      percentile(
        reads.map((round) => round.tables[part] / Math.max(round.memory[part], 0.05)),
        0.5,
      ).toFixed(1);
    const first = reads[0];
    console.log(
      `the screen (TodaysSchedule, 'page' variant, the real component and hooks, Chromium ${context.browser()?.version() ?? ''}, ${PHONE.width}x${PHONE.height}): ${expected.rows} dose rows in ${cold.slots} time slots, 7-day chart; reads answer ${first?.doses ?? '?'} doses today, ${first?.due7 ?? '?'} due over 7 days, ${first?.due30 ?? '?'} over 30`,
    );
    console.log(
      `  cold, the first open after Chromium restarted (median of ${COLD_RUNS} restarts): the app's start (resumeSession: session read, replica opened) ${ms(cold.openMs)}, then the screen's rows in the DOM ${ms(cold.renderMs)} later (${ms(cold.rowsMs)} from the start, next frame at ${ms(cold.frameMs)}); each restart, rows from the start: ${colds.map((each) => ms(each.rowsMs)).join(', ')}`,
    );
    console.log(
      `  warm, ${WARM_RUNS} opens from the device's tables: rows in the DOM ${spread(real.rows)}; next frame ${spread(real.frame)}`,
    );
    console.log(
      `  baseline, the same screen from the same rows in memory (no IndexedDB; a copy of the row markup, the real chart): rows in the DOM ${spread(memory.rows)}; next frame ${spread(memory.frame)}`,
    );
    console.log(
      `  ratio tables/memory (median of the ${WARM_RUNS} interleaved pairs): ${percentile(ratios, 0.5).toFixed(2)}: what IndexedDB adds to the open`,
    );
    console.log(
      `  where a cold open goes (Chromium restarted again, one step at a time): session resumed and replica opened ${ms(parts.openMs)}; first scheduleOn ${ms(parts.scheduleMs)}; first adherenceOf 7 ${ms(parts.weekMs)}; first render of the screen from memory ${ms(parts.renderMs)}`,
    );
    console.log(
      `  switching the open chart to 30 days (adherenceOf 30 read and drawn, until 30 bars show): first time ${ms(coldSwitchMs)}; then ${spread(switches)}`,
    );
    console.log(
      `  reads alone, median of ${WARM_RUNS} (tables / memory = ratio): scheduleOn ${readFigures('tables', 'schedule')} / ${readFigures('memory', 'schedule')} = ${readRatio('schedule')}; adherenceOf 7 ${readFigures('tables', 'week')} / ${readFigures('memory', 'week')} = ${readRatio('week')}; adherenceOf 30 ${readFigures('tables', 'month')} / ${readFigures('memory', 'month')} = ${readRatio('month')}; the three at once ${readFigures('tables', 'together')} / ${readFigures('memory', 'together')}; (${memoryMarks} marks of the last 30 days in memory)`,
    );
    // The target is the screen's: from its first read to its rows, the replica open (the app opens it at
    // start, before any screen renders). The time from the app's start is printed beside it.
    const coldMet = cold.renderMs <= TARGET_MS;
    const warmMet = percentile(real.rows, 0.95) <= TARGET_MS;
    console.log(
      `  target ${TARGET_MS} ms (from the first read to the rows in the DOM): cold ${coldMet ? 'met' : 'NOT met'} (${ms(cold.renderMs)}; with the app's start ${ms(cold.rowsMs)}: ${cold.rowsMs <= TARGET_MS ? 'within' : 'over'} ${TARGET_MS} ms), warm p95 ${warmMet ? 'met' : 'NOT met'} (${ms(percentile(real.rows, 0.95))})`,
    );
    console.log(`target ${TARGET_MS} ms: ${coldMet && warmMet ? 'met' : 'NOT met'}`);
  } finally {
    await context?.close();
    server.close();
    await rm(profileDir, { recursive: true, force: true });
  }
}

await main();
