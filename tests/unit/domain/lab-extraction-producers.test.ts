import { describe, expect, it } from 'vitest';
import { extractLabReport } from '../../../src/domain/lab-extraction';
import type { OcrPageLayout, OcrWord } from '../../../src/domain/ocr-layout';
import { layoutPage } from './lab-layout';

// What another producer's PDFs do that the first corpus's never did (tests/fixtures/lab-reports/foreign:
// reports printed by Chromium): a header row printed over several text lines, a word's pieces held apart
// by a ligature, columns whose header words say little. Pages are written as monospace text (lab-layout.ts)
// and then moved the way those PDFs place their words.

const TODAY = { today: '2026-11-29' };
const LINE = 16; // lab-layout.ts's distance between lines

/** Moves the words of line `index` down by `by` (up when negative). */
function shiftLine(page: OcrPageLayout, index: number, by: number): OcrPageLayout {
  const top = 20 + index * LINE;
  const words = page.words.map((word) =>
    Math.abs(word.y0 - top) < 1 ? { ...word, y0: word.y0 + by, y1: word.y1 + by } : word,
  );
  return { ...page, words };
}

/** Cuts a word into pieces that touch end to start, as a text layer holds a ligature apart. */
function cutWord(page: OcrPageLayout, text: string, pieces: string[]): OcrPageLayout {
  const words = page.words.flatMap((word): OcrWord[] => {
    if (word.text !== text) return [word];
    const step = (word.x1 - word.x0) / word.text.length;
    let x = word.x0;
    return pieces.map((piece) => {
      const cut = { ...word, text: piece, x0: x, x1: x + piece.length * step };
      x = cut.x1;
      return cut;
    });
  });
  return { ...page, words };
}

const rowsOf = (page: OcrPageLayout) =>
  extractLabReport([page], TODAY).lab_results.map(({ name, value, flag, reference_range }) => [
    name,
    value,
    flag,
    reference_range,
  ]);

describe('extractLabReport: what other producers do', () => {
  // A cumulative table's header cells: each date over its time, 'Test' and 'Units' set between them.
  const cumulative = [
    'Printed: 11/25/2026',
    '              11/20/2026   08/15/2026',
    'Test                                    Units   Reference Range',
    '              09:30        10:05',
    'Glucose       105 H        98           mg/dL   70-99',
    'Creatinine    1.1          0.9          mg/dL   0.6-1.3',
    'Sodium        141          139          mmol/L  135-146',
    'Potassium     4.4          4.0          mmol/L  3.5-5.1',
  ];
  const stacked = () => shiftLine(shiftLine(layoutPage(cumulative), 1, 10), 3, -10);

  it('reads a header printed over three text lines (dates over times, titles between them)', () => {
    expect(rowsOf(stacked())).toEqual([
      ['Glucose', '105', 'H', '70-99'],
      ['Creatinine', '1.1', '', '0.6-1.3'],
      ['Sodium', '141', '', '135-146'],
      ['Potassium', '4.4', '', '3.5-5.1'],
    ]);
  });

  it("gives the current column's day as the report date over a printed date", () => {
    expect(extractLabReport([stacked()], TODAY).report_date).toBe('2026-11-20');
  });

  it('joins the pieces of a word that a ligature held apart', () => {
    const page = cutWord(
      layoutPage([
        'Test            Result         Reference Range',
        'Influenza A     Not Detected   Not Detected',
      ]),
      'Influenza',
      ['In', 'fl', 'uenza'],
    );
    expect(rowsOf(page)).toEqual([['Influenza A', 'Not Detected', '', 'Not Detected']]);
  });
});
