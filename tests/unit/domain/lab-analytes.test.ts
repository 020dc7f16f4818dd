import { describe, expect, it } from 'vitest';
import {
  ANALYTES,
  acceptedUnit,
  analyteByCode,
  findAnalyte,
  findAnalyteNear,
  looksLikeUnit,
  suggestReportType,
} from '../../../src/domain/lab-analytes';

// The analytes extraction knows, found by the names labs print, through OCR's confusions.

const codeOf = (printed: string, unit?: string) => findAnalyte(printed, unit ? { unit } : {})?.code ?? null;

describe('the analyte table', () => {
  it('holds at least 80 analytes with valid, unique LOINC codes and sound ranges', () => {
    expect(ANALYTES.length).toBeGreaterThanOrEqual(80);
    const codes = ANALYTES.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of ANALYTES) {
      expect(entry.code, entry.name).toMatch(/^\d{1,7}-\d$/);
      // LOINC's check digit (mod 10, as LOINC computes it) catches a mistyped code.
      expect(loincCheckDigit(entry.code.split('-')[0] ?? ''), entry.name).toBe(
        Number(entry.code.split('-')[1]),
      );
      expect(entry.plausible[0], entry.name).toBeLessThanOrEqual(entry.plausible[1]);
      expect(entry.panels.length, entry.name).toBeGreaterThan(0);
    }
  });

  it('covers the common panels', () => {
    for (const name of [
      'WBC',
      'Neutrophils (Absolute)',
      'Sodium',
      'ALT',
      'Total Cholesterol',
      'TSH',
      'Hemoglobin A1c',
      'Ferritin',
      'Vitamin B12',
      'Folate',
      'C-Reactive Protein',
      'ESR',
      'INR',
      'PTT',
      'PSA',
      'Uric Acid',
      'Magnesium',
      'Phosphorus',
      'Specific Gravity',
    ]) {
      expect(findAnalyte(name)?.name, name).toBe(name);
    }
  });

  it('gives every name and synonym back as its own analyte', () => {
    for (const entry of ANALYTES) {
      for (const printed of [entry.name, ...entry.synonyms]) {
        const found = findAnalyte(printed, { unit: entry.unit, qualitative: Boolean(entry.qualitative) });
        expect(found?.code, `${printed} (${entry.name})`).toBe(entry.code);
      }
    }
  });
});

describe('findAnalyte', () => {
  it.each([
    ['Hemoglobin A1c', '4548-4'],
    ['HbA1c', '4548-4'],
    ['A1C', '4548-4'],
    ['Glycated Hemoglobin', '4548-4'],
    ['HbAlc', '4548-4'],
    ['Hemoglobin Alc', '4548-4'],
    ['LDL Cholesterol', '13457-7'],
    ['LDL-C', '13457-7'],
    ['LDL Chol Calc (NIH)', '13457-7'],
    ['WBC', '6690-2'],
    ['White Blood Cell Count', '6690-2'],
    ['Leukocytes', '6690-2'],
    ['w.b.c.', '6690-2'],
    ['Bilirubin, Total', '1975-2'],
    ['T4, Free', '3024-7'],
    ['Glucose, Serum', '2345-7'],
    ['P0TASSIUM', '2823-3'],
    ['Creatinine (Serum)', '2160-0'],
    ['Vitamin D, 25-Hydroxy', '62292-8'],
    ['ALT (SGPT)', '1742-6'],
    ['  sodium:  ', '2951-2'],
  ])('finds %s', (printed, code) => {
    expect(codeOf(printed)).toBe(code);
  });

  it('tells apart a percentage and a count, blood and urine, by the unit and the value', () => {
    expect(codeOf('Neutrophils', '%')).toBe('770-8');
    expect(codeOf('Neutrophils', 'K/uL')).toBe('751-8');
    expect(codeOf('Neutrophils', 'x10E3/uL')).toBe('751-8');
    expect(findAnalyte('Glucose', { qualitative: true })?.code).toBe('5792-7');
    expect(findAnalyte('Glucose', { qualitative: false })?.code).toBe('2345-7');
    expect(codeOf('WBC', '/hpf')).toBe('5821-4');
  });

  it('finds a name a character or two off only when one analyte is that near', () => {
    expect(findAnalyteNear('Hemoglobn A1c')?.code).toBe('4548-4');
    expect(findAnalyteNear('COo2')?.code).toBe('2028-9');
    expect(findAnalyteNear('XYZ')).toBeNull();
    expect(findAnalyteNear('Quest Diagnostics')).toBeNull();
  });

  it('finds nothing for what is not an analyte', () => {
    for (const printed of ['', 'Patient Name', 'Page', 'Quest Diagnostics', 'LIPID PANEL', 'Result']) {
      expect(findAnalyte(printed), printed).toBeNull();
    }
  });
});

