import { describe, expect, it } from 'vitest';
import { extractLabReport } from '../../../src/domain/lab-extraction';
import { datesIn, cleanDoctorName } from '../../../src/domain/lab-extraction-meta';
import { labResultSchema } from '../../../src/domain/lab-results';
import { layoutPage, type PageOptions } from './lab-layout';

// A lab report's table read from where OCR's words stand. Each page is written here as monospace
// text and laid out as OCR reports it (lab-layout.ts).

const extract = (lines: string[], options: PageOptions = {}) =>
  extractLabReport([layoutPage(lines, options)]);
const rowsOf = (lines: string[], options: PageOptions = {}) =>
  extract(lines, options).lab_results.map(({ name, value, unit, flag, reference_range }) => ({
    name,
    value,
    unit,
    flag,
    reference_range,
  }));

const LIPID = [
  'Quest Diagnostics                       Patient: John Doe',
  'Ordering Physician: Jane Smith, MD      DOB: 01/02/1960',
  'Collected: 03/14/2026 08:30             Reported: 03/15/2026',
  '',
  'Test Name               Result   Flag   Units    Reference Range',
  'LIPID PANEL',
  'Cholesterol, Total      212      H      mg/dL    <200',
  'HDL Cholesterol         45              mg/dL    >=40',
  'Triglycerides           1,250    H      mg/dL    <150',
  'LDL Chol Calc (NIH)     131      H      mg/dL    0-99',
  'Chol/HDL Ratio          4.7                      0.0-5.0',
];

const LIPID_ROWS = [
  { name: 'Total Cholesterol', value: '212', unit: 'mg/dL', flag: 'H', reference_range: '<200' },
  { name: 'HDL Cholesterol', value: '45', unit: 'mg/dL', flag: '', reference_range: '>=40' },
  { name: 'Triglycerides', value: '1250', unit: 'mg/dL', flag: 'H', reference_range: '<150' },
  { name: 'LDL Cholesterol', value: '131', unit: 'mg/dL', flag: 'H', reference_range: '0-99' },
  { name: 'Cholesterol/HDL Ratio', value: '4.7', unit: '', flag: '', reference_range: '0.0-5.0' },
];

