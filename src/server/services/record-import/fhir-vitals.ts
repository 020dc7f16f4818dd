import type { ImportedVital } from '../../../domain/record-import';
import { vitalProblem, type VitalKind } from '../../../domain/vitals';
import { listAt, numberAt, objectAt, textAt, type Json } from './json';

// Vital-sign observations of a file as Kincare's vitals: the kinds Kincare keeps (blood pressure, pulse,
// weight, temperature, oxygen saturation), by LOINC code, in Kincare's units. A blood pressure comes
// either as one observation with two components or as a systolic and a diastolic observation of the
// same moment (as C-CDA documents give it); those two make one reading. Height, BMI and the rest are
// counted as skipped, and so is a reading Kincare would refuse if typed (a unit it does not keep, a value
// outside what a body can measure).

const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
const PRESSURE_PANELS = new Set(['85354-9', '55284-4', '35094-2']);
const KIND_OF_CODE: Record<string, Exclude<VitalKind, 'blood_pressure' | 'blood_glucose'>> = {
  '8867-4': 'pulse',
  '29463-7': 'weight',
  '3141-9': 'weight',
  '3142-7': 'weight',
  '8310-5': 'temperature',
  '8331-1': 'temperature',
  '59408-5': 'oxygen_saturation',
  '2708-6': 'oxygen_saturation',
};
/** UCUM units (and the plain ones files also use) as Kincare writes them. */
const UNIT: Record<string, string> = {
  'mm[Hg]': 'mmHg',
  mmHg: 'mmHg',
  '/min': 'bpm',
  '{beats}/min': 'bpm',
  bpm: 'bpm',
  kg: 'kg',
  '[lb_av]': 'lb',
  lb: 'lb',
  lbs: 'lb',
  Cel: '°C',
  '°C': '°C',
  '[degF]': '°F',
  '°F': '°F',
  '%': '%',
};

const codesOf = (concept: unknown): string[] =>
  listAt(concept, 'coding').flatMap((coding) => textAt(coding, 'code') ?? []);
const isVitalSign = (observation: Json) =>
  listAt(observation, 'category').some((category) => codesOf(category).includes('vital-signs'));

/**
 * When it was measured, as a vital keeps it (ISO 8601 with an offset). A date alone, or midnight UTC (the
 * C-CDA converter's reading of a date alone), becomes noon UTC of that day, marked date_only.
 */
function momentOf(observation: Json): { measured_at: string; date_only: boolean } | null {
  const when =
    textAt(observation, 'effectiveDateTime') ?? textAt(objectAt(observation, 'effectivePeriod'), 'start');
  if (!when) return null;
  const day = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0+)?)?(?:Z|\+00:00))?$/.exec(when);
  if (day) return { measured_at: `${day[1]}T12:00:00Z`, date_only: true };
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/.test(when) &&
    !Number.isNaN(Date.parse(when))
    ? { measured_at: when, date_only: false }
    : null;
}

const quantityOf = (holder: Json | undefined) => {
  const quantity = objectAt(holder, 'valueQuantity');
  const unit = textAt(quantity, 'code') ?? textAt(quantity, 'unit');
  return { value: numberAt(quantity, 'value'), unit: unit ? UNIT[unit] : undefined };
};

export type VitalsRead = {
  vitals: ImportedVital[];
  /** The observations taken as vitals (or as a part of one), so that they are not also counted skipped. */
  read: Set<Json>;
  skipped: Map<string, number>;
};

export function readVitals(observations: readonly Json[]): VitalsRead {
  const vitals: ImportedVital[] = [];
  const read = new Set<Json>();
  const skipped = new Map<string, number>();
  const skip = (what: string) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  const keep = (reading: ImportedVital, ...from: Json[]) => {
    from.forEach((observation) => read.add(observation));
    const problem = vitalProblem({ ...reading, fasting: null });
    if (problem) skip('Vitals Kincare could not take as they are (a unit or value it does not keep)');
    else vitals.push(reading);
  };
  const halves = new Map<string, { systolic?: Json; diastolic?: Json }>();

  for (const observation of observations) {
    const codes = codesOf(objectAt(observation, 'code'));
    const vital = isVitalSign(observation) || codes.some((code) => code in KIND_OF_CODE || code === SYSTOLIC);
    if (!vital) continue;
    read.add(observation);
    if (listAt(observation, 'hasMember').length > 0) continue; // a panel: its members are read one by one
    const moment = momentOf(observation);
    if (codes.some((code) => PRESSURE_PANELS.has(code)) && moment) {
      const part = (code: string) =>
        listAt(observation, 'component').find((component) =>
          codesOf(objectAt(component, 'code')).includes(code),
        );
      const systolic = quantityOf(part(SYSTOLIC));
      const diastolic = quantityOf(part(DIASTOLIC));
      keep(
        {
          kind: 'blood_pressure',
          unit: systolic.unit ?? '',
          value: null,
          systolic: systolic.value ?? null,
          diastolic: diastolic.value ?? null,
          ...moment,
        },
        observation,
      );
      continue;
    }
    if ((codes.includes(SYSTOLIC) || codes.includes(DIASTOLIC)) && moment) {
      const pair = halves.get(moment.measured_at) ?? {};
      pair[codes.includes(SYSTOLIC) ? 'systolic' : 'diastolic'] = observation;
      halves.set(moment.measured_at, pair);
      continue;
    }
    const kind = codes.map((code) => KIND_OF_CODE[code]).find(Boolean);
    const quantity = quantityOf(observation);
    if (!kind || !moment || quantity.value === undefined) {
      skip(
        kind
          ? 'Vitals without a value or a time'
          : 'Height, BMI and other measurements Kincare does not keep',
      );
      continue;
    }
    keep(
      { kind, unit: quantity.unit ?? '', value: quantity.value, systolic: null, diastolic: null, ...moment },
      observation,
    );
  }
  for (const [measuredAt, { systolic, diastolic }] of halves) {
    if (!systolic || !diastolic) {
      skip('Blood pressures with one number only');
      continue;
    }
    const top = quantityOf(systolic);
    const bottom = quantityOf(diastolic);
    keep(
      {
        kind: 'blood_pressure',
        unit: top.unit ?? '',
        value: null,
        systolic: top.value ?? null,
        diastolic: bottom.value ?? null,
        measured_at: measuredAt,
        date_only: momentOf(systolic)?.date_only ?? false,
      },
      systolic,
      diastolic,
    );
  }
  return { vitals, read, skipped };
}
