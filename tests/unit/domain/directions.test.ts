import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DOSE_TIMES,
  DIRECTIONS_MAX_LENGTH,
  doseTimesFromDirections,
  isDoseTime,
} from '../../../src/domain/directions';

// The directions on a prescription suggest the times of day for the schedule. Each row is one way
// pharmacists and doctors write them, with the times, whether it is as needed, and the summary the form shows.

type Row = [directions: string, times: string[], asNeeded: boolean, summary: string];

const TWICE = ['08:00', '20:00'];
const THREE = ['08:00', '14:00', '20:00'];
const FOUR = ['08:00', '12:00', '16:00', '20:00'];
const MEALS = ['08:00', '12:00', '18:00'];

const understood: Row[] = [
  // Once a day
  ['Take 1 tablet by mouth once daily', ['08:00'], false, 'Once a day'],
  ['Take one tablet daily', ['08:00'], false, 'Once a day'],
  ['1 tab po qd', ['08:00'], false, 'Once a day'],
  ['1 TAB PO Q.D.', ['08:00'], false, 'Once a day'],
  ['Take 1 capsule every day', ['08:00'], false, 'Once a day'],
  ['take 1 tablet once a day', ['08:00'], false, 'Once a day'],
  ['One tablet OD', ['08:00'], false, 'Once a day'],
  ['1 tablet one time per day', ['08:00'], false, 'Once a day'],
  ['Take 1 tablet every 24 hours', ['08:00'], false, 'Every 24 hours'],
  // Twice a day
  ['Take 1 tablet by mouth twice daily', TWICE, false, 'Twice a day'],
  ['Take 1 tablet by mouth twice a day', TWICE, false, 'Twice a day'],
  ['1 tab po bid', TWICE, false, 'Twice a day'],
  ['1 tab p.o. b.i.d.', TWICE, false, 'Twice a day'],
  ['TAKE TWO TABLETS BY MOUTH BID', TWICE, false, 'Twice a day'],
  ['Take 1 tablet 2x daily', TWICE, false, 'Twice a day'],
  ['1 tab 2x/day', TWICE, false, 'Twice a day'],
  ['Take 1 tablet two times a day', TWICE, false, 'Twice a day'],
  ['Take 1 tablet 2 times per day', TWICE, false, 'Twice a day'],
  ['1 tablet x 2 daily', TWICE, false, 'Twice a day'],
  ['Take 1 tablet every 12 hours', TWICE, false, 'Every 12 hours'],
  ['1 cap q12h', TWICE, false, 'Every 12 hours'],
  ['Take 1 tablet twice daily for 10 days', TWICE, false, 'Twice a day'],
  ['Take 1 tablet twice-daily, for 2 weeks.', TWICE, false, 'Twice a day'],
  ['1 drop OD BID', TWICE, false, 'Twice a day'],
  // Three and four times a day
  ['Take 1 capsule three times a day', THREE, false, 'Three times a day'],
  ['1 cap po tid', THREE, false, 'Three times a day'],
  ['Take 1 tablet 3 times daily', THREE, false, 'Three times a day'],
  ['Take 1 tablet thrice daily', THREE, false, 'Three times a day'],
  ['Take 5 mL four times a day', FOUR, false, 'Four times a day'],
  ['1 tab QID', FOUR, false, 'Four times a day'],
  ['Take 2 tablets 4x daily', FOUR, false, 'Four times a day'],
  // Every N hours
  ['Take 1 tablet every 8 hours', ['06:00', '14:00', '22:00'], false, 'Every 8 hours'],
  ['1 tab q8h', ['06:00', '14:00', '22:00'], false, 'Every 8 hours'],
  ['1 tab q 8 h', ['06:00', '14:00', '22:00'], false, 'Every 8 hours'],
  ['Take 1 capsule every eight hours', ['06:00', '14:00', '22:00'], false, 'Every 8 hours'],
  ['1 tab q 6 h', ['00:00', '06:00', '12:00', '18:00'], false, 'Every 6 hours'],
  ['Take 1 tablet every 6 hrs', ['00:00', '06:00', '12:00', '18:00'], false, 'Every 6 hours'],
  [
    'Take 1 tablet every 4 hours',
    ['02:00', '06:00', '10:00', '14:00', '18:00', '22:00'],
    false,
    'Every 4 hours',
  ],
  [
    '1 drop every 4 hours while awake',
    ['06:00', '10:00', '14:00', '18:00', '22:00'],
    false,
    'Every 4 hours while awake',
  ],
  // Moments of the day
  ['Take 1 tablet at bedtime', ['22:00'], false, 'At bedtime'],
  ['1 tab po qhs', ['22:00'], false, 'At bedtime'],
  ['1 tab HS', ['22:00'], false, 'At bedtime'],
  ['Take 1 tablet nightly', ['22:00'], false, 'At bedtime'],
  ['Take 1 tablet at night', ['22:00'], false, 'At bedtime'],
  ['Take 1 tablet once daily at bedtime', ['22:00'], false, 'At bedtime'],
  ['Take 1 tablet every morning', ['08:00'], false, 'In the morning'],
  ['1 tab QAM', ['08:00'], false, 'In the morning'],
  ['1 tab QPM', ['18:00'], false, 'In the evening'],
  ['Take 1 tablet daily in the evening', ['18:00'], false, 'In the evening'],
  ['Take 1 tablet in the afternoon', ['14:00'], false, 'In the afternoon'],
  ['Take 1 tablet at noon', ['12:00'], false, 'At noon'],
  ['Take 1 tablet on waking', ['07:00'], false, 'On waking'],
  ['Take 1 tablet in the morning and at bedtime', ['08:00', '22:00'], false, 'In the morning and at bedtime'],
  [
    'Take 1 tablet twice daily, morning and evening',
    ['08:00', '18:00'],
    false,
    'In the morning and in the evening',
  ],
  ['1 tab AM and PM', ['08:00', '18:00'], false, 'In the morning and in the evening'],
  // Meals
  ['Take 1 tablet with meals', MEALS, false, 'With meals'],
  ['Take 1 tablet with each meal', MEALS, false, 'With meals'],
  ['Take 1 tablet three times a day with meals', MEALS, false, 'Three times a day with meals'],
  ['Take 1 tablet twice daily with meals', ['08:00', '18:00'], false, 'Twice a day with meals'],
  ['Take 1 tablet twice daily with food', TWICE, false, 'Twice a day'],
  ['1 tab TID AC', ['07:30', '11:30', '17:30'], false, 'Three times a day before meals'],
  ['Take 1 tablet after meals', ['08:30', '12:30', '18:30'], false, 'After meals'],
  ['1 tab QID AC & HS', ['07:30', '11:30', '17:30', '22:00'], false, 'Before meals and at bedtime'],
  ['Take 1 tablet 30 minutes before breakfast', ['07:30'], false, 'Before breakfast'],
  ['Take 1 tablet with breakfast', ['08:00'], false, 'With breakfast'],
  ['Take 1 tablet at lunch', ['12:00'], false, 'With lunch'],
  ['Take 1 tablet with supper', ['18:00'], false, 'With supper'],
  ['Take 1 tablet with the evening meal', ['18:00'], false, 'With dinner'],
  [
    'Take 1 tablet before breakfast and dinner',
    ['07:30', '17:30'],
    false,
    'Before breakfast and before dinner',
  ],
  ['Take 1 tablet every morning before breakfast', ['07:30'], false, 'Before breakfast'],
  ['Take 1 tablet in the evening with dinner', ['18:00'], false, 'With dinner'],
  ['Take 10 units under the skin before each meal', ['07:30', '11:30', '17:30'], false, 'Before meals'],
  // Clock times
  ['Take 1 tablet at 9 am', ['09:00'], false, 'At 09:00'],
  ['Take 1 tablet at 8 a.m. and 8 p.m.', TWICE, false, 'At 08:00 and 20:00'],
  ['Take 1 tablet daily at 21:30', ['21:30'], false, 'At 21:30'],
  ['TAKE 1 TABLET BY MOUTH EVERY DAY AT 6PM', ['18:00'], false, 'At 18:00'],
  // As needed
  ['Take 1 tablet as needed for pain', [], true, 'As needed'],
  ['1 tab po prn', [], true, 'As needed'],
  ['1 tab p.r.n. headache', [], true, 'As needed'],
  ['Take 1-2 tablets every 4 to 6 hours as needed', [], true, 'Every 4 to 6 hours, as needed'],
  ['1-2 tabs q4-6h prn pain', [], true, 'Every 4 to 6 hours, as needed'],
  ['Take 1 tablet every 6 hours as needed for pain', [], true, 'Every 6 hours, as needed'],
  ['Take 1 tablet twice daily as needed', TWICE, true, 'Twice a day, as needed'],
  ['Take 1 tablet at bedtime if needed for sleep', ['22:00'], true, 'At bedtime, as needed'],
  ['TAKE 1 TABLET BY MOUTH TWICE DAILY AS REQUIRED.', TWICE, true, 'Twice a day, as needed'],
];

