import { describe, expect, it } from 'vitest';
import {
  againstTarget,
  convert,
  displayUnit,
  DEFAULT_UNITS_METRIC,
  DEFAULT_UNITS_US,
  formatReading,
  hasTarget,
  PLAUSIBLE,
  readingIn,
  roundFor,
  VITAL_MESSAGES,
  vitalFieldsSchema,
  vitalProblem,
  type VitalFields,
  type VitalUnit,
} from '../../../src/domain/vitals';

// The rules of a vital reading (src/domain/vitals.ts): its units and their conversions both ways, the
// plausible values of each unit to their limits, blood pressure's two numbers, the time it was taken, and
// how a reading is rounded and written for showing.

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const reading = (fields: Partial<VitalFields>): VitalFields =>
  vitalFieldsSchema.parse({
    kind: 'pulse',
    unit: 'bpm',
    value: 72,
    measured_at: '2026-11-27T07:00:00.000-05:00',
    ...fields,
  });

describe('conversions', () => {
  it.each([
    [1, 'kg', 'lb', 2.2046226218],
    [70, 'kg', 'lb', 154.323583526],
    [5.5, 'mmol/L', 'mg/dL', 99.088],
    [37, '°C', '°F', 98.6],
    [-40, '°C', '°F', -40],
    [100, '°C', '°F', 212],
  ] as const)('%d %s is %d %s, and back', (value, from, to, expected) => {
    expect(convert(value, from, to)).toBeCloseTo(expected, 6);
    expect(convert(expected, to, from)).toBeCloseTo(value, 6);
  });

  it('turns 1 lb into 0.4536 kg, 18.016 mg/dL into 1 mmol/L and 212 °F into 100 °C', () => {
    expect(convert(1, 'lb', 'kg')).toBeCloseTo(0.45359237, 6);
    expect(convert(18.016, 'mg/dL', 'mmol/L')).toBeCloseTo(1, 9);
    expect(convert(212, '°F', '°C')).toBeCloseTo(100, 9);
  });

  it('keeps a value in its own unit as it is, and refuses units of different things', () => {
    expect(convert(128, 'mmHg', 'mmHg')).toBe(128);
    expect(() => convert(70, 'kg', '°F')).toThrow('kg cannot be turned into °F');
  });

  it('shows a reading in the person’s unit, rounded as that unit is read', () => {
    const weight = reading({ kind: 'weight', unit: 'kg', value: 75 });
    expect(readingIn(weight, 'lb').value).toBe(165.3);
    expect(formatReading(weight, 'lb')).toBe('165.3 lb');
    expect(formatReading(weight, 'kg')).toBe('75 kg');
    const glucose = reading({ kind: 'blood_glucose', unit: 'mmol/L', value: 5.6, fasting: true });
    expect(formatReading(glucose, 'mg/dL')).toBe('101 mg/dL, fasting');
    expect(formatReading({ ...glucose, fasting: false }, 'mmol/L')).toBe('5.6 mmol/L, after eating');
    expect(formatReading({ ...glucose, fasting: null }, 'mmol/L')).toBe('5.6 mmol/L');
    const pressure = reading({
      kind: 'blood_pressure',
      unit: 'mmHg',
      value: null,
      systolic: 128,
      diastolic: 82,
    });
    expect(formatReading(pressure, 'mmHg')).toBe('128/82 mmHg');
    expect(roundFor('°F', 98.96)).toBe(99);
    expect(roundFor('mg/dL', 100.5)).toBe(101);
    expect(roundFor('mmol/L', 5.55)).toBe(5.6);
  });

  it('takes the person’s units for the kinds that have two, and the one unit of the others', () => {
    expect(displayUnit('weight', DEFAULT_UNITS_US)).toBe('lb');
    expect(displayUnit('blood_glucose', DEFAULT_UNITS_METRIC)).toBe('mmol/L');
    expect(displayUnit('temperature', DEFAULT_UNITS_US)).toBe('°F');
    expect(displayUnit('pulse', DEFAULT_UNITS_US)).toBe('bpm');
    expect(displayUnit('oxygen_saturation', DEFAULT_UNITS_METRIC)).toBe('%');
  });
});

