// The Vitals screens' pieces apart from the screen: a reading's time on the patient's clock, High and Low
// judged on what the person sees (rounded as the unit is read), a day's average, the form's checks with
// the domain's messages, the person's units (from the locale) and targets kept per person and patient,
// and the chart's round ticks and target band (src/app/ui/chart).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DateTime } from 'luxon';
import {
  DEFAULT_TARGETS,
  DEFAULT_UNITS_METRIC,
  DEFAULT_UNITS_US,
  VITAL_MESSAGES,
  vitalProblem,
  type Vital,
} from '../../../src/domain/vitals';
import { Chart } from '../../../src/app/ui/chart/chart';
import { bandFlagOf, roundTicks } from '../../../src/app/ui/chart/chart-geometry';
import {
  dailySeries,
  daysUpTo,
  isoOfInput,
  measuredAtText,
  readingFlag,
  shownTarget,
} from '../../../src/app/features/vitals/vital-format';
import {
  defaultUnitsFor,
  readVitalSettings,
  saveVitalSettings,
  targetProblem,
  type VitalSettings,
} from '../../../src/app/features/vitals/vital-settings';
import {
  formProblems,
  NOT_A_NUMBER,
  numberOf,
  type VitalFormValues,
} from '../../../src/app/features/vitals/vital-form';

afterEach(cleanup);

const US: VitalSettings = { units: DEFAULT_UNITS_US, targets: DEFAULT_TARGETS };
const METRIC: VitalSettings = { units: DEFAULT_UNITS_METRIC, targets: DEFAULT_TARGETS };

const reading = (fields: Partial<Vital> & Pick<Vital, 'kind' | 'unit'>): Vital => ({
  id: crypto.randomUUID(),
  patient_id: 'p',
  version: 1,
  caregiver_id: null,
  value: null,
  systolic: null,
  diastolic: null,
  fasting: null,
  note: null,
  measured_at: '2026-11-20T08:15:00.000-05:00',
  created_at: '',
  updated_at: '',
  ...fields,
});

describe('a reading’s time', () => {
  const now = new Date('2026-11-20T18:00:00.000Z'); // 13:00 in New York

  it('reads as the clock it was taken by: today, yesterday, or the full date', () => {
    const zone = DateTime.fromISO('2026-11-20T08:15:00.000-05:00', { setZone: true });
    // What the device's own clock would have said, to know whether the offset is named.
    const here = DateTime.fromISO('2026-11-20T08:15:00.000-05:00').offset === zone.offset;
    const suffix = here ? '' : ' GMT-5';
    expect(measuredAtText('2026-11-20T08:15:00.000-05:00', now)).toBe(`Today, 8:15 AM${suffix}`);
    expect(measuredAtText('2026-11-19T21:40:00.000-05:00', now)).toBe(`Yesterday, 9:40 PM${suffix}`);
    expect(measuredAtText('2026-11-02T07:05:00.000-05:00', now)).toBe(`Mon, Nov 02, 2026, 7:05 AM${suffix}`);
  });

  it('keeps the clock of a reading taken in another offset, and names that offset', () => {
    const offset = DateTime.now().offset === 9 * 60 ? '+08:00' : '+09:00';
    const label = offset === '+08:00' ? 'GMT+8' : 'GMT+9';
    // 18:00 UTC is already the 21st there: the 20th at 23:30 was yesterday on the patient's clock.
    expect(measuredAtText(`2026-11-20T23:30:00.000${offset}`, now)).toBe(`Yesterday, 11:30 PM ${label}`);
    expect(measuredAtText(`2026-11-18T23:30:00.000${offset}`, now)).toBe(
      `Wed, Nov 18, 2026, 11:30 PM ${label}`,
    );
  });

  it('turns a datetime-local value into a time with an offset, on the reading’s own clock when editing', () => {
    expect(isoOfInput('2026-11-20T09:30', '2026-11-20T08:15:00.000-05:00')).toBe(
      '2026-11-20T09:30:00.000-05:00',
    );
    expect(isoOfInput('2026-11-20T09:30')).toMatch(/^2026-11-20T09:30:00\.000([+-]\d{2}:\d{2}|Z)$/);
    expect(isoOfInput('not a time')).toBeNull();
  });
});

