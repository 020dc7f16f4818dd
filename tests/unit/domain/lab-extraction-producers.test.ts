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

  it("reads a table whose column titles are not all header words by what its cells hold, after another table's header", () => {
    const rows = extractLabReport(
      [
        layoutPage([
          'Test           Result   Flag   Units    Low    High',
          'Hemoglobin     14.2            g/dL     13.2   17.1',
          'Platelets      250             K/uL     140    400',
          '',
          'Differential   %      Ref. %        Absolute   Ref. Absolute   Units',
          'Neutrophils    58.2   40.0 - 74.0   3.61       1.50 - 7.80     x10^9/L',
          'Lymphocytes    30.1   14.0 - 46.0   1.87       0.85 - 3.90     x10^9/L',
        ]),
      ],
      TODAY,
    ).lab_results;
    expect(
      rows.map(({ code, value, unit, reference_range }) => [code, value, unit, reference_range]),
    ).toEqual([
      ['718-7', '14.2', 'g/dL', '13.2-17.1'],
      ['777-3', '250', 'K/uL', '140-400'],
      ['770-8', '58.2', '%', '40.0 - 74.0'],
      ['736-9', '30.1', '%', '14.0 - 46.0'],
      ['751-8', '3.61', 'x10^9/L', '1.50 - 7.80'],
      ['731-0', '1.87', 'x10^9/L', '0.85 - 3.90'],
    ]);
  });

  it('reads results side by side under titles that are units of their own as two results, not as days', () => {
    const rows = extractLabReport(
      [
        layoutPage([
          'Cell type     %      x10^9/L   Reference',
          'Neutrophils   58.2   3.61      1.50 - 7.80',
          'Monocytes     6.1    0.38      0.20 - 0.95',
        ]),
      ],
      TODAY,
    ).lab_results;
    expect(
      rows.map(({ code, value, reference_range, needs_review }) => [
        code,
        value,
        reference_range,
        needs_review,
      ]),
    ).toEqual([
      ['770-8', '58.2', '', false],
      ['5905-5', '6.1', '', false],
      ['751-8', '3.61', '1.50 - 7.80', false],
      ['742-7', '0.38', '0.20 - 0.95', false],
    ]);
  });

  it('takes a column title that is a unit as the unit of the results under it', () => {
    const rows = extractLabReport(
      [
        layoutPage([
          'Cell type     %      Reference     x10^9/L   Reference',
          'Neutrophils   58.2   40.0 - 74.0   3.61      1.50 - 7.80',
          'Monocytes     6.1    4.0 - 13.0    0.38      0.20 - 0.95',
        ]),
      ],
      TODAY,
    ).lab_results;
    expect(rows.map(({ code, unit, needs_review }) => [code, unit, needs_review])).toEqual([
      ['770-8', '%', false],
      ['5905-5', '%', false],
      ['751-8', 'x10^9/L', false],
      ['742-7', 'x10^9/L', false],
    ]);
  });

  it("gives a row the flag that wrapped onto the line below it, and takes no such line for a table's titles", () => {
    const rows = extractLabReport(
      [
        layoutPage([
          'Test      Result              Reference Interval   Test       Result     Reference Interval',
          'eGFR      55 mL/min/1.73m2    >= 60                Protein    Negative   Negative',
          '          (Low)               mL/min/1.73m2        Glucose    Negative   Negative',
          'Sodium    140 mmol/L          135 - 146 mmol/L     Ketones    Trace      Negative',
          'Calcium   9.1 mg/dL           8.6 - 10.3 mg/dL     Nitrite    Negative   Negative',
        ]),
      ],
      TODAY,
    ).lab_results;
    expect(
      rows.map(({ code, value, flag, reference_range, needs_review }) => [
        code,
        value,
        flag,
        reference_range,
        needs_review,
      ]),
    ).toEqual([
      ['98979-8', '55', 'L', '>=60', false],
      ['2951-2', '140', '', '135 - 146', false],
      ['17861-6', '9.1', '', '8.6 - 10.3', false],
      ['5804-0', 'Negative', '', 'Negative', false],
      ['5792-7', 'Negative', '', 'Negative', false],
      ['5797-6', 'Trace', '', 'Negative', false],
      ['5802-4', 'Negative', '', 'Negative', false],
    ]);
  });

  it('reads a monospaced printout through OCR, whose word gaps are as wide as a word is tall', () => {
    // Letters as wide as a space and boxes as tight as OCR draws them: a space is a word height wide.
    const mono = (page: OcrPageLayout): OcrPageLayout => ({
      ...page,
      words: page.words.map((word) => ({ ...word, y0: word.y0 + 2, y1: word.y1 - 2 })),
    });
    const page = mono(
      layoutPage(
        [
          'ORDERING DR: KELLER, ANNA MD    LOC: 4WEST',
          'COLL: 04/22/25 0815    RECD: 04/22/25 0930',
          'TEST                RESULT  FLAG  UNITS     REFERENCE',
          'UREA NITROGEN       14            mg/dL     7-25',
          'CARBON DIOXIDE      31            mmol/L    20-32',
          'PROTEIN, TOTAL      7.2           g/dL      6.1-8.1',
          'BILIRUBIN, TOTAL    1.6     H     mg/dL     0.2-1.2',
          'WBC COUNT           5.4           K/uL      3.8-10.8',
          'PLATELET COUNT      209           K/uL      140-400',
        ],
        { source: 'ocr' },
      ),
    );
    const report = extractLabReport([page], TODAY);
    expect([report.doctor_name, report.report_date]).toEqual(['Anna Keller', '2025-04-22']);
    expect(report.lab_results.map(({ code, value, flag }) => [code, value, flag])).toEqual([
      ['3094-0', '14', ''],
      ['2028-9', '31', ''],
      ['2885-2', '7.2', ''],
      ['1975-2', '1.6', 'H'],
      ['6690-2', '5.4', ''],
      ['777-3', '209', ''],
    ]);
  });

  it('reads a cumulative row whose dates OCR lost: the first result, with its own flag, for review', () => {
    const brief = (lines: string[]) =>
      extractLabReport([layoutPage(lines, { source: 'ocr' })], TODAY).lab_results.map(
        ({ name, value, flag, reference_range, needs_review }) => [
          name,
          value,
          flag,
          reference_range,
          needs_review,
        ],
      );
    // No header at all, and a header whose date columns read as nothing.
    const rows = [
      'Glucose      80       58 L     126 H    mg/dL    65-99',
      'Sodium       141      136      149 H    mmol/L   135-146',
    ];
    const expected = [
      ['Glucose', '80', '', '65-99', true],
      ['Sodium', '141', '', '135-146', true],
    ];
    expect(brief(rows)).toEqual(expected);
    expect(brief(['Test         1192023  0821223  3242023  Units    Reference Range', ...rows])).toEqual(
      expected,
    );
    // One date unread: the newest that read may not be the current one.
    expect(brief(['Test         1192023  08/21/23 03/24/23 Units    Reference Range', ...rows])).toEqual(
      expected,
    );
  });
});
