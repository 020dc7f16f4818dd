import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import type { LabDocument } from '../fixtures/lab-reports/corpus';
import { renderInput } from '../fixtures/lab-reports/render';
import { migratedPglite } from '../fixtures/database-template';

// Part of the extraction benchmark: a big upload must not stall other requests. The real app (buildApp on
// an in-memory PGlite, as the server tests build it) listens on a free port; GET /api/health is timed over
// HTTP while the app is idle, then while its own OCR service (app.ocr) reads a multi-page scan.

export type StallFigures = {
  pages: number;
  ocrMs: number;
  idle: number[];
  loaded: number[];
};

/** A scan of `pages` pages, each the first page of another document (the OCR service's page cap). */
export function bigScanDocument(corpus: readonly LabDocument[], pages: number): LabDocument {
  const sources = corpus.filter((document) => document.pages.length > 0).slice(0, pages);
  const first = sources[0];
  if (!first) throw new Error('the corpus is empty');
  return {
    ...first,
    id: `stall-scan-${sources.length}`,
    pages: sources.map((document) => document.pages[0] ?? { blocks: [] }),
  };
}

async function timedGet(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return performance.now() - start;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureStall(document: LabDocument, idleRequests: number): Promise<StallFigures> {
  const [scan] = await renderInput(document, 'scan');
  if (!scan) throw new Error('no scan rendered');
  const dataDir = mkdtempSync(join(tmpdir(), 'kincare-bench-extraction-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'extraction-bench-secret-that-is-long-enough-for-hs256',
    OCR_MAX_PAGES: String(Math.max(5, document.pages.length)),
    OCR_TIMEOUT_MS: '600000',
  });
  const database = await openDatabase({ pgliteDir: 'memory://', pgliteSnapshot: await migratedPglite() });
  const app = await buildApp({ config, db: database.db, distDir: join(dataDir, 'no-dist') });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/health`;
    for (let warm = 0; warm < 20; warm++) await timedGet(url);
    const idle: number[] = [];
    for (let request = 0; request < idleRequests; request++) {
      idle.push(await timedGet(url));
      await pause(20);
    }
    const loaded: number[] = [];
    let reading = true;
    const started = performance.now();
    const ocr = app.ocr.recognize(scan.bytes, scan.contentType).finally(() => {
      reading = false;
    });
    // As a phone polling the API would: one request at a time, a short pause between them.
    while (reading) {
      loaded.push(await timedGet(url));
      await pause(20);
    }
    await ocr;
    return { pages: document.pages.length, ocrMs: performance.now() - started, idle, loaded };
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