describe('units', () => {
  it('accepts a unit as the lab spells it and gives the table spelling and factor', () => {
    const tsh = analyteByCode('3016-3')!;
    expect(acceptedUnit(tsh, 'ulU/mL')).toEqual({ unit: 'uIU/mL', factor: 1 });
    expect(acceptedUnit(tsh, 'mIU/L')).toEqual({ unit: 'uIU/mL', factor: 1 });
    const glucose = analyteByCode('2345-7')!;
    expect(acceptedUnit(glucose, 'mg/dl')).toEqual({ unit: 'mg/dL', factor: 1 });
    expect(acceptedUnit(glucose, 'mmol/L')?.factor).toBeCloseTo(18, 0);
    expect(acceptedUnit(glucose, '%')).toBeNull();
    const platelets = analyteByCode('777-3')!;
    for (const unit of ['K/uL', 'x10E3/uL', '10^3/µL', 'x10^9/L', 'thou/mm3']) {
      expect(acceptedUnit(platelets, unit), unit).toEqual({ unit: '10^3/uL', factor: 1 });
    }
  });

  it('tells a unit from a word', () => {
    for (const unit of ['mg/dL', '%', 'mmol/L', 'x10E3/uL', 'fL', 'U/L', 'mL/min/1.73m2', '/hpf']) {
      expect(looksLikeUnit(unit), unit).toBe(true);
    }
    for (const word of ['Glucose', 'H', 'Negative', '95', 'see'])
      expect(looksLikeUnit(word), word).toBe(false);
  });
});

describe('suggestReportType', () => {
  const codes = (...names: string[]) => names.map((name) => findAnalyte(name)!.code);

  it.each([
    [codes('Cholesterol', 'HDL', 'LDL', 'Triglycerides'), 'Lipid Panel'],
    [codes('WBC', 'RBC', 'Hemoglobin', 'Hematocrit', 'Platelets', 'MCV'), 'Complete Blood Count'],
    [
      codes('Glucose', 'BUN', 'Creatinine', 'Sodium', 'Potassium', 'Chloride', 'CO2', 'Calcium'),
      'Basic Metabolic Panel',
    ],
    [
      codes('Glucose', 'BUN', 'Sodium', 'Potassium', 'ALT', 'AST', 'Albumin', 'Total Protein'),
      'Comprehensive Metabolic Panel',
    ],
    [codes('TSH', 'Free T4'), 'Thyroid Panel'],
    [codes('HbA1c'), 'Hemoglobin A1c'],
    [codes('ALT', 'AST', 'Alkaline Phosphatase', 'Direct Bilirubin', 'GGT'), 'Liver Panel'],
    [codes('Color', 'Specific Gravity', 'Urine pH', 'Nitrite'), 'Urinalysis'],
    [codes('Iron', 'TIBC', 'Ferritin'), 'Iron Studies'],
    [codes('WBC', 'Cholesterol', 'TSH', 'HbA1c'), 'Blood Test'],
    [[], null],
    [['99999-9'], null],
  ])('names %j %s', (given, type) => {
    expect(suggestReportType(given)).toBe(type);
  });
});

function loincCheckDigit(digits: string): number {
  // LOINC: from the right, double every other digit starting with the rightmost, sum the digits, mod 10.
  const reversed = [...digits].reverse().map(Number);
  let sum = 0;
  reversed.forEach((digit, index) => {
    const value = index % 2 === 0 ? digit * 2 : digit;
    sum += Math.floor(value / 10) + (value % 10);
  });
  return (10 - (sum % 10)) % 10;
}