describe('High and Low', () => {
  it('compares what the person sees: 37.2 °C shown as 99 °F is in a target shown as ending at 99 °F', () => {
    expect(readingFlag(reading({ kind: 'temperature', unit: '°C', value: 37.2 }), US)).toBeNull();
    expect(readingFlag(reading({ kind: 'temperature', unit: '°F', value: 99.0 }), US)).toBeNull();
    expect(readingFlag(reading({ kind: 'temperature', unit: '°F', value: 99.2 }), US)).toBe('High');
    expect(readingFlag(reading({ kind: 'temperature', unit: '°C', value: 35.5 }), METRIC)).toBe('Low');
  });

  it('names which number of a blood pressure is out of its target', () => {
    const pressure = (systolic: number, diastolic: number) =>
      readingFlag(reading({ kind: 'blood_pressure', unit: 'mmHg', systolic, diastolic }), US);
    expect(pressure(118, 76)).toBeNull();
    expect(pressure(150, 95)).toBe('High');
    expect(pressure(85, 55)).toBe('Low');
    expect(pressure(135, 75)).toBe('High top number');
    expect(pressure(110, 85)).toBe('High bottom number');
    expect(pressure(135, 55)).toBe('High top number, low bottom number');
  });

  it('says nothing of a weight until the person sets a target', () => {
    expect(readingFlag(reading({ kind: 'weight', unit: 'kg', value: 300 }), US)).toBeNull();
    expect(shownTarget('weight', 'value', US)).toBeUndefined();
    const withTarget = {
      ...US,
      targets: { ...US.targets, weight: { low: 60, high: 70, unit: 'kg' as const } },
    };
    expect(shownTarget('weight', 'value', withTarget)).toEqual({ low: 132.3, high: 154.3, unit: 'lb' });
    expect(readingFlag(reading({ kind: 'weight', unit: 'lb', value: 160 }), withTarget)).toBe('High');
  });
});

describe('a day’s point', () => {
  it('is the average of that day’s readings in the person’s unit, rounded as read; a day without is a gap', () => {
    const days = ['2026-11-18', '2026-11-19', '2026-11-20'];
    const readings = [
      reading({ kind: 'weight', unit: 'kg', value: 70, measured_at: '2026-11-20T07:00:00.000-05:00' }),
      reading({ kind: 'weight', unit: 'lb', value: 156, measured_at: '2026-11-20T21:00:00.000-05:00' }),
      reading({ kind: 'weight', unit: 'kg', value: 71, measured_at: '2026-11-18T23:30:00.000-05:00' }),
      reading({ kind: 'pulse', unit: 'bpm', value: 60, measured_at: '2026-11-19T07:00:00.000-05:00' }),
    ];
    // (154.32 + 156) / 2 = 155.16; 71 kg = 156.53 lb. The 23:30 reading is on the 18th of its own clock.
    expect(dailySeries(readings, 'weight', 'value', days, 'lb').map((point) => point.value)).toEqual([
      156.5,
      null,
      155.2,
    ]);
    expect(dailySeries(readings, 'weight', 'value', days, 'lb').map((point) => point.label)).toEqual([
      'Nov 18',
      'Nov 19',
      'Nov 20',
    ]);
    expect(dailySeries(readings, 'pulse', 'value', days, 'bpm').map((point) => point.value)).toEqual([
      null,
      60,
      null,
    ]);
  });

  it('spans the given number of days up to today, oldest first', () => {
    const days = daysUpTo(7, new Date(2026, 2, 3, 9));
    expect(days).toEqual([
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
    ]);
  });
});