describe('plausible values', () => {
  const kindOf: Record<VitalUnit, VitalFields['kind']> = {
    mmHg: 'blood_pressure',
    bpm: 'pulse',
    kg: 'weight',
    lb: 'weight',
    'mg/dL': 'blood_glucose',
    'mmol/L': 'blood_glucose',
    '°C': 'temperature',
    '°F': 'temperature',
    '%': 'oxygen_saturation',
  };
  const LABELS: Record<Exclude<VitalUnit, 'mmHg'>, string> = {
    bpm: 'Pulse',
    kg: 'Weight',
    lb: 'Weight',
    'mg/dL': 'Blood glucose',
    'mmol/L': 'Blood glucose',
    '°C': 'Temperature',
    '°F': 'Temperature',
    '%': 'Oxygen saturation',
  };
  const one = (unit: VitalUnit, value: number) => reading({ kind: kindOf[unit], unit, value });

  it.each(Object.keys(LABELS) as Exclude<VitalUnit, 'mmHg'>[])(
    'takes %s at its limits and refuses a step beyond',
    (unit) => {
      const { min, max, step } = PLAUSIBLE[unit];
      expect(vitalProblem(one(unit, min), NOW)).toBeNull();
      expect(vitalProblem(one(unit, max), NOW)).toBeNull();
      for (const outside of [min - step, max + step])
        expect(vitalProblem(one(unit, outside), NOW)).toEqual({
          field: 'value',
          message: VITAL_MESSAGES.outOfRange(LABELS[unit], unit),
        });
    },
  );

  it('takes blood pressure from 20 to 300 mmHg, each number on its own, and names the one outside', () => {
    const pressure = (systolic: number, diastolic: number) =>
      reading({ kind: 'blood_pressure', unit: 'mmHg', value: null, systolic, diastolic });
    expect(vitalProblem(pressure(300, 20), NOW)).toBeNull();
    expect(vitalProblem(pressure(301, 80), NOW)).toEqual({
      field: 'systolic',
      message: 'The top number (systolic) must be between 20 and 300 mmHg. Please check the number.',
    });
    expect(vitalProblem(pressure(120, 19), NOW)).toEqual({
      field: 'diastolic',
      message: 'The bottom number (diastolic) must be between 20 and 300 mmHg. Please check the number.',
    });
    expect(vitalProblem(pressure(19, 10), NOW)?.field).toBe('systolic');
  });

  it('says a pulse of 720 is a typing slip, in words', () => {
    expect(vitalProblem(reading({ value: 720 }), NOW)).toEqual({
      field: 'value',
      message: 'Pulse must be between 20 and 250 bpm. Please check the number.',
    });
  });

  it('needs both numbers of a blood pressure, and the one value of another kind', () => {
    expect(
      vitalProblem(reading({ kind: 'blood_pressure', unit: 'mmHg', value: null, systolic: 120 }), NOW),
    ).toEqual({ field: 'diastolic', message: VITAL_MESSAGES.pressureMissing });
    expect(
      vitalProblem(reading({ kind: 'blood_pressure', unit: 'mmHg', value: null, diastolic: 80 }), NOW),
    ).toEqual({ field: 'systolic', message: VITAL_MESSAGES.pressureMissing });
    expect(vitalProblem(reading({ value: null }), NOW)).toEqual({
      field: 'value',
      message: VITAL_MESSAGES.valueMissing,
    });
  });

  it('refuses a unit of another kind', () => {
    expect(vitalProblem(reading({ kind: 'weight', unit: 'mg/dL', value: 70 }), NOW)).toEqual({
      field: 'unit',
      message: 'The unit of weight must be kg or lb.',
    });
  });
});

describe('the bottom number of a blood pressure', () => {
  const pressure = (systolic: number, diastolic: number) =>
    vitalProblem(reading({ kind: 'blood_pressure', unit: 'mmHg', value: null, systolic, diastolic }), NOW);

  it('must be lower than the top one: one below is fine, equal or above is refused on the diastolic', () => {
    expect(pressure(120, 119)).toBeNull();
    expect(pressure(120, 120)).toEqual({
      field: 'diastolic',
      message: VITAL_MESSAGES.diastolicAboveSystolic,
    });
    expect(pressure(80, 120)).toEqual({ field: 'diastolic', message: VITAL_MESSAGES.diastolicAboveSystolic });
  });
});

describe('when it was taken', () => {
  it('may be up to five minutes ahead of the clock (devices drift), not later', () => {
    const at = (offsetMs: number) => reading({ measured_at: new Date(NOW + offsetMs).toISOString() });
    expect(vitalProblem(at(-86_400_000), NOW)).toBeNull();
    expect(vitalProblem(at(5 * 60_000), NOW)).toBeNull();
    expect(vitalProblem(at(5 * 60_000 + 1), NOW)).toEqual({
      field: 'measured_at',
      message: VITAL_MESSAGES.measuredInFuture,
    });
  });

  it('compares instants, whatever offset the time is written in', () => {
    // 07:30 in New York is 12:30 UTC: half an hour after NOW.
    expect(vitalProblem(reading({ measured_at: '2026-11-27T07:30:00.000-05:00' }), NOW)?.field).toBe(
      'measured_at',
    );
    expect(vitalProblem(reading({ measured_at: '2026-11-27T06:59:00.000-05:00' }), NOW)).toBeNull();
  });

  it('must be a date and time with its offset', () => {
    const parsed = vitalFieldsSchema.safeParse({
      kind: 'pulse',
      unit: 'bpm',
      value: 70,
      measured_at: 'yesterday',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(VITAL_MESSAGES.measuredAtInvalid);
  });
});

describe('fasting and notes', () => {
  it('says fasting only of blood glucose', () => {
    expect(vitalProblem(reading({ fasting: true }), NOW)).toEqual({
      field: 'fasting',
      message: VITAL_MESSAGES.fastingOnlyForGlucose,
    });
    expect(
      vitalProblem(reading({ kind: 'blood_glucose', unit: 'mg/dL', value: 95, fasting: true }), NOW),
    ).toBeNull();
  });

  it('keeps a note of up to 500 characters', () => {
    expect(vitalFieldsSchema.safeParse({ ...reading({}), note: 'x'.repeat(500) }).success).toBe(true);
    expect(
      vitalFieldsSchema.safeParse({ ...reading({}), note: 'x'.repeat(501) }).error?.issues[0]?.message,
    ).toBe(VITAL_MESSAGES.noteTooLong);
  });
});

describe('targets', () => {
  it('places a value against a target in the target’s unit', () => {
    const target = { low: 70, high: 130, unit: 'mg/dL' as const };
    expect(againstTarget(5.6, 'mmol/L', target)).toBe('in range');
    expect(againstTarget(7.5, 'mmol/L', target)).toBe('high');
    expect(againstTarget(3.5, 'mmol/L', target)).toBe('low');
    expect(againstTarget(130, 'mg/dL', target)).toBe('in range');
  });

  it('counts a target as set only when its upper end is above its lower end', () => {
    expect(hasTarget({ low: 0, high: 0, unit: 'kg' })).toBe(false);
    expect(hasTarget(undefined)).toBe(false);
    expect(hasTarget({ low: 60, high: 70, unit: 'kg' })).toBe(true);
  });
});