describe('the dose times read from directions', () => {
  it('reads more than 45 phrasings', () => {
    expect(new Set(understood.map(([directions]) => directions.toLowerCase())).size).toBeGreaterThanOrEqual(
      45,
    );
  });

  it.each(understood)('reads %j', (directions, times, asNeeded, summary) => {
    expect(doseTimesFromDirections(directions)).toEqual({ times, asNeeded, understood: true, summary });
  });

  it('always gives sorted, unique, valid times', () => {
    for (const [directions] of understood) {
      const { times } = doseTimesFromDirections(directions);
      expect(times.every(isDoseTime)).toBe(true);
      expect([...new Set(times)].sort()).toEqual(times);
    }
  });
});

describe('directions it leaves to the person', () => {
  it.each([
    ['Take 1 tablet once a week', false],
    ['1 tab weekly on Mondays', false],
    ['Take 1 tablet every other day', false],
    ['1 tab QOD', false],
    ['Take 1 tablet every 3 days', false],
    ['Inject 1 mL once monthly', false],
    ['Take 1 tablet every 48 hours', false],
    ['Take 1 tablet every 5 hours', false],
    ['Take 1 tablet every 4 to 6 hours', false],
    ['Take 2 tablets twice daily for 3 days then once daily for 3 days', false],
    ['Take as directed', false],
    ['Take 1 tablet', false],
    ['Take 1 tablet at 25:00', false],
    ['Take 1 tablet once a week as needed', true],
    ['', false],
    ['   ', false],
  ] as const)('%j is not understood', (directions, asNeeded) => {
    expect(doseTimesFromDirections(directions)).toEqual({
      times: [],
      asNeeded,
      understood: false,
      summary: '',
    });
  });

  it('refuses text that is too long or has control characters, without throwing', () => {
    const long = `Take 1 tablet twice daily ${'x'.repeat(DIRECTIONS_MAX_LENGTH)}`;
    for (const directions of [
      long,
      'Take 1 tablet\u0000 twice daily',
      'twice daily\u001B[31m',
      'bid\uD800',
    ]) {
      expect(doseTimesFromDirections(directions)).toMatchObject({ understood: false, times: [] });
    }
    expect(doseTimesFromDirections('Take 1 tablet\r\n\ttwice daily').times).toEqual(TWICE);
    expect(() => doseTimesFromDirections(undefined as unknown as string)).not.toThrow();
  });
});

