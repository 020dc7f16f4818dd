import { describe, expect, it } from 'vitest';
import { extractLabReport } from '../../../src/domain/lab-extraction';
import { layoutPage } from './lab-layout';

// How other producers print a report's fields (tests/fixtures/lab-reports/foreign: reports printed by
// Chromium): ranges in brackets with spaces in them, a label with no known word ending the doctor's name,
// fields parted by bars, a portal that prints the normal range above the value.

const TODAY = { today: '2026-11-29' };
const read = (lines: string[]) => extractLabReport([layoutPage(lines)], TODAY);

describe('extractLabReport: fields as other producers print them', () => {
  it('reads a range in brackets with spaces inside them as the range', () => {
    const rows = read([
      'Test          Result    Units      Reference range',
      'Sodium        142       mmol/L     (135 - 146)',
      'eGFR          76        mL/min     ( > 60 )',
    ]).lab_results;
    expect(rows.map(({ reference_range, needs_review }) => [reference_range, needs_review])).toEqual([
      ['135 - 146', false],
      ['>60', false],
    ]);
  });

  it("ends the doctor's name at the next field's label, whatever its words", () => {
    const report = read([
      'Requested by: Dr Leila Haddad Authorised by: Dr Helen Varga, Consultant Chemical Pathologist',
      'Test          Result    Units      Reference range',
      'Sodium        142       mmol/L     135-146',
    ]);
    expect(report.doctor_name).toBe('Leila Haddad');
  });

  it('parts fields at a bar between them', () => {
    const report = read([
      'Pt: Lang, Henry | DOB 03/11/1992 | Ordering: Patel, Rajesh MD | cc: Moss, Brian MD',
      'Collected 02/11/2024 08:15 | Received 02/11/2024 | Final 02/14/2024',
      'Analyte          Result    Ref. Interval   Units',
      'Sodium, Serum    138       135-146         mmol/L',
    ]);
    expect([report.doctor_name, report.report_date]).toEqual(['Rajesh Patel', '2024-02-11']);
  });

  it('gives a test block the normal range printed above its value', () => {
    const rows = read([
      'Glucose',
      'Normal range: 65 - 99 mg/dL',
      'Value 105 mg/dL (High)',
      '',
      'TSH',
      'Normal range: 0.40 - 4.50 uIU/mL',
      'Value 2.10 uIU/mL',
    ]).lab_results;
    expect(
      rows.map(({ name, value, unit, flag, reference_range }) => [name, value, unit, flag, reference_range]),
    ).toEqual([
      ['Glucose', '105', 'mg/dL', 'H', '65 - 99'],
      ['TSH', '2.10', 'uIU/mL', '', '0.40 - 4.50'],
    ]);
  });

  it("reads an SI count's unit whose caret and L OCR misread ('x1029/1' for x10^9/L)", () => {
    const rows = extractLabReport(
      [
        layoutPage(
          [
            'Test          Result    Units      Reference',
            'Neutrophils   6.18      x1029/1    1.50 - 7.80',
            'Platelets     250       x10 9/1.   140 - 400',
            'RBC           4.93      x10-12/1   4.20 - 5.80',
            'WBC           6.1       x10/9/L    3.8 - 10.8',
          ],
          { source: 'ocr' },
        ),
      ],
      TODAY,
    ).lab_results;
    expect(rows.map(({ code, unit, needs_review }) => [code, unit, needs_review])).toEqual([
      ['751-8', '10^3/uL', false],
      ['777-3', '10^3/uL', false],
      ['789-8', '10^6/uL', false],
      ['6690-2', '10^3/uL', false],
    ]);
  });

  it('gives a row the reference range printed on the line under it, and reviews one read with neither', () => {
    const rows = read([
      'Glucose                 88',
      '   Reference range: 65-99 mg/dL',
      'Creatinine              0.53   LOW',
      '   Reference range: 0.70-1.33 mg/dL',
      'Cholesterol, Total      234    HIGH',
      '   Reference range: <200 mg/dL',
      'Sodium                  141',
    ]).lab_results;
    expect(
      rows.map(({ name, unit, flag, reference_range, needs_review }) => [
        name,
        unit,
        flag,
        reference_range,
        needs_review,
      ]),
    ).toEqual([
      ['Glucose', 'mg/dL', '', '65-99', false],
      ['Creatinine', 'mg/dL', 'L', '0.70-1.33', false],
      ['Total Cholesterol', 'mg/dL', 'H', '<200', false],
      ['Sodium', '', '', '', true],
    ]);
  });

  it("reviews a value OCR read four times or more beyond its range; a PDF's own text is believed", () => {
    const lines = ['Test   Result   Units   Reference Range', 'BUN    1        mg/dL   7-25'];
    const [ocr] = extractLabReport([layoutPage(lines, { source: 'ocr' })], TODAY).lab_results;
    const [text] = read(lines).lab_results;
    expect([ocr?.flag, ocr?.review_reasons]).toEqual(['L', ['value-outside-plausible']]);
    expect([text?.flag, text?.needs_review]).toEqual(['L', false]);
  });
});
