import { z } from 'zod';
import { safeText } from './text';

// Vitals: the measurements a patient takes at home (blood pressure, pulse, weight, blood glucose,
// temperature, oxygen saturation), each with its unit, when it was measured and a note. A reading is kept
// in the unit it was entered in, so nothing is lost to rounding; screens show it in the person's units
// (convert). Plausible ranges refuse typing slips (a pulse of 720) with a sentence; targets are the
// person's own ranges, drawn on the charts.

export const VITAL_KINDS = [
  'blood_pressure',
  'pulse',
  'weight',
  'blood_glucose',
  'temperature',
  'oxygen_saturation',
] as const;
export type VitalKind = (typeof VITAL_KINDS)[number];

export const VITAL_UNITS = {
  blood_pressure: ['mmHg'],
  pulse: ['bpm'],
  weight: ['kg', 'lb'],
  blood_glucose: ['mg/dL', 'mmol/L'],
  temperature: ['°C', '°F'],
  oxygen_saturation: ['%'],
} as const satisfies Record<VitalKind, readonly string[]>;
export type VitalUnit = (typeof VITAL_UNITS)[VitalKind][number];

export const VITAL_LABELS: Record<VitalKind, string> = {
  blood_pressure: 'Blood pressure',
  pulse: 'Pulse',
  weight: 'Weight',
  blood_glucose: 'Blood glucose',
  temperature: 'Temperature',
  oxygen_saturation: 'Oxygen saturation',
};

/** The values a reading may have, per kind and unit: outside them it is a typing slip, not a reading. */
export const PLAUSIBLE: Record<VitalUnit, { min: number; max: number; step: number }> = {
  mmHg: { min: 20, max: 300, step: 1 },
  bpm: { min: 20, max: 250, step: 1 },
  kg: { min: 1, max: 500, step: 0.1 },
  lb: { min: 2, max: 1100, step: 0.1 },
  'mg/dL': { min: 10, max: 1000, step: 1 },
  'mmol/L': { min: 0.5, max: 55, step: 0.1 },
  '°C': { min: 30, max: 45, step: 0.1 },
  '°F': { min: 86, max: 113, step: 0.1 },
  '%': { min: 50, max: 100, step: 1 },
};

export const VITAL_MESSAGES = {
  kindInvalid: 'Choose what was measured.',
  unitInvalid: (kind: VitalKind) =>
    `The unit of ${VITAL_LABELS[kind].toLowerCase()} must be ${VITAL_UNITS[kind].join(' or ')}.`,
  valueMissing: 'Enter the value you measured.',
  pressureMissing:
    'Enter both numbers of the blood pressure (the top one, systolic, and the bottom one, diastolic).',
  outOfRange: (label: string, unit: string) =>
    `${label} must be between ${PLAUSIBLE[unit as VitalUnit]?.min} and ${PLAUSIBLE[unit as VitalUnit]?.max} ${unit}. Please check the number.`,
  diastolicAboveSystolic: 'The bottom number (diastolic) must be lower than the top number (systolic).',
  measuredAtInvalid: 'When it was measured must be a date and time.',
  measuredInFuture: 'When it was measured cannot be in the future.',
  fastingOnlyForGlucose: 'Fasting applies to blood glucose only.',
  noteTooLong: 'The note can be at most 500 characters.',
  notFound: 'This reading was not found.',
  exists: 'This reading already exists.',
  deletedElsewhere: 'This reading was deleted on another device.',
  deleted: 'Reading deleted.',
  saved: 'Reading saved.',
} as const;

/** A reading may be dated at most this far ahead of the server's clock (devices' clocks drift). */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

const number = z.number({ error: VITAL_MESSAGES.valueMissing }).finite();

