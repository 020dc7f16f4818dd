import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLabReport } from '../../src/domain/lab-extraction';
import { labResultSchema } from '../../src/domain/lab-results';
import type { OcrPageLayout } from '../../src/domain/ocr-layout';
import { createOcrService, type OcrService } from '../../src/server/ocr/ocr-service';
import { loadCorpus, loadFamilies, type LabDocument } from '../fixtures/lab-reports/corpus';
import { generateDocuments } from '../fixtures/lab-reports/generate';
import { layOut } from '../fixtures/lab-reports/layout';
import { renderInput, renderPhotos, renderScanPdf, renderTextPdf } from '../fixtures/lab-reports/render';
import { scoreExtraction, totalScores, truthAsExtraction } from '../fixtures/lab-reports/score';
import { loadForeignCorpus } from '../fixtures/lab-reports/foreign/corpus';
import { generateForeignDocuments } from '../fixtures/lab-reports/foreign/generate';
import { createForeignRenderer } from '../fixtures/lab-reports/foreign/render';

// The lab-report corpus (tests/fixtures/lab-reports) and its scorer, and extraction over a few of its text
// PDFs and one phone photo through the real OCR service. The full corpus, scans and photos included, is the extraction
// benchmark's (tests/bench/extraction.ts): too slow for every run.

const corpus = loadCorpus();
const byId = (id: string): LabDocument => {
  const document = corpus.find((candidate) => candidate.id === id);
  if (!document) throw new Error(`no corpus document ${id}`);
  return document;
};

describe('the lab-report corpus', () => {
  it('has at least 25 documents from at least 6 families, a fifth of the families held out', () => {
    const families = loadFamilies();
    expect(corpus.length).toBeGreaterThanOrEqual(25);
    expect(new Set(corpus.map((document) => document.family)).size).toBeGreaterThanOrEqual(6);
    const heldOut = families.filter((family) => family.heldOut).length;
    expect(heldOut).toBe(Math.round(families.length / 5));
    for (const family of families)
      expect(corpus.some((document) => document.family === family.id)).toBe(true);
  });

  it('holds truth files that are valid results, with each LOINC code once per document', () => {
    for (const document of corpus) {
      for (const row of document.truth.lab_results) expect(labResultSchema.safeParse(row).success).toBe(true);
      const codes = document.truth.lab_results.map((row) => row.code);
      expect(codes.every(Boolean), document.id).toBe(true);
      expect(new Set(codes).size, document.id).toBe(codes.length);
      expect(document.truth.doctor_name).not.toMatch(/\b(?:Dr|MD|DO)\b|,/);
      expect(layOut(document)).toHaveLength(document.pages.length); // every page's text fits on it
    }
  });

  it('is what generate.ts writes (the JSON was not edited by hand, nor the generator left unrun)', () => {
    const generated = generateDocuments().sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(corpus).toEqual(generated);
  });

  it('renders the same bytes every time', async () => {
    const document = byId('side-by-side-1');
    expect((await renderTextPdf(document)).equals(await renderTextPdf(document))).toBe(true);
    expect((await renderScanPdf(document)).equals(await renderScanPdf(document))).toBe(true);
    const [first] = renderPhotos(document);
    const [again] = renderPhotos(document);
    expect(first && again && first.equals(again)).toBe(true);
  });
});