describe('extractLabReport: the table', () => {
  it('reads a table under its header, with the doctor, the date and the panel', () => {
    const extraction = extract(LIPID);
    expect(rowsOf(LIPID)).toEqual(LIPID_ROWS);
    expect(extraction.doctor_name).toBe('Jane Smith');
    expect(extraction.report_date).toBe('2026-03-14');
    expect(extraction.report_type).toBe('Lipid Panel');
    expect(extraction.lab_results.map((result) => result.code)).toEqual([
      '2093-3',
      '2085-9',
      '2571-8',
      '13457-7',
      '9830-1',
    ]);
    expect(extraction.lab_results.every((result) => result.needs_review === false)).toBe(true);
    for (const result of extraction.lab_results) expect(labResultSchema.safeParse(result).success).toBe(true);
  });

  it('reads the columns in any order the header gives', () => {
    const lines = [
      'Reference Range   Units   Component       Flag   Your Value',
      '70-99             mg/dL   Glucose                95',
      '<200              mg/dL   Cholesterol     H      240',
      '3.5-5.1           mmol/L  Potassium       L      3.1',
    ];
    expect(rowsOf(lines)).toEqual([
      { name: 'Glucose', value: '95', unit: 'mg/dL', flag: '', reference_range: '70-99' },
      { name: 'Total Cholesterol', value: '240', unit: 'mg/dL', flag: 'H', reference_range: '<200' },
      { name: 'Potassium', value: '3.1', unit: 'mmol/L', flag: 'L', reference_range: '3.5-5.1' },
    ]);
  });

  it('reads a result in either of two result columns (In Range, Out Of Range)', () => {
    const lines = [
      'Test Name          In Range     Out Of Range     Reference Range     Lab',
      'Glucose            88                            65-99 mg/dL         EN',
      'Cholesterol                     241 H            <200 mg/dL          EN',
    ];
    expect(rowsOf(lines)).toEqual([
      { name: 'Glucose', value: '88', unit: 'mg/dL', flag: '', reference_range: '65-99' },
      { name: 'Total Cholesterol', value: '241', unit: 'mg/dL', flag: 'H', reference_range: '<200' },
    ]);
  });

  it('reads a table without a header by the shape of its cells', () => {
    const lines = [
      'Sodium                 140 mmol/L       136 - 145',
      'Potassium              5.4mg/dL         3.5-5.1',
      'Glucose                250H   mg/dL     70-99',
      'Creatinine             1.4 H            0.5-1.2 mg/dL',
      'Urine Protein          Negative         Negative',
    ];
    expect(rowsOf(lines)).toEqual([
      { name: 'Sodium', value: '140', unit: 'mmol/L', flag: '', reference_range: '136 - 145' },
      { name: 'Potassium', value: '5.4', unit: 'mg/dL', flag: 'H', reference_range: '3.5-5.1' },
      { name: 'Glucose', value: '250', unit: 'mg/dL', flag: 'H', reference_range: '70-99' },
      { name: 'Creatinine', value: '1.4', unit: 'mg/dL', flag: 'H', reference_range: '0.5-1.2' },
      { name: 'Urine Protein', value: 'Negative', unit: '', flag: '', reference_range: 'Negative' },
    ]);
  });

  it('reads two tables side by side, with and without a header, the left one first', () => {
    const withHeader = [
      'Test        Result  Units    Range          Test         Result  Units   Range',
      'WBC         6.2     K/uL     4.0-11.0       Sodium       140     mmol/L  136-145',
      'Hemoglobin  13.5    g/dL     12.0-16.0      Potassium    4.1     mmol/L  3.5-5.1',
    ];
    const names = (lines: string[]) =>
      extract(lines).lab_results.map((result) => `${result.name} ${result.value}`);
    expect(names(withHeader)).toEqual(['WBC 6.2', 'Hemoglobin 13.5', 'Sodium 140', 'Potassium 4.1']);
    const withoutHeader = withHeader.slice(1);
    expect(names(withoutHeader)).toEqual(['WBC 6.2', 'Hemoglobin 13.5', 'Sodium 140', 'Potassium 4.1']);
  });

  it('joins an analyte name wrapped over two lines, whichever line holds the value', () => {
    const lines = [
      'Test                  Result   Units     Reference Range',
      'Hemoglobin            5.4      %         4.0-5.6',
      'A1c',
      'Glycated              6.1      %         4.0-5.6',
      '(HbA1c)',
      'White Blood Cell',
      'Count                 7.2      K/uL      4.0-11.0',
    ];
    expect(extract(lines).lab_results.map((result) => `${result.name} ${result.value}`)).toEqual([
      'Hemoglobin A1c 5.4',
      'Hemoglobin A1c 6.1',
      'WBC 7.2',
    ]);
  });

  it('reads a second page without a header with the first page columns, and skips repeated headers and footers', () => {
    const top = ['Acme Labs  Patient: John Doe  Page 1 of 2'];
    const first = layoutPage(
      [
        ...top,
        'Test            Flag  Result   Units    Reference Range',
        'Glucose               95       mg/dL    70-99',
        ...Array(30).fill(''),
        'Acme Labs QC Index   2   %   0-5',
      ],
      { page: 1 },
    );
    const second = layoutPage(
      [
        top[0]!.replace('1 of 2', '2 of 2'),
        'Chemistry',
        'Calcium         H     10.9     mg/dL    8.6-10.3',
        ...Array(30).fill(''),
        'Acme Labs QC Index   2   %   0-5',
      ],
      { page: 2, scale: 2.5 },
    );
    const result = extractLabReport([second, first]);
    expect(result.lab_results.map((row) => `${row.name} ${row.value} ${row.flag}`)).toEqual([
      'Glucose 95 ',
      'Calcium 10.9 H',
    ]);
    expect(result.report_type).toBe('Basic Metabolic Panel');
  });

  it('tolerates a slight skew, tesseract line numbers, wobbling boxes and runs of words in one box', () => {
    for (const options of [
      { skew: 0.02 },
      { lineNumbers: true, source: 'ocr' as const, skew: 0.01 },
      { jitter: 2 },
      { runs: true },
    ]) {
      expect(rowsOf(LIPID, options), JSON.stringify(options)).toEqual(LIPID_ROWS);
    }
  });

  it('tells a differential percentage from its count, and reads a urinalysis in words', () => {
    const cbc = [
      'Neutrophils      55.0    %       40-74',
      'Neutrophils      3.4     K/uL    1.4-7.0',
      'Lymphs (Absolute)   1.9   x10E3/uL   0.7-3.1',
    ];
    expect(extract(cbc).lab_results.map((row) => row.code)).toEqual(['770-8', '751-8', '731-0']);
    const urine = [
      'URINALYSIS',
      'Color              Yellow          Yellow',
      'Appearance         Clear           Clear',
      'Specific Gravity   1.020           1.005-1.030',
      'pH                 6.0             5.0-8.0',
      'Glucose            Negative        Negative',
      'Protein            Trace    A      Negative',
      'Nitrite            Negative        Negative',
    ];
    const result = extract(urine);
    expect(result.lab_results.map((row) => `${row.name}=${row.value}`)).toEqual([
      'Urine Color=Yellow',
      'Urine Appearance=Clear',
      'Specific Gravity=1.020',
      'Urine pH=6.0',
      'Urine Glucose=Negative',
      'Urine Protein=Trace',
      'Nitrite=Negative',
    ]);
    expect(result.report_type).toBe('Urinalysis');
  });

  it('reads values right-aligned under a left-aligned header, and a skew of two degrees', () => {
    const lines = [
      'Test            Result     Units     Reference Range',
      'Sodium             140     mmol/L    136-145',
      'Glucose          1,105     mg/dL     70-99',
      'Potassium          4.1     mmol/L    3.5-5.1',
    ];
    const expected = ['Sodium 140', 'Glucose 1105', 'Potassium 4.1'];
    for (const skew of [0, 0.035, -0.035]) {
      expect(
        extract(lines, { skew }).lab_results.map((row) => `${row.name} ${row.value}`),
        String(skew),
      ).toEqual(expected);
    }
  });

  it('reads O for 0 and l for 1 in values', () => {
    const rows = rowsOf(['Glucose    1O5   mg/dL   70-99', 'Creatinine   l.2   mg/dL   0.5-1.3']);
    expect(rows.map((row) => row.value)).toEqual(['105', '1.2']);
  });

  it('prints flags as H, L, HIGH, Low or * and reads each', () => {
    const lines = [
      'Test           Result   Flag    Units   Reference Range',
      'Glucose        120      HIGH    mg/dL   70-99',
      'Sodium         130      Low     mmol/L  136-145',
      'Potassium      5.9      *       mmol/L  3.5-5.1',
      'Chloride       90       A       mmol/L  98-107',
      'Calcium        9.1              mg/dL   8.6-10.3',
    ];
    expect(rowsOf(lines).map((row) => row.flag)).toEqual(['H', 'L', 'H', 'L', '']);
  });

  it('leaves out rows without a value, sentences, addresses and labelled fields', () => {
    const lines = [
      'Patient ID: 12345',
      'Suite 200',
      '123 Main Street',
      'Glucose                 see note',
      'Results above 200 mg/dL indicate diabetes',
      'Page 1 of 2',
      'HbA1c                   5.6  %   4.0-5.6',
    ];
    expect(rowsOf(lines).map((row) => row.name)).toEqual(['Hemoglobin A1c']);
    expect(extract(lines).report_type).toBe('Hemoglobin A1c');
  });

  it('keeps an unknown analyte under its printed name, for review', () => {
    const [row] = extract(['Zonulin Serum      45   ng/mL   0-107']).lab_results;
    expect(row).toMatchObject({
      name: 'Zonulin Serum',
      value: '45',
      needs_review: true,
      review_reasons: ['name-unknown'],
    });
    expect(row?.code).toBeUndefined();
  });
});

