import { describe, expect, it } from 'vitest';
import { extractLabReport } from '../../../src/domain/lab-extraction';
import { layoutPage, type PageOptions } from './lab-layout';

// Reports with no table, as patient portals print them: a block per test, its value and range after
// labels, a flag in words. Each page is written as monospace text and laid out as OCR reports it.

const rowsOf = (lines: string[], options: PageOptions = {}) =>
  extractLabReport([layoutPage(lines, options)]).lab_results.map(
    ({ name, value, unit, flag, reference_range }) => ({ name, value, unit, flag, reference_range }),
  );

describe('extractLabReport: test blocks with no table', () => {
  it('reads a block per test: the name, "Your value", "Standard range" and a flag word', () => {
    expect(
      rowsOf([
        'MyHealth Portal - Test Results',
        'Ordered by: Maria Lopez, MD',
        '',
        'Hemoglobin A1c',
        'Your value: 6.1 %',
        'Standard range: 4.0 - 5.6 %',
        'High',
        '',
        'Glucose',
        'Your value: 105 mg/dL',
        'Standard range: 70 - 99 mg/dL',
        'High',
        '',
        'Creatinine',
        'Your value: 0.9 mg/dL',
        'Standard range: 0.6 - 1.2 mg/dL',
      ]),
    ).toEqual([
      { name: 'Hemoglobin A1c', value: '6.1', unit: '%', flag: 'H', reference_range: '4.0 - 5.6' },
      { name: 'Glucose', value: '105', unit: 'mg/dL', flag: 'H', reference_range: '70 - 99' },
      { name: 'Creatinine', value: '0.9', unit: 'mg/dL', flag: '', reference_range: '0.6 - 1.2' },
    ]);
  });

  it('reads "Value" alone with the value on the next line, a "Normal range" line and a text result', () => {
    expect(
      rowsOf([
        'TSH',
        'Value',
        '5.9 uIU/mL',
        'Normal range: 0.45 - 4.50 uIU/mL',
        'Abnormal',
        '',
        'Urine Protein',
        'Value',
        'Negative',
        'Normal range: Negative',
        'Normal',
      ]),
    ).toEqual([
      // 'Abnormal' printed; above its range, the review says which way.
      { name: 'TSH', value: '5.9', unit: 'uIU/mL', flag: 'H', reference_range: '0.45 - 4.50' },
      { name: 'Urine Protein', value: 'Negative', unit: '', flag: '', reference_range: 'Negative' },
    ]);
  });

  it('reads the labels in cells of one line, the flag in the value, and bounds as ranges', () => {
    expect(
      rowsOf([
        'Cholesterol, Total     Your value: 212 mg/dL (High)     Reference range: <200 mg/dL',
        'HDL Cholesterol        Your value: 45 mg/dL             Reference range: >=40 mg/dL',
        'Potassium              Result: 3.2 mmol/L               Normal range: 3.5 - 5.1 mmol/L    Flag: Low',
      ]),
    ).toEqual([
      { name: 'Total Cholesterol', value: '212', unit: 'mg/dL', flag: 'H', reference_range: '<200' },
      { name: 'HDL Cholesterol', value: '45', unit: 'mg/dL', flag: '', reference_range: '>=40' },
      { name: 'Potassium', value: '3.2', unit: 'mmol/L', flag: 'L', reference_range: '3.5 - 5.1' },
    ]);
  });

  it('keeps section titles and notes out, and a block without a value is no result', () => {
    expect(
      rowsOf([
        'CHEMISTRY',
        'Sodium',
        'Your value: 140 mmol/L',
        'Standard range: 136 - 145 mmol/L',
        'Results are reviewed by your doctor before release.',
        'Vitamin D, 25-Hydroxy',
        'Your value: Pending',
        'Standard range: 30 - 100 ng/mL',
        'Result: Final',
        'Platelets',
        'Your value: 250 K/uL',
        'Standard range: 150 - 400 K/uL',
      ]),
    ).toEqual([
      { name: 'Sodium', value: '140', unit: 'mmol/L', flag: '', reference_range: '136 - 145' },
      // The unit as printed.
      { name: 'Platelets', value: '250', unit: 'K/uL', flag: '', reference_range: '150 - 400' },
    ]);
  });

  it('reads blocks printed two side by side, each column on its own', () => {
    expect(
      rowsOf([
        'Glucose                           Sodium',
        'Your value: 105 mg/dL             Your value: 140 mmol/L',
        'Standard range: 70 - 99 mg/dL     Standard range: 136 - 145 mmol/L',
        'High',
        '',
        'ALT                               Potassium',
        'Your value: 22 U/L                Your value: 3.2 mmol/L',
        'Standard range: 7 - 56 U/L        Standard range: 3.5 - 5.1 mmol/L',
        '                                  Low',
      ]),
    ).toEqual([
      { name: 'Glucose', value: '105', unit: 'mg/dL', flag: 'H', reference_range: '70 - 99' },
      { name: 'ALT', value: '22', unit: 'U/L', flag: '', reference_range: '7 - 56' },
      { name: 'Sodium', value: '140', unit: 'mmol/L', flag: '', reference_range: '136 - 145' },
      { name: 'Potassium', value: '3.2', unit: 'mmol/L', flag: 'L', reference_range: '3.5 - 5.1' },
    ]);
  });

  it('leaves a table with "Your Value" in its header to the table reader', () => {
    expect(
      rowsOf([
        'Component        Your Value    Standard Range    Units',
        'Glucose          105           70 - 99           mg/dL',
        'Sodium           140           136 - 145         mmol/L',
      ]).map(({ name, value }) => [name, value]),
    ).toEqual([
      ['Glucose', '105'],
      ['Sodium', '140'],
    ]);
  });
});