describe('the corpus scorer', () => {
  const document = byId('classic-1');

  it('scores the truth itself as perfect', () => {
    const score = scoreExtraction(document, truthAsExtraction(document));
    const totals = totalScores([score]);
    expect(score.misses).toEqual([]);
    expect([totals.precision, totals.recall, totals.f1, totals.autoAcceptedPrecision]).toEqual([1, 1, 1, 1]);
    expect([totals.doctorFound, totals.dateFound]).toEqual([1, 1]);
  });

  it('counts a wrong value, a missing row, an extra row and a wrong date', () => {
    const extraction = truthAsExtraction(document);
    const [first, second, ...rest] = extraction.lab_results;
    if (!first || !second) throw new Error('classic-1 has rows');
    const wrong = { ...first, value: `${first.value}1` };
    extraction.lab_results = [wrong, ...rest, { ...second, name: 'Unheard Of', code: '99999-9' }];
    extraction.report_date = document.other_dates[0] ?? null;
    const score = scoreExtraction(document, extraction);
    const totals = totalScores([score]);
    expect(score.misses).toContainEqual({
      row: first.name,
      field: 'value',
      expected: first.value,
      got: wrong.value,
    });
    expect(score.misses.filter((miss) => miss.field === 'row')).toHaveLength(2);
    expect(totals.recall).toBeLessThan(1);
    expect(totals.precision).toBeLessThan(1);
    expect(totals.autoAcceptedPrecision).toBeLessThan(1);
    expect([score.dateFound, score.otherDateGiven]).toEqual([false, true]);
  });

  it('takes a value and range as printed, give or take spacing and thousands separators', () => {
    const counts = byId('inline-units-1');
    const extraction = truthAsExtraction(counts);
    extraction.lab_results = extraction.lab_results.map((row) => ({
      ...row,
      reference_range: row.reference_range.replace('-', ' - '),
      value: /^\d{4,}$/.test(row.value) ? row.value.replace(/(\d{3})$/, ',$1') : row.value,
    }));
    expect(extraction.lab_results.some((row) => row.value.includes(','))).toBe(true);
    expect(totalScores([scoreExtraction(counts, extraction)]).f1).toBe(1);
  });
});

describe('extraction over text PDFs of the corpus', () => {
  let ocr: OcrService;
  beforeAll(() => {
    ocr = createOcrService({ workers: 1 });
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reaches F1 >= 0.98 on three families (one table, a table per section, two pages)', async () => {
    const documents = ['classic-1', 'range-first-2', 'multipage-1'].map(byId);
    const scores = [];
    for (const document of documents) {
      const result = await ocr.recognize(await renderTextPdf(document), 'application/pdf');
      expect(result.source).toBe('text-layer');
      const layout: OcrPageLayout[] = result.layout;
      scores.push(scoreExtraction(document, extractLabReport(layout)));
    }
    const totals = totalScores(scores);
    const misses = scores.flatMap((score, index) =>
      score.misses.map((miss) => ({ document: documents[index]?.id, ...miss })),
    );
    expect(totals.f1, JSON.stringify(misses.slice(0, 12), null, 1)).toBeGreaterThanOrEqual(0.98);
    expect(totals.doctorFound).toBe(1);
    expect(totals.dateFound).toBe(1);
  });

  it("reads a report another producer printed (the foreign corpus's, as generate.ts writes it)", async () => {
    // Chromium's print of a landscape cumulative report whose header is printed over three lines.
    const foreign = loadForeignCorpus();
    expect(foreign).toEqual(generateForeignDocuments().sort((a, b) => (a.id < b.id ? -1 : 1)));
    const document = foreign.find((candidate) => candidate.id === 'cumulative-landscape-1');
    if (!document) throw new Error('no foreign document cumulative-landscape-1');
    const renderer = createForeignRenderer();
    const [file] = await renderer.render(document, 'text').finally(() => renderer.close());
    const result = await ocr.recognize(file!.bytes, file!.contentType);
    const score = scoreExtraction(document, extractLabReport(result.layout));
    expect(totalScores([score]).f1, JSON.stringify(score.misses.slice(0, 12), null, 1)).toBe(1);
    expect([score.doctorFound, score.dateFound, score.acceptedWrong]).toEqual([true, true, []]);
  }, 30_000);

  it('reads a phone photo of a page at an angle on a desk: found, straightened, its rows right', async () => {
    const document = byId('flag-first-1');
    const [photo] = await renderInput(document, 'photo');
    const result = await ocr.recognize(photo!.bytes, photo!.contentType);
    // The words stand on the straightened page, drawn larger than it lay in the photo.
    const [page] = result.layout;
    const { width } = imageSize(photo!.bytes);
    expect(page!.width).toBeGreaterThan(width!);
    const score = scoreExtraction(document, extractLabReport(result.layout));
    const totals = totalScores([score]);
    // Read as it lay (tesseract on the photo as it is), this photo missed 15 fields; prepared, 2.
    expect(totals.f1, JSON.stringify(score.misses, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(totals.doctorFound).toBe(1);
    expect(totals.dateFound).toBe(1);
    expect(score.acceptedWrong).toEqual([]);
  }, 60_000);
});
