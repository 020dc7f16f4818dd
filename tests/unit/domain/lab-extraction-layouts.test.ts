import { describe, expect, it } from 'vitest';
import { extractLabReport } from '../../../src/domain/lab-extraction';
import { layoutPage } from './lab-layout';

// Layouts real reports use beyond one plain table: a cumulative report's dated columns, limits in columns
// of their own, a differential's percentage and count side by side, flags in words in the value, and the
// ordering doctor among other names. Each page is written as monospace text and laid out as OCR reports it.

const read = (lines: string[]) => extractLabReport([layoutPage(lines)], { today: '2026-11-29' });
const rowsOf = (lines: string[]) =>
  read(lines).lab_results.map(({ name, value, unit, flag, reference_range }) => [
    name,
    value,
    unit,
    flag,
    reference_range,
  ]);

describe('extractLabReport: layouts beyond one plain table', () => {
  it('reads a cumulative report: the newest dated column is the result, and its date the report date', () => {
    const report = read([
      'Test              08/15/2026   11/20/2026   05/01/2026   Units   Reference Range',
      'Glucose           98           105 H        92           mg/dL   70-99',
      'Creatinine        1.0          1.1          0.9          mg/dL   0.6-1.3',
    ]);
    expect(report.report_date).toBe('2026-11-20');
    expect(report.lab_results.map(({ name, value, flag }) => [name, value, flag])).toEqual([
      ['Glucose', '105', 'H'],
      ['Creatinine', '1.1', ''],
    ]);
  });

  it('keeps a collection date over a cumulative column, and reads a previous result column as no result', () => {
    const report = read([
      'Collected: 11/18/2026',
      'Test            Result    Flag   Previous Result   Units    Reference Range',
      'Glucose         105       H      98                mg/dL    70-99',
    ]);
    expect(report.report_date).toBe('2026-11-18');
    expect(report.lab_results.map(({ value }) => value)).toEqual(['105']);
  });

  it('makes the range from separate low and high limit columns; "High" alone titles a flag column', () => {
    expect(
      rowsOf([
        'Test           Result   Units    Low    High   Flag',
        'Glucose        105      mg/dL    70     99     H',
        'Potassium      3.2      mmol/L   3.5    5.1    L',
      ]),
    ).toEqual([
      ['Glucose', '105', 'mg/dL', 'H', '70-99'],
      ['Potassium', '3.2', 'mmol/L', 'L', '3.5-5.1'],
    ]);
    expect(
      rowsOf([
        'Test           Result   High   Units    Reference Range',
        'Glucose        105      H      mg/dL    70-99',
      ]),
    ).toEqual([['Glucose', '105', 'mg/dL', 'H', '70-99']]);
  });

  it("reads a differential's percentage and absolute count side by side as two results", () => {
    const rows = read([
      'Test            Result   Units     Result   Units    Reference',
      'Neutrophils     60       %         3.6      K/uL     1.8-7.7',
      'Lymphocytes     30       %         1.8      K/uL     1.0-4.8',
    ]).lab_results;
    expect(rows.map(({ code, value }) => [code, value]).sort()).toEqual(
      [
        ['770-8', '60'],
        ['751-8', '3.6'],
        ['736-9', '30'],
        ['731-0', '1.8'],
      ].sort(),
    );
  });

  it('reads a flag written in words inside the value cell, in parentheses or not', () => {
    expect(
      rowsOf([
        'Test             Result          Units    Reference Range',
        'Hemoglobin       10.4 (Low)      g/dL     12.0-15.5',
        'WBC              11.2 High       K/uL     4.0-10.5',
      ]).map(([name, value, , flag]) => [name, value, flag]),
    ).toEqual([
      ['Hemoglobin', '10.4', 'L'],
      ['WBC', '11.2', 'H'],
    ]);
  });

  it('finds the doctor who requested the tests, not the one copied nor the lab director', () => {
    expect(
      read([
        'Patient: Jane Roe            DOB: 02/03/1955',
        'Copy to: Dr. Alice Brown',
        'Laboratory Director: Robert King, MD, PhD',
        'Requested by: SMITH, JOHN MD',
        'Test      Result   Units   Range',
        'Glucose   95       mg/dL   70-99',
      ]).doctor_name,
    ).toBe('John Smith');
  });

  it.each([
    ['its name in the same run of words, with no colon', 'Ordering Physician Jane Smith MD'],
    ['a copied-to physician listed first', 'CC Physician: Dr. Alice Brown\nPhysician: Dr. Jane Smith'],
    ['a pathologist beside it', 'Pathologist: Mark Lee, MD\nProvider: Jane Smith, MD'],
    ['"Referred by"', 'Referred by: Dr. Jane Smith'],
    ["Epic's 'Authorizing Provider'", 'Authorizing Provider: Jane Smith, MD'],
    ['"Ordering:" alone', 'Ordering: SMITH, JANE MD'],
    ["a photo's colon read as a full stop", 'Ordered by. Dr. Jane Smith'],
    ["a photo's colon read as a semicolon", 'Ordering Physician; Jane Smith, MD'],
  ])('finds the ordering doctor with %s', (_case, lines) => {
    expect(
      extractLabReport([
        layoutPage([...lines.split('\n'), 'Test   Result   Units   Range', 'Glucose   95   mg/dL   70-99'], {
          runs: true,
        }),
      ]).doctor_name,
    ).toBe('Jane Smith');
  });

  it('finds no doctor where only the lab director is named', () => {
    expect(
      read([
        'Medical Director: Robert King, MD',
        'Test   Result   Units   Range',
        'Glucose   95   mg/dL   70-99',
      ]).doctor_name,
    ).toBeNull();
  });

  it('takes the collection date however it is labelled, over the received and reported dates', () => {
    for (const lines of [
      ['Collection: 11-18-2026 07:45 AM', 'Reported: 11/20/2026'],
      ['Coll Date: 11/18/2026   Rec Date: 11/19/2026'],
      ['Received: 11/19/2026', 'Collected: 11/18/2026'],
      ['Reported: 11/20/2026', 'Specimen Date: 11/18/2026'],
    ])
      expect(
        read([...lines, 'Test   Result   Units   Range', 'Glucose   95   mg/dL   70-99']).report_date,
      ).toBe('2026-11-18');
  });

  it('reads counts in words (Thousand/uL, Million/uL) as the units they are, with no review', () => {
    const rows = read([
      'Component     Value    Flag   Standard Range    Units',
      'WBC           6.2             4.0 - 10.5        Thousand/uL',
      'RBC           4.10     L      4.20 - 5.80       Million/uL',
    ]).lab_results;
    expect(rows.map(({ code, unit, needs_review }) => [code, unit, needs_review])).toEqual([
      ['6690-2', 'Thousand/uL', false],
      ['789-8', 'Million/uL', false],
    ]);
  });

  it('takes a flag word standing between the result and the range as the flag, not part of the range', () => {
    expect(
      rowsOf([
        'Test                          Result            Reference Range',
        'Cholesterol, Total            212 mg/dL  High   <200 mg/dL',
      ]),
    ).toEqual([['Total Cholesterol', '212', 'mg/dL', 'H', '<200']]);
  });

  const ROWS = [
    'Glucose            105       H      mg/dL       70-99',
    'Sodium             140              mmol/L      136-145',
  ];
  const EXPECTED = [
    ['Glucose', '105', 'mg/dL', 'H', '70-99'],
    ['Sodium', '140', 'mmol/L', '', '136-145'],
  ];
  it.each([
    ['Lab Test           Your Result  H/L   Units       Normal Range'],
    ['Test Performed     Result    Flag   Units       Normal Value'],
    ['Analyte            Value     Abn    Units       Ref. Interval'],
  ])('reads the columns of the header %s', (header) => {
    expect(rowsOf([header, ...ROWS])).toEqual(EXPECTED);
  });

  it('reads past a specimen column, and a range in brackets with or without a header', () => {
    expect(
      rowsOf([
        'Test          Specimen   Result   Units   Reference Range',
        'Glucose       Serum      105      mg/dL   70-99',
      ]),
    ).toEqual([['Glucose', '105', 'mg/dL', 'H', '70-99']]);
    expect(rowsOf(['Glucose  105 mg/dL  (70-99)  H', 'Sodium  140 mmol/L  [136-145]'])).toEqual(EXPECTED);
  });

  it('takes the one interval or bound of a range with words about it; two stay as printed, for review', () => {
    const rows = read([
      'Test         Result    Units   Reference Range',
      'LDL          131       mg/dL   <100 Optimal',
      'Glucose      105       mg/dL   Fasting: 70-99',
      'Hemoglobin   14.1      g/dL    Male: 13.5-17.5 Female: 12.0-15.5',
    ]).lab_results;
    expect(rows.map(({ reference_range, needs_review }) => [reference_range, needs_review])).toEqual([
      ['<100', false],
      ['70-99', false],
      ['Male: 13.5-17.5 Female: 12.0-15.5', true],
    ]);
  });

  it("reads a flag printed before the result in its cell, and leaves a lab's test code out of the name", () => {
    expect(
      rowsOf([
        'Test                      Result      Units    Reference Range',
        '001453 Hemoglobin A1c     H  6.1      %        4.8-5.6',
        '322000 Glucose            105         mg/dL    65-99',
      ]),
    ).toEqual([
      ['Hemoglobin A1c', '6.1', '%', 'H', '4.8-5.6'],
      ['Glucose', '105', 'mg/dL', 'H', '65-99'],
    ]);
  });
});