describe('the default dose times', () => {
  it('are valid times, sorted, in every row of the table', () => {
    const { timesADay, everyHours, whileAwake, moments, meals } = DEFAULT_DOSE_TIMES;
    const lists = [...Object.values(timesADay), ...Object.values(everyHours)];
    for (const times of lists) {
      expect(times.every(isDoseTime)).toBe(true);
      expect([...times].sort()).toEqual(times);
    }
    const single = [
      whileAwake.first,
      whileAwake.last,
      ...Object.values(moments),
      ...Object.values(meals).flatMap((meal) => Object.values(meal)),
    ];
    expect(single.every(isDoseTime)).toBe(true);
  });

  it('give N times a day N times, and every N hours 24/N times', () => {
    for (const [count, times] of Object.entries(DEFAULT_DOSE_TIMES.timesADay))
      expect(times).toHaveLength(Number(count));
    for (const [hours, times] of Object.entries(DEFAULT_DOSE_TIMES.everyHours))
      expect(times).toHaveLength(24 / Number(hours));
  });

  it('checks a time of day', () => {
    for (const time of ['00:00', '08:00', '23:59', '12:30']) expect(isDoseTime(time)).toBe(true);
    for (const time of ['24:00', '8:00', '08:60', '08:00:00', ' 08:00', '', 'noon', '0800'])
      expect(isDoseTime(time)).toBe(false);
  });
});