describe('extractLabReport: checking each row', () => {
  const one = (line: string, options: PageOptions = {}) => extract([line], options).lab_results[0];

  it('computes the flag when none is printed, and reviews a printed flag that disagrees', () => {
    expect(one('Glucose   120   mg/dL   70-99')).toMatchObject({ flag: 'H', needs_review: false });
    expect(one('HDL Cholesterol   35   mg/dL   >40')).toMatchObject({ flag: 'L', needs_review: false });
    expect(one('Glucose   120  L   mg/dL   70-99')).toMatchObject({
      flag: 'L',
      review_reasons: ['flag-disagrees'],
    });
    expect(one('Glucose   85  H   mg/dL   70-99')).toMatchObject({
      needs_review: true,
      review_reasons: ['flag-disagrees'],
    });
    expect(one('Glucose   85  *   mg/dL')).toMatchObject({ review_reasons: ['flag-disagrees'] });
  });

  it('reviews a value outside what is plausible, and says when a decimal point was likely dropped', () => {
    expect(one('Hemoglobin A1c   31   %   4.0-5.6')?.review_reasons).toEqual([
      'value-outside-plausible',
      'decimal-suspect',
    ]);
    expect(one('Sodium   1400   mmol/L   136-145')?.review_reasons).toEqual([
      'value-outside-plausible',
      'decimal-suspect',
    ]);
    expect(one('Sodium   14   mmol/L   136-145')?.review_reasons).toEqual(['value-outside-plausible']);
    expect(one('Glucose   6.1   mmol/L   3.9-5.5')).toMatchObject({ needs_review: false, unit: 'mmol/L' });
  });

  it('reviews a word read with low confidence', () => {
    expect(one('Glucose   95~   mg/dL   70-99', { source: 'ocr' })?.review_reasons).toEqual([
      'low-confidence',
    ]);
    expect(one('Glucose   95   mg/dL   70-99', { source: 'ocr' })?.needs_review).toBe(false);
  });

  it('reviews a unit the analyte is not measured in, and gives an accepted one as printed', () => {
    // A PDF's own text is exact; OCR's spelling that the analyte table does not list is given as it lists it.
    expect(one('WBC   6.1   x10E3/uL   4.0-11.0')).toMatchObject({ unit: 'x10E3/uL', needs_review: false });
    expect(one('PT   11.2   sec   9.4-12.5', { source: 'ocr' })).toMatchObject({ unit: 'sec' });
    expect(one('ALT   21   u/L   9-46', { source: 'ocr' })).toMatchObject({ unit: 'U/L' });
    expect(one('TSH   2.1   ulU/mL   0.4-4.0', { source: 'ocr' })).toMatchObject({ unit: 'uIU/mL' });
    expect(one('Glucose   95   g/L   70-99')?.review_reasons).toEqual(['unit-unexpected']);
  });
});