describe('the form’s checks', () => {
  const values = (fields: Partial<VitalFormValues>): VitalFormValues => ({
    unit: 'bpm',
    value: '',
    systolic: '',
    diastolic: '',
    fasting: 'unsaid',
    when: null,
    note: '',
    ...fields,
  });

  it('reads digits with a point or a comma', () => {
    expect(numberOf('72')).toBe(72);
    expect(numberOf(' 98.6 ')).toBe(98.6);
    expect(numberOf('5,6')).toBe(5.6);
    expect(numberOf('')).toBeNull();
    expect(numberOf('7x')).toBeNaN();
    expect(numberOf('-5')).toBeNaN();
  });

  it('says what vitalProblem says of a number out of range', () => {
    const domain = vitalProblem({
      kind: 'pulse',
      unit: 'bpm',
      value: 720,
      systolic: null,
      diastolic: null,
      fasting: null,
      measured_at: new Date().toISOString(),
    });
    expect(formProblems('pulse', values({ value: '720' }))).toEqual({ value: domain?.message });
    expect(formProblems('pulse', values({ value: 'fast' }))).toEqual({ value: NOT_A_NUMBER });
    expect(formProblems('pulse', values({ value: '' }))).toEqual({ value: VITAL_MESSAGES.valueMissing });
    expect(formProblems('pulse', values({ value: '72' }))).toEqual({});
  });

  it('judges each number of a blood pressure on its own, then the two together', () => {
    const pressure = (systolic: string, diastolic: string) =>
      formProblems('blood_pressure', values({ unit: 'mmHg', systolic, diastolic }));
    expect(pressure('400', '')).toEqual({
      systolic: 'The top number (systolic) must be between 20 and 300 mmHg. Please check the number.',
      diastolic: VITAL_MESSAGES.pressureMissing,
    });
    expect(pressure('120', '125')).toEqual({ diastolic: VITAL_MESSAGES.diastolicAboveSystolic });
    expect(pressure('120', '80')).toEqual({});
  });

  it('refuses a time in the future, a time that is not one, and a long note', () => {
    const later = DateTime.now().plus({ hours: 2 }).toFormat("yyyy-MM-dd'T'HH:mm");
    expect(formProblems('pulse', values({ value: '70', when: later }))).toEqual({
      measured_at: VITAL_MESSAGES.measuredInFuture,
    });
    expect(formProblems('pulse', values({ value: '70', when: '' }))).toEqual({
      measured_at: VITAL_MESSAGES.measuredAtInvalid,
    });
    expect(formProblems('pulse', values({ value: '70', note: 'x'.repeat(501) }))).toEqual({
      note: VITAL_MESSAGES.noteTooLong,
    });
  });
});

