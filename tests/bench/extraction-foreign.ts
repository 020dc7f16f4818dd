import { extractLabReport } from '../../src/domain/lab-extraction';
import type { LabExtraction } from '../../src/domain/lab-results';
import type { OcrPageLayout } from '../../src/domain/ocr-layout';
import type { OcrService } from '../../src/server/ocr/ocr-service';
import {
  loadForeignCorpus,
  loadForeignFamilies,
  type ForeignDocument,
} from '../fixtures/lab-reports/foreign/corpus';
import { createForeignRenderer, type ForeignKind } from '../fixtures/lab-reports/foreign/render';
import { scoreExtraction, totalScores, type DocumentScore } from '../fixtures/lab-reports/score';
import { fixed, percent, printMisses, printTotals } from './extraction-report';

// The extraction benchmark's second section: the foreign-producer corpus (tests/fixtures/lab-reports/
// foreign), reports written as HTML and printed to PDF by Chromium in fonts, sizes and layouts the first
// corpus never used, read as text PDFs, 300 dpi scans and phone photos through the same OCR service and
// extraction, and
// scored by the same scorer. Held out from tuning: it is there to show what breaks on another producer.
// Its figures are printed per family, since a family far below the others is a layout not read.

export type ForeignRun = {
  document: ForeignDocument;
  kind: ForeignKind;
  score: DocumentScore;
  ms: number;
  /** Files read: one PDF, or one photo a page. */
  pages: number;
  error: string | null;
};

const EMPTY: LabExtraction = { doctor_name: null, report_date: null, lab_results: [], report_type: null };

export async function readForeign(
  ocr: OcrService,
  kinds: ForeignKind[],
  filter: { doc: string | null; limit: number | null },
): Promise<ForeignRun[]> {
  let corpus = loadForeignCorpus();
  if (filter.doc) corpus = corpus.filter((document) => document.id === filter.doc);
  if (filter.limit) {
    // The first document of each family, then the second of each: a limit still spans the families.
    const rank = (document: ForeignDocument) => Number(/-(\d+)$/.exec(document.id)?.[1] ?? 0);
    corpus = [...corpus].sort((a, b) => rank(a) - rank(b)).slice(0, filter.limit);
  }
  const renderer = createForeignRenderer();
  const runs: ForeignRun[] = [];
  try {
    for (const kind of kinds) {
      for (const document of corpus) {
        const files = await renderer.render(document, kind);
        const started = performance.now();
        let extraction = EMPTY;
        let error: string | null = null;
        try {
          // Photos are read one by one and their pages joined, as the first corpus's are.
          const layout: OcrPageLayout[] = [];
          for (const file of files) {
            const result = await ocr.recognize(file.bytes, file.contentType);
            for (const page of result.layout) layout.push({ ...page, page: layout.length + 1 });
          }
          extraction = extractLabReport(layout);
        } catch (failure) {
          error = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
        }
        const ms = performance.now() - started;
        const score = scoreExtraction(document, extraction);
        runs.push({ document, kind, score, ms, pages: files.length, error });
        console.log(
          `  read ${document.id} (foreign) as ${kind}: ${ms.toFixed(0)} ms, ${score.misses.length} misses${error ? ' (ERROR)' : ''}`,
        );
      }
    }
  } finally {
    await renderer.close();
  }
  return runs;
}

export function printForeign(runs: ForeignRun[]): void {
  if (runs.length === 0) return;
  console.log(
    '\n=== Foreign producer (Chromium-printed HTML; fonts, sizes and layouts the corpus above never used; held out) ===',
  );
  printMisses(
    runs.map((run) => ({
      label: `${run.document.id} (${run.kind}, foreign)`,
      score: run.score,
      error: run.error,
    })),
  );
  console.log('\nForeign producer, field-level scores:');
  const kinds = [...new Set(runs.map((run) => run.kind))];
  for (const kind of kinds)
    printTotals(
      kind,
      'foreign',
      totalScores(runs.filter((run) => run.kind === kind).map((run) => run.score)),
      true,
    );
  console.log('\n  per family          kind   docs  F1     accepted  right   doctor  date');
  for (const family of loadForeignFamilies()) {
    for (const kind of kinds) {
      const own = runs.filter((run) => run.kind === kind && run.document.family === family.id);
      if (own.length === 0) continue;
      const totals = totalScores(own.map((run) => run.score));
      console.log(
        `  ${family.id.padEnd(20)} ${kind.padEnd(5)} ${String(totals.documents).padStart(4)}  ${fixed(totals.f1)}  ` +
          `${String(totals.autoAccepted).padStart(8)}  ${fixed(totals.autoAcceptedPrecision).padEnd(6)}  ` +
          `${percent(totals.doctorFound).padStart(6)}  ${percent(totals.dateFound).padStart(6)}`,
      );
    }
  }
}