/** The fields of a reading as a person enters them (what must hold of them together: vitalProblem). */
export const vitalFieldsSchema = z.object({
  kind: z.enum(VITAL_KINDS, { error: VITAL_MESSAGES.kindInvalid }),
  unit: z.string({ error: VITAL_MESSAGES.kindInvalid }).max(10),
  /** The one value of every kind but blood pressure. */
  value: number.nullable().default(null),
  systolic: number.nullable().default(null),
  diastolic: number.nullable().default(null),
  /** Blood glucose only: taken before eating (true), after (false), or not said (null). */
  fasting: z.boolean({ error: 'fasting must be true, false or null.' }).nullable().default(null),
  /** When it was measured (ISO 8601 with its offset). */
  measured_at: z.iso.datetime({ offset: true, error: VITAL_MESSAGES.measuredAtInvalid }),
  note: safeText(z.string().trim().max(500, VITAL_MESSAGES.noteTooLong)).nullable().default(null),
});
export type VitalFields = z.output<typeof vitalFieldsSchema>;
export type VitalInput = z.input<typeof vitalFieldsSchema>;

/** What is wrong with a reading, with the field to show it on; null when it is a plausible reading. */
export function vitalProblem(
  reading: Pick<
    VitalFields,
    'kind' | 'unit' | 'value' | 'systolic' | 'diastolic' | 'fasting' | 'measured_at'
  >,
  now = Date.now(),
): { field: string; message: string } | null {
  const units: readonly string[] = VITAL_UNITS[reading.kind];
  if (!units.includes(reading.unit))
    return { field: 'unit', message: VITAL_MESSAGES.unitInvalid(reading.kind) };
  const range = PLAUSIBLE[reading.unit as VitalUnit];
  const outside = (value: number) => value < range.min || value > range.max;
  if (reading.kind === 'blood_pressure') {
    if (reading.systolic === null || reading.diastolic === null)
      return {
        field: reading.systolic === null ? 'systolic' : 'diastolic',
        message: VITAL_MESSAGES.pressureMissing,
      };
    if (outside(reading.systolic))
      return {
        field: 'systolic',
        message: VITAL_MESSAGES.outOfRange('The top number (systolic)', reading.unit),
      };
    if (outside(reading.diastolic))
      return {
        field: 'diastolic',
        message: VITAL_MESSAGES.outOfRange('The bottom number (diastolic)', reading.unit),
      };
    if (reading.diastolic >= reading.systolic)
      return { field: 'diastolic', message: VITAL_MESSAGES.diastolicAboveSystolic };
  } else {
    if (reading.value === null) return { field: 'value', message: VITAL_MESSAGES.valueMissing };
    if (outside(reading.value))
      return { field: 'value', message: VITAL_MESSAGES.outOfRange(VITAL_LABELS[reading.kind], reading.unit) };
  }
  if (reading.fasting !== null && reading.kind !== 'blood_glucose')
    return { field: 'fasting', message: VITAL_MESSAGES.fastingOnlyForGlucose };
  if (Date.parse(reading.measured_at) > now + FUTURE_TOLERANCE_MS)
    return { field: 'measured_at', message: VITAL_MESSAGES.measuredInFuture };
  return null;
}

/** A reading as the API and the device's table show it. */
export type Vital = VitalFields & {
  id: string;
  patient_id: string;
  version: number;
  caregiver_id?: string | null;
  created_at: string;
  updated_at: string;
};

// ---- Units ----

/** The person's units (a device setting): what readings are shown and charted in. */
export type VitalUnitChoice = {
  weight: 'kg' | 'lb';
  blood_glucose: 'mg/dL' | 'mmol/L';
  temperature: '°C' | '°F';
};
export const DEFAULT_UNITS_US: VitalUnitChoice = { weight: 'lb', blood_glucose: 'mg/dL', temperature: '°F' };
export const DEFAULT_UNITS_METRIC: VitalUnitChoice = {
  weight: 'kg',
  blood_glucose: 'mmol/L',
  temperature: '°C',
};

/** Glucose's molar mass over 10: mg/dL = mmol/L x 18.016. */
const GLUCOSE_MG_PER_MMOL = 18.016;
const POUNDS_PER_KG = 2.2046226218;