describe('extractLabReport: what OCR misreads', () => {
  // name|value|unit|flag|range|review reasons
  const brief = (line: string) => {
    const row = extract([line], { source: 'ocr' }).lab_results[0];
    if (!row) return null;
    const reasons = (row.review_reasons ?? []).join(',');
    return [row.name, row.value, row.unit, row.flag, row.reference_range, reasons].join('|');
  };

  it.each([
    // A range whose decimal points were lost is mended, and the row reviewed instead of flagged.
    ['Potassium   4.1   mmol/L   35-53', 'Potassium|4.1|mmol/L||3.5-5.3|decimal-suspect'],
    ['WBC   6.2   K/uL   40-105', 'WBC|6.2|K/uL||4.0-10.5|decimal-suspect'],
    ['Basophils   0.5   %   00-15', 'Basophils %|0.5|%||0.0-1.5|decimal-suspect'],
    ['Free T3   3.2   pg/mL   23-4.2', 'Free T3|3.2|pg/mL||2.3-4.2|decimal-suspect'],
    // Too big to mend: no flag from it, and a review.
    ['Magnesium   2.0   mg/dL   300-400', 'Magnesium|2.0|mg/dL||300-400|decimal-suspect,range-unusual'],
    // A whole-number value: the lab prints whole numbers, so its range is not mended, only reviewed.
    ['Creatinine   9   mg/dL   50-120', 'Creatinine|9|mg/dL||50-120|decimal-suspect,range-unusual'],
    // Value and range that lost their points alike agree with each other: only the range's distance from
    // what labs print for the test (about 4-11 for a WBC) tells. Labs' own variety, other units, a 0 bound:
    // no doubt.
    ['WBC   75   K/uL   40-105', 'WBC|75|K/uL||40-105|range-unusual'],
    ['Glucose   5.2   mmol/L   3.9-5.5', 'Glucose|5.2|mmol/L||3.9-5.5|'],
    ['Hemoglobin   145   g/L   120-160', 'Hemoglobin|145|g/L||120-160|'],
    ['ALT   25   U/L   0-44', 'ALT|25|U/L||0-44|'],
    ['Total Cholesterol   180   mg/dL   <200', 'Total Cholesterol|180|mg/dL||<200|'],
    ['HDL Cholesterol   52   mg/dL   >39', 'HDL Cholesterol|52|mg/dL||>39|'],
    // A number with no unit, for a test that has one: the unit was lost with the rest of the row.
    ['Free T4   2.07', 'Free T4|2.07||||unit-unexpected'],
    ['Specific Gravity   1.020   1.005-1.030', 'Specific Gravity|1.020|||1.005-1.030|'],
    // A count read six times under its range by OCR: a digit lost (250) as often as a patient's 25.
    ['Platelets   25   K/uL   150-400', 'Platelets|25|K/uL|L|150-400|value-outside-plausible'],
    // Left alone: a range of thousands, a value far over its range.
    ['WBC   7,200   /uL   4,000-10,500', 'WBC|7200|/uL||4,000-10,500|'],
    ['TSH   5.70   uIU/mL   0.40-4.50', 'TSH|5.70|uIU/mL|H|0.40-4.50|'],
    ['Glucose   250   mg/dL   70-99', 'Glucose|250|mg/dL|H|70-99|'],
    // A whole number a decimal point would put inside a range printed with decimals.
    ['Monocytes   54   %   4.0-13.0', 'Monocytes %|54|%|H|4.0-13.0|decimal-suspect'],
    // A colon for a decimal point or a dash, a lost dash: mended, for review.
    ['Creatinine   1:18   mg/dL   0.60-1.35', 'Creatinine|1.18|mg/dL||0.60-1.35|low-confidence'],
    ['MCHC   33:2   g/dL   32.0-36.0', 'MCHC|33.2|g/dL||32.0-36.0|low-confidence'],
    ['MPV   9.1   fL   7.5:12.5', 'MPV|9.1|fL||7.5-12.5|low-confidence'],
    ['Free T3   3.2   pg/mL   2.34.2', 'Free T3|3.2|pg/mL||2.3-4.2|low-confidence'],
    // A name a character or two off is the analyte's, for review; a far one stays unknown.
    ['COo2   27   mmol/L   20-32', 'Carbon Dioxide|27|mmol/L||20-32|low-confidence'],
    ['Potasium   4.1   mmol/L   3.5-5.1', 'Potassium|4.1|mmol/L||3.5-5.1|low-confidence'],
    ['Zonulin   45   ng/mL   0-107', 'Zonulin|45|ng/mL||0-107|name-unknown'],
    // Units OCR bent: a caret read as 7 (no doubt), a letter off (reviewed).
    ['WBC   6.2   x1073/uL   4.0-10.5', 'WBC|6.2|10^3/uL||4.0-10.5|'],
    ['AST   21   u/iL   10-40', 'AST|21|U/L||10-40|unit-unexpected'],
  ])('reads %s', (line, expected) => {
    expect(brief(line)).toBe(expected);
  });

  it("leaves a PDF's own text without a unit alone: only what OCR read may have lost one", () => {
    const row = extract(['Free T4   1.07   0.8-1.8']).lab_results[0];
    expect([row?.value, row?.unit, row?.needs_review]).toEqual(['1.07', '', false]);
  });

  it('reads specks and a misread unit in the result column, and reviews a range column that reads as no range', () => {
    const lines = [
      'Test         Result      Units    Reference Range',
      'HDL          | 45        mg/dL    >39',
      'AST          32 UIL               10-40',
      'Potassium    4.6         mmol/L   3553',
    ];
    expect(extract(lines).lab_results.map((row) => [row.value, row.unit, row.review_reasons ?? []])).toEqual([
      ['45', 'mg/dL', []],
      ['32', 'U/L', ['unit-unexpected']],
      ['4.6', 'mmol/L', ['low-confidence']],
    ]);
  });
});

