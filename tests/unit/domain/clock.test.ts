import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  formatDate,
  formatDateTime,
  formatMoment,
  relativeTime,
  startOfTodayIso,
} from '../../../src/domain/clock';
import { DATE_DISPLAY, DATE_TIME_DISPLAY } from '../../../src/domain/dates';

// The first screens format dates by hand (clock.ts) so that they load without Luxon or Intl's locale data;
// everywhere else Luxon's tokens describe the display formats. These hold the two to the same text.

const instants = [
  '2027-04-01T09:00:00Z',
  '2026-12-31T23:59:59Z',
  '2026-01-05T00:00:00.000Z',
  '2028-02-29T12:34:56+02:00',
  '2026-07-04T18:05:00-07:00',
  '2026-11-23T06:07:08',
];

describe('display formats without Luxon', () => {
  it.each(instants)('formats %s as Luxon does with the display format tokens', (iso) => {
    expect(formatDateTime(iso)).toBe(DateTime.fromISO(iso).toFormat(DATE_TIME_DISPLAY));
    expect(formatDate(iso)).toBe(DateTime.fromISO(iso).toFormat(DATE_DISPLAY));
  });

  it('names every weekday and month, and pads every day and hour, as Luxon does', () => {
    // Every day of a leap year at a different hour, minute and second: each name and each padding.
    let moment = DateTime.fromISO('2028-01-01T00:00:00');
    for (
      let day = 0;
      day < 366;
      day++, moment = moment.plus({ days: 1, hours: 1, minutes: 7, seconds: 13 })
    ) {
      const iso = moment.toISO() ?? '';
      expect(formatDateTime(iso)).toBe(moment.toFormat(DATE_TIME_DISPLAY));
      expect(formatMoment(moment.toMillis())).toBe(moment.toFormat('ccc, LLL dd, HH:mm:ss'));
    }
  });

  it('reads a date alone as that day on the device, not UTC midnight', () => {
    for (const day of ['2027-04-01', '2026-01-01', '2026-12-31']) {
      expect(formatDate(day)).toBe(DateTime.fromISO(day).toFormat(DATE_DISPLAY));
    }
  });

  it('gives nothing for what is not a date', () => {
    for (const bad of ['', 'tomorrow', '2026-13-45T00:00:00Z', '12/01/2026', 'NaN']) {
      expect(formatDateTime(bad)).toBe('');
      expect(formatDate(bad)).toBe('');
    }
  });

  it('formats a moment with seconds as the sync status shows it', () => {
    const at = DateTime.fromISO('2026-11-23T06:07:08').toMillis();
    expect(formatMoment(at)).toBe(DateTime.fromMillis(at).toFormat('ccc, LLL dd, HH:mm:ss'));
  });
});

describe('relativeTime', () => {
  const now = DateTime.fromISO('2026-11-23T12:00:00Z').toMillis();
  it.each([
    [0, 'in 0 seconds'],
    [-1000, '1 second ago'],
    [-5 * 1000, '5 seconds ago'],
    [-90 * 1000, '1 minute ago'],
    [-5 * 60 * 1000, '5 minutes ago'],
    [-3 * 3600 * 1000, '3 hours ago'],
    [-2 * 24 * 3600 * 1000, '2 days ago'],
    [-8 * 24 * 3600 * 1000, '8 days ago'],
    [2 * 3600 * 1000, 'in 2 hours'],
    [24 * 3600 * 1000, 'in 1 day'],
    [400 * 24 * 3600 * 1000, 'in 1 year'],
  ])('%d ms from now reads as Luxon says it', (offset, words) => {
    expect(relativeTime(now + offset, now)).toBe(words);
    expect(DateTime.fromMillis(now + offset).toRelative({ base: DateTime.fromMillis(now) })).toBe(words);
  });
});

describe('startOfTodayIso', () => {
  it('is local midnight of the same day, as Luxon works it out', () => {
    const at = new Date('2026-11-23T15:30:00');
    expect(startOfTodayIso(at)).toBe(DateTime.fromJSDate(at).startOf('day').toUTC().toISO());
  });
});
