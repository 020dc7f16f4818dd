import { normaliseReportDate } from './lab-reports';
import type { LabResult } from './lab-results';
import type { VitalKind } from './vitals';

// The small pieces of FHIR R4 the patient summary (patient-summary.ts) is written with: the shape of a
// resource as plain JSON, the code systems it names, lab units as UCUM, a printed value or reference range
// as a Quantity, and the narrative every section carries. Nothing here knows Kincare's records.

/** A FHIR resource as JSON: its type, its id, and whatever else its definition allows. */
export type FhirResource = { resourceType: string; id: string; [element: string]: unknown };

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

export const reference = (id: string) => ({ reference: `urn:uuid:${id}` });
export const loinc = (code: string, display: string) => ({ coding: [{ system: LOINC, code, display }] });
export const category = (code: 'laboratory' | 'vital-signs', display: string) => [
  { coding: [{ system: OBSERVATION_CATEGORY, code, display }] },
];

/** A FHIR date or dateTime as people enter it (YYYY, YYYY-MM, YYYY-MM-DD), or null for anything else. */
export function fhirDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(text)) return text;
  return normaliseReportDate(text);
}

/** A FHIR dateTime from an ISO 8601 instant with its offset (what devices record), or null. */
export function fhirDateTime(value: string | null | undefined): string | null {
  if (!value || Number.isNaN(Date.parse(value))) return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : null;
}

// Lab units as reports print them, by their UCUM code. A unit not listed keeps its printed text, without a
// code: a wrong UCUM code would tell a receiving system a wrong thing with confidence.
const UCUM_UNITS: [RegExp, string][] = [
  [/^(k|thou(sand)?|x ?10e?\^?3|10\^?3)\/(u|µ|mc)l$/i, '10*3/uL'],
  [/^(m|mil(lion)?|x ?10e?\^?6|10\^?6)\/(u|µ|mc)l$/i, '10*6/uL'],
  [/^x? ?10\^?9\/l$/i, '10*9/L'],
  [/^x? ?10\^?12\/l$/i, '10*12/L'],
  [/^cells\/(u|µ|mc)l$/i, '/uL'],
  [/^m(e|E)q\/l$/i, 'meq/L'],
  [/^iu\/l$/i, '[IU]/L'],
  [/^miu\/l$/i, 'm[IU]/L'],
  [/^iu\/ml$/i, '[IU]/mL'],
  [/^miu\/ml$/i, 'm[IU]/mL'],
  [/^(u|µ)iu\/ml$/i, 'u[IU]/mL'],
  [/^ml\/min\/1\.73 ?m(2|²)$/i, 'mL/min/{1.73_m2}'],
  [/^mm\/h(r)?$/i, 'mm/h'],
  [/^sec(onds?)?$/i, 's'],
];
const PLAIN_UCUM = new Set([
  'mg/dL',
  'g/dL',
  'g/L',
  'mg/L',
  'ug/dL',
  'ug/L',
  'ng/mL',
  'ng/dL',
  'pg/mL',
  'mmol/L',
  'umol/L',
  'nmol/L',
  'pmol/L',
  'U/L',
  'fL',
  'pg',
  '%',
  'L/L',
  'mm[Hg]',
  'kg',
]);

/** The UCUM code of a unit as a report prints it, or null when it is not one we know for sure. */
export function ucumOf(unit: string): string | null {
  const text = unit.trim().replace(/μ/g, 'u').replace(/mcg/gi, 'ug');
  if (PLAIN_UCUM.has(text)) return text;
  const lower = [...PLAIN_UCUM].find((code) => code.toLowerCase() === text.toLowerCase());
  if (lower && !/iu/i.test(text)) return lower;
  for (const [pattern, code] of UCUM_UNITS) if (pattern.test(text)) return code;
  return null;
}

/** A Quantity for a number in a unit as printed: UCUM-coded when the unit is known, its text otherwise. */
export function quantity(value: number, unit: string, ucum = ucumOf(unit)) {
  return {
    value,
    ...(unit.trim() ? { unit: unit.trim() } : {}),
    ...(ucum ? { system: UCUM, code: ucum } : {}),
  };
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const COMPARATOR: Record<string, '<' | '<=' | '>' | '>='> = {
  '<': '<',
  '<=': '<=',
  '≤': '<=',
  '>': '>',
  '>=': '>=',
  '≥': '>=',
};

/** A printed lab value as FHIR: a Quantity (with its comparator, '<0.5') when it is a number, else text. */
export function labValue(result: Pick<LabResult, 'value' | 'unit'>): Record<string, unknown> {
  const text = result.value.replace(/,(?=\d{3}\b)/g, '').trim();
  const match = new RegExp(`^(<=|>=|<|>|≤|≥)?\\s*(${NUMBER})$`).exec(text);
  if (!match) return { valueString: result.value };
  const comparator = match[1] ? COMPARATOR[match[1]] : undefined;
  return {
    valueQuantity: { ...quantity(Number(match[2]), result.unit), ...(comparator ? { comparator } : {}) },
  };
}

/** A printed reference range ('70-99', '< 200', '>= 40', '> OR = 60') as FHIR's low and high, or its text. */
export function referenceRange(range: string, unit: string): Record<string, unknown> | null {
  const text = range.trim();
  if (!text) return null;
  const plain = text.replace(/\s*(>|<)\s*or\s*=\s*/i, '$1=').replace(/,(?=\d{3}\b)/g, '');
  const between = new RegExp(`^(${NUMBER})\\s*(?:-|–|to)\\s*(${NUMBER})$`, 'i').exec(plain);
  if (between)
    return { low: quantity(Number(between[1]), unit), high: quantity(Number(between[2]), unit), text };
  const bound = new RegExp(`^(<=|>=|<|>|≤|≥)\\s*(${NUMBER})$`).exec(plain);
  if (bound) {
    const limit = quantity(Number(bound[2]), unit);
    return bound[1]?.startsWith('<') || bound[1] === '≤' ? { high: limit, text } : { low: limit, text };
  }
  return { text };
}

export function interpretation(flag: LabResult['flag']) {
  if (flag === 'H') return [{ coding: [{ system: INTERPRETATION, code: 'H', display: 'High' }] }];
  if (flag === 'L') return [{ coding: [{ system: INTERPRETATION, code: 'L', display: 'Low' }] }];
  return null;
}

/** Each vital's LOINC code and UCUM units (blood pressure is a panel of two: see patient-summary.ts). */
export const VITAL_CODES: Record<VitalKind, { code: string; display: string }> = {
  blood_pressure: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  pulse: { code: '8867-4', display: 'Heart rate' },
  weight: { code: '29463-7', display: 'Body weight' },
  blood_glucose: { code: '2339-0', display: 'Glucose [Mass/volume] in Blood' },
  temperature: { code: '8310-5', display: 'Body temperature' },
  oxygen_saturation: { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
};
export const VITAL_UCUM: Record<string, string> = {
  mmHg: 'mm[Hg]',
  bpm: '/min',
  kg: 'kg',
  lb: '[lb_av]',
  'mg/dL': 'mg/dL',
  'mmol/L': 'mmol/L',
  '°C': 'Cel',
  '°F': '[degF]',
  '%': '%',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A section's narrative: a list of lines, each escaped, in the XHTML `div` FHIR requires. */
export function narrative(lines: string[]) {
  const body =
    lines.length === 1
      ? `<p>${escapeXml(lines[0] ?? '')}</p>`
      : `<ul>${lines.map((line) => `<li>${escapeXml(line)}</li>`).join('')}</ul>`;
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>` };
}