describe('extractLabReport: the doctor and the date', () => {
  const meta = (lines: string[], today?: string) => {
    const result = extractLabReport([layoutPage(lines)], today ? { today } : {});
    return { doctor: result.doctor_name, date: result.report_date };
  };

  it.each([
    ['Ordering Physician: Jane Smith, MD', 'Jane Smith'],
    ['Physician: Dr. Robert Lee', 'Robert Lee'],
    ['Doctor: SMITH, JANE', 'Jane Smith'],
    ['Ordered By: Maria Garcia, NP', 'Maria Garcia'],
    ['Provider: Alan Chu DO', 'Alan Chu'],
    ['Referring Physician: Dr. Ann Lee M.D.', 'Ann Lee'],
    ['Ordering Provider:   Priya Patel, MD, FACP', 'Priya Patel'],
  ])('finds the doctor in %s', (line, name) => {
    expect(meta([line, 'Glucose   95   mg/dL   70-99']).doctor).toBe(name);
  });

  it('finds the doctor on the line under the label, and not in a sentence', () => {
    expect(meta(['Ordering Physician:', 'Jane Smith, MD']).doctor).toBe('Jane Smith');
    expect(meta(['Please ask your physician about these results']).doctor).toBeNull();
  });

  it.each([
    ['Collected: 03/14/2026', '2026-03-14'],
    ['Collection Date: 3/4/26', '2026-03-04'],
    ['Date Collected  2026-03-14', '2026-03-14'],
    ['Specimen Collected: Mar 14, 2026 8:30 AM', '2026-03-14'],
    ['Date of Service: 14-Mar-2026', '2026-03-14'],
    ['Report Date: 14 March 2026', '2026-03-14'],
    ['Reported: 25/03/2026', '2026-03-25'],
  ])('finds the date in %s', (line, date) => {
    expect(meta(['DOB: 01/02/1960', line]).date).toBe(date);
  });

  it('prefers the collection date, ignores the date of birth and dates after today, and reads a date below its label', () => {
    expect(meta(['Reported: 03/16/2026', 'Collected: 03/14/2026']).date).toBe('2026-03-14');
    expect(meta(['Date of Birth: 01/02/1960']).date).toBeNull();
    expect(meta(['Collected: 03/14/2027', 'Reported: 03/15/2026'], '2026-11-23').date).toBe('2026-03-15');
    expect(meta(['Collection Date', '03/14/2026']).date).toBe('2026-03-14');
  });

  it('reads dates in the formats labs print', () => {
    expect(datesIn('O3/l4/2O26')).toEqual(['2026-03-14']);
    expect(datesIn('13/02/2026 and 02/13/2026')).toEqual(['2026-02-13', '2026-02-13']);
    expect(datesIn('02/30/2026')).toEqual([]);
  });

  it('cleans a printed name of titles and credentials', () => {
    expect(cleanDoctorName('Dr. Jane Smith, MD')).toBe('Jane Smith');
    expect(cleanDoctorName("DR JOHN O'NEIL")).toBe("John O'Neil");
    expect(cleanDoctorName('12345')).toBeNull();
    expect(cleanDoctorName('Robert Lee (NPI 1234567890)')).toBe('Robert Lee');
    expect(cleanDoctorName('Quest Diagnostics')).toBeNull();
  });
});