describe('units and targets on this device', () => {
  beforeEach(() => localStorage.clear());

  it('follow the locale until chosen: the United States reads lb, °F and mg/dL', () => {
    expect(defaultUnitsFor('en-US')).toEqual({ weight: 'lb', blood_glucose: 'mg/dL', temperature: '°F' });
    expect(defaultUnitsFor('es-US')).toEqual(DEFAULT_UNITS_US);
    expect(defaultUnitsFor('en-GB')).toEqual({ weight: 'kg', blood_glucose: 'mmol/L', temperature: '°C' });
    expect(defaultUnitsFor('fr')).toEqual(DEFAULT_UNITS_METRIC);
    expect(readVitalSettings('me', 'patient-1', 'en-US')).toEqual(US);
  });

  it('are kept per person and patient, and a broken entry falls back to the defaults', () => {
    const mine: VitalSettings = {
      units: { weight: 'kg', blood_glucose: 'mmol/L', temperature: '°F' },
      targets: { ...DEFAULT_TARGETS, pulse: { low: 50, high: 90, unit: 'bpm' } },
    };
    expect(saveVitalSettings('me', 'patient-1', mine)).toBeNull();
    expect(readVitalSettings('me', 'patient-1', 'en-US')).toEqual(mine);
    expect(readVitalSettings('me', 'patient-2', 'en-US')).toEqual(US);
    expect(readVitalSettings('someone-else', 'patient-1', 'en-US')).toEqual(US);
    localStorage.setItem(
      'vitals:me:patient-1',
      '{"units":{"weight":"stone"},"targets":{"pulse":{"low":"x"}}}',
    );
    expect(readVitalSettings('me', 'patient-1', 'en-GB')).toEqual(METRIC);
    localStorage.setItem('vitals:me:patient-1', 'not json');
    expect(readVitalSettings('me', 'patient-1', 'en-US')).toEqual(US);
  });

  it('need two ends in order, within what the unit reads', () => {
    expect(targetProblem('Pulse', 60, 100, 'bpm')).toBeNull();
    expect(targetProblem('Pulse', 100, 60, 'bpm')).toBe(
      'The lower end of the pulse target must be below the upper end.',
    );
    expect(targetProblem('Pulse', 10, 60, 'bpm')).toBe('The pulse target must lie between 20 and 250 bpm.');
    expect(targetProblem('Pulse', null, 60, 'bpm')).toBe('Enter both ends of the pulse target.');
  });
});

describe('the chart’s axis and target', () => {
  it('marks round values: 1, 2, 2.5 or 5 times a power of ten apart, covering the values', () => {
    expect(roundTicks(58, 120)).toEqual([50, 75, 100, 125]);
    expect(roundTicks(90, 160)).toEqual([75, 100, 125, 150, 175]);
    expect(roundTicks(36.1, 37.5)).toEqual([36, 36.5, 37, 37.5]);
    expect(roundTicks(97, 99.5)).toEqual([97, 98, 99, 100]);
    expect(roundTicks(3.9, 7.2)).toEqual([2, 4, 6, 8]);
    expect(roundTicks(72, 72)).toEqual([70, 75]);
    expect(roundTicks(160.1, 160.3)).toEqual([160.1, 160.2, 160.3]);
  });

  it('calls a value above the band High and below it Low', () => {
    const band = { low: 60, high: 100 };
    expect([
      bandFlagOf(101, band),
      bandFlagOf(100, band),
      bandFlagOf(59, band),
      bandFlagOf(null, band),
    ]).toEqual(['High', null, 'Low', null]);
  });

  it('draws the band and the ticks, rings a value outside, and says it in the table and the summary', () => {
    const points = [
      { label: 'Nov 1', value: 72 },
      { label: 'Nov 2', value: null },
      { label: 'Nov 3', value: 110 },
    ];
    const { container } = render(
      <Chart
        title="Pulse"
        unit="bpm"
        kind="line"
        points={points}
        ticks={[50, 75, 100, 125]}
        band={{ low: 60, high: 100, label: 'Target' }}
      />,
    );
    expect(screen.getAllByTestId('chart-tick').map((tick) => tick.textContent)).toEqual([
      '50',
      '75',
      '100',
      '125',
    ]);
    expect(screen.getByTestId('chart-band').querySelectorAll('line')).toHaveLength(2);
    expect(
      [...container.querySelectorAll('circle')].map((circle) => circle.getAttribute('data-flag')),
    ).toEqual([null, 'High']);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Pulse, 3 days: 2 with a value; lowest 72 bpm (Nov 1); highest 110 bpm (Nov 3); latest 110 bpm (Nov 3). ' +
        'Target 60 to 100 bpm: 1 day above it, 0 days below it.',
    );
    const rows = within(screen.getByRole('table', { hidden: true })).getAllByRole('row', { hidden: true });
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayPulse (bpm)Against the target',
      'Nov 172In range',
      'Nov 2No value',
      'Nov 3110High',
    ]);
  });
});