/** A value in `from` as it is in `to` (the same unit: as it is). */
export function convert(value: number, from: VitalUnit, to: VitalUnit): number {
  if (from === to) return value;
  if (from === 'kg' && to === 'lb') return value * POUNDS_PER_KG;
  if (from === 'lb' && to === 'kg') return value / POUNDS_PER_KG;
  if (from === 'mmol/L' && to === 'mg/dL') return value * GLUCOSE_MG_PER_MMOL;
  if (from === 'mg/dL' && to === 'mmol/L') return value / GLUCOSE_MG_PER_MMOL;
  if (from === '°C' && to === '°F') return (value * 9) / 5 + 32;
  if (from === '°F' && to === '°C') return ((value - 32) * 5) / 9;
  throw new Error(`${from} cannot be turned into ${to}`);
}

/** The unit a kind is shown in for this person. */
export function displayUnit(kind: VitalKind, choice: VitalUnitChoice): VitalUnit {
  if (kind === 'weight' || kind === 'blood_glucose' || kind === 'temperature') return choice[kind];
  return VITAL_UNITS[kind][0];
}

/** Rounded as the unit is read: whole mmHg, bpm, mg/dL and %; tenths of kg, lb, mmol/L and degrees. */
export function roundFor(unit: VitalUnit, value: number): number {
  const step = PLAUSIBLE[unit].step;
  return step >= 1 ? Math.round(value) : Math.round(value * 10) / 10;
}

/** The reading's value(s) in `unit`, rounded for showing. */
export function readingIn(
  reading: Pick<Vital, 'kind' | 'unit' | 'value' | 'systolic' | 'diastolic'>,
  unit: VitalUnit,
) {
  const from = reading.unit as VitalUnit;
  const shown = (value: number | null) =>
    value === null ? null : roundFor(unit, convert(value, from, unit));
  return {
    value: shown(reading.value),
    systolic: shown(reading.systolic),
    diastolic: shown(reading.diastolic),
  };
}

/** "128/82 mmHg", "72 bpm", "165.4 lb", "5.6 mmol/L, fasting". */
export function formatReading(
  reading: Pick<Vital, 'kind' | 'unit' | 'value' | 'systolic' | 'diastolic' | 'fasting'>,
  unit: VitalUnit,
): string {
  const shown = readingIn(reading, unit);
  const text =
    reading.kind === 'blood_pressure'
      ? `${shown.systolic}/${shown.diastolic} ${unit}`
      : `${shown.value} ${unit}`;
  if (reading.kind !== 'blood_glucose' || reading.fasting === null) return text;
  return `${text}, ${reading.fasting ? 'fasting' : 'after eating'}`;
}

// ---- Targets ----

/** A target range: what the person (with their doctor) aims for, in the kind's first unit of its choice. */
export type VitalTarget = { low: number; high: number; unit: VitalUnit };
/** For blood pressure, a range for each number. */
export type VitalTargets = Partial<Record<Exclude<VitalKind, 'blood_pressure'>, VitalTarget>> & {
  blood_pressure?: { systolic: VitalTarget; diastolic: VitalTarget };
};

/** Common adult ranges, until the person sets their own. */
export const DEFAULT_TARGETS: Required<VitalTargets> = {
  blood_pressure: {
    systolic: { low: 90, high: 120, unit: 'mmHg' },
    diastolic: { low: 60, high: 80, unit: 'mmHg' },
  },
  pulse: { low: 60, high: 100, unit: 'bpm' },
  weight: { low: 0, high: 0, unit: 'kg' },
  blood_glucose: { low: 70, high: 130, unit: 'mg/dL' },
  temperature: { low: 36.1, high: 37.2, unit: '°C' },
  oxygen_saturation: { low: 95, high: 100, unit: '%' },
};

/** Whether a target is set (a weight has none until the person sets it). */
export const hasTarget = (target: VitalTarget | undefined): target is VitalTarget =>
  target !== undefined && target.high > target.low;

/** 'low', 'high' or 'in range' of a value against a target, in the target's unit. */
export function againstTarget(
  value: number,
  unit: VitalUnit,
  target: VitalTarget,
): 'low' | 'high' | 'in range' {
  const inTargetUnit = convert(value, unit, target.unit);
  if (inTargetUnit < target.low) return 'low';
  if (inTargetUnit > target.high) return 'high';
  return 'in range';
}
