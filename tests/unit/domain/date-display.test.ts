import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startOfTodayIso } from '../../../src/domain/clock';
import {
  formatClockTime,
  formatDate,
  formatDateTime,
  formatDay,
  formatMoment,
  formatTime,
  relativeTime,
  usesTwelveHourClock,
  zoneLabel,
} from '../../../src/domain/date-display';

// One format per kind (date, date-time, time, day), written by hand so the first screens load without
// Luxon; Luxon's tokens describe the same formats here and the two are held to the same text. The time
// follows the viewer's locale; a moment of another zone is shown on that zone's clock, named.

const DATE = 'ccc, LLL dd, yyyy';
const LUXON_24 = `${DATE}, HH:mm`;
const LUXON_12 = `${DATE}, h:mm a`;
const GB = { locale: 'en-GB' };
const US = { locale: 'en-US' };

const instants = [
  '2027-04-01T09:00:00Z',
  '2026-12-31T23:59:59Z',
  '2026-01-05T00:00:00.000Z',
  '2028-02-29T12:34:56+02:00',
  '2026-07-04T18:05:00-07:00',
  '2026-11-23T06:07:08',
];

describe('the display formats on the device clock', () => {
  it.each(instants)('formats %s as Luxon does with the format tokens, 24-hour and 12-hour', (iso) => {
    const luxon = DateTime.fromISO(iso, { locale: 'en-US' });
    expect(formatDateTime(iso, GB)).toBe(luxon.toFormat(LUXON_24));
    expect(formatDateTime(iso, US)).toBe(luxon.toFormat(LUXON_12));
    expect(formatDate(iso)).toBe(luxon.toFormat(DATE));
    expect(formatTime(iso, US)).toBe(luxon.toFormat('h:mm a'));
    expect(formatTime(iso, GB)).toBe(luxon.toFormat('HH:mm'));
  });

  it('names every weekday and month, and pads every day and hour, as Luxon does', () => {
    // Every day of a leap year at a different hour, minute and second: each name and each padding.
    let moment = DateTime.fromISO('2028-01-01T00:00:00', { locale: 'en-US' });
    for (
      let day = 0;
      day < 366;
      day++, moment = moment.plus({ days: 1, hours: 1, minutes: 7, seconds: 13 })
    ) {
      const iso = moment.toISO() ?? '';
      expect(formatDateTime(iso, GB)).toBe(moment.toFormat(LUXON_24));
      expect(formatDateTime(iso, US)).toBe(moment.toFormat(LUXON_12));
      expect(formatMoment(moment.toMillis(), GB)).toBe(moment.toFormat(`${DATE}, HH:mm:ss`));
      expect(formatDay(iso)).toBe(moment.toFormat('LLL d'));
    }
  });

  it('reads a date alone as that day, not UTC midnight, in any zone asked for', () => {
    for (const day of ['2027-04-01', '2026-01-01', '2026-12-31']) {
      expect(formatDate(day)).toBe(DateTime.fromISO(day).toFormat(DATE));
      expect(formatDate(day, { zone: 'Pacific/Kiritimati' })).toBe(DateTime.fromISO(day).toFormat(DATE));
      expect(formatDay(day)).toBe(DateTime.fromISO(day).toFormat('LLL d'));
    }
  });

  it('gives nothing for what is not a date', () => {
    for (const bad of ['', 'tomorrow', '2026-13-45T00:00:00Z', '12/01/2026', 'NaN']) {
      expect(formatDateTime(bad)).toBe('');
      expect(formatDate(bad)).toBe('');
      expect(formatTime(bad)).toBe('');
      expect(formatDay(bad)).toBe('');
    }
  });

  it('writes a dose time on the locale clock', () => {
    expect(formatClockTime('08:00', 'en-US')).toBe('8:00 AM');
    expect(formatClockTime('00:05', 'en-US')).toBe('12:05 AM');
    expect(formatClockTime('12:30', 'en-US')).toBe('12:30 PM');
    expect(formatClockTime('20:00', 'en-GB')).toBe('20:00');
    expect(formatClockTime('as needed', 'en-US')).toBe('as needed');
  });

  it('follows the locale: 12-hour in en-US and en-IN, 24-hour in en-GB and de-DE', () => {
    expect(usesTwelveHourClock('en-US')).toBe(true);
    expect(usesTwelveHourClock('en-IN')).toBe(true);
    expect(usesTwelveHourClock('en-GB')).toBe(false);
    expect(usesTwelveHourClock('de-DE')).toBe(false);
  });
});

describe('a moment of its own zone', () => {
  // A 10:15 visit in New York, booked for 10 July 2026 (EDT, UTC-4).
  const visit = '2026-07-10T14:15:00.000Z';
  const newYork = 'America/New_York';

  it('reads on its own clock, named where the viewer’s clock reads otherwise', () => {
    const inLosAngeles = { zone: newYork, viewerZone: 'America/Los_Angeles', ...US };
    expect(formatDateTime(visit, inLosAngeles)).toBe('Fri, Jul 10, 2026, 10:15 AM ET');
    expect(formatTime(visit, inLosAngeles)).toBe('10:15 AM ET');
    expect(formatDateTime(visit, { ...inLosAngeles, locale: 'en-GB' })).toBe(
      'Fri, Jul 10, 2026, 10:15 GMT-4',
    );
  });

  it('is not labelled when the viewer is in the same zone, or one reading the same time', () => {
    expect(formatDateTime(visit, { zone: newYork, viewerZone: newYork, ...US })).toBe(
      'Fri, Jul 10, 2026, 10:15 AM',
    );
    expect(formatTime(visit, { zone: newYork, viewerZone: 'America/Toronto', ...US })).toBe('10:15 AM');
  });

  it('keeps its own date when the viewer’s day is another', () => {
    // 23:30 in Los Angeles is already the next day in Berlin.
    const late = '2026-07-11T06:30:00.000Z';
    expect(formatDateTime(late, { zone: 'America/Los_Angeles', viewerZone: 'Europe/Berlin', ...GB })).toBe(
      'Fri, Jul 10, 2026, 23:30 GMT-7',
    );
    expect(formatDate(late, { zone: 'Europe/Berlin' })).toBe('Sat, Jul 11, 2026');
  });

  it('crosses a daylight-saving change: the same wall time on either side, with the right offset', () => {
    // New York springs forward on 8 March 2026 at 02:00; 09:00 is UTC-5 the day before, UTC-4 that day.
    const before = DateTime.fromISO('2026-03-07T09:00', { zone: newYork }).toUTC().toISO() ?? '';
    const changeDay = DateTime.fromISO('2026-03-08T09:00', { zone: newYork }).toUTC().toISO() ?? '';
    expect(before).toBe('2026-03-07T14:00:00.000Z');
    expect(changeDay).toBe('2026-03-08T13:00:00.000Z');
    const shown = { zone: newYork, viewerZone: 'UTC', ...US };
    expect(formatDateTime(before, shown)).toBe('Sat, Mar 07, 2026, 9:00 AM ET');
    expect(formatDateTime(changeDay, shown)).toBe('Sun, Mar 08, 2026, 9:00 AM ET');
    // An hour either side of the change, on the change night itself: 01:30 EST, then 03:30 EDT.
    expect(formatTime('2026-03-08T06:30:00Z', shown)).toBe('1:30 AM ET');
    expect(formatTime('2026-03-08T07:30:00Z', shown)).toBe('3:30 AM ET');
    // Seen from Los Angeles, which changes the same night: three hours apart on both days.
    const fromLosAngeles = { zone: newYork, viewerZone: 'America/Los_Angeles', ...GB };
    expect(formatTime(changeDay, fromLosAngeles)).toBe('09:00 GMT-4');
    expect(formatTime(before, fromLosAngeles)).toBe('09:00 GMT-5');
  });

  it('handles a zone half an hour off the hour (India, UTC+5:30)', () => {
    const kolkata = { zone: 'Asia/Kolkata', viewerZone: 'America/New_York', ...US };
    // 04:45 UTC is 10:15 in Kolkata.
    expect(formatDateTime('2026-07-10T04:45:00Z', kolkata)).toBe('Fri, Jul 10, 2026, 10:15 AM GMT+5:30');
    expect(formatTime('2026-07-10T04:45:00Z', { ...kolkata, viewerZone: 'Asia/Kolkata' })).toBe('10:15 AM');
    // Adelaide is UTC+9:30 in winter (July) and UTC+10:30 in summer (January).
    const adelaide = { zone: 'Australia/Adelaide', viewerZone: 'UTC', ...GB };
    expect(formatTime('2026-07-10T00:45:00Z', adelaide)).toBe('10:15 GMT+9:30');
    expect(formatTime('2026-01-10T00:45:00Z', adelaide)).toBe('11:15 GMT+10:30');
  });

  it('names a zone briefly: a common abbreviation, else what Intl gives', () => {
    const summer = new Date('2026-07-10T12:00:00Z');
    expect(zoneLabel('America/New_York', summer, 'en-US')).toBe('ET');
    expect(zoneLabel('America/Los_Angeles', summer, 'en-US')).toBe('PT');
    expect(zoneLabel('Europe/Berlin', summer, 'en-US')).toBe('GMT+2');
    expect(zoneLabel('Europe/Berlin', summer, 'en-GB')).toBe('CET'); // en-GB's generic name, all year
    expect(zoneLabel('Asia/Kolkata', summer, 'en-US')).toBe('GMT+5:30');
    expect(zoneLabel('UTC', summer, 'en-US')).toBe('UTC');
    expect(zoneLabel('UTC-05:00', summer, 'en-US')).toBe('GMT-5');
    expect(zoneLabel('UTC+05:30', summer, 'en-US')).toBe('GMT+5:30');
  });

  it('reads a fixed offset as that offset’s clock', () => {
    expect(formatTime('2026-07-10T14:15:00Z', { zone: 'UTC-05:00', viewerZone: 'UTC', ...US })).toBe(
      '9:15 AM GMT-5',
    );
  });
});

describe('relativeTime', () => {
  const now = DateTime.fromISO('2026-11-23T12:00:00Z').toMillis();
  it.each([
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

  // Luxon says 'in 0 seconds' and '5 seconds ago': nobody says that of a sync that has just finished.
  it.each([
    [0, 'just now'],
    [-1000, 'just now'],
    [-59 * 1000, 'just now'],
    [30 * 1000, 'just now'],
    [-60 * 1000, '1 minute ago'],
    [-2 * 60 * 1000 - 5000, '2 minutes ago'],
    [-3600 * 1000, '1 hour ago'],
    [-24 * 3600 * 1000, '1 day ago'],
  ])('%d ms from now reads as a person says it', (offset, words) => {
    expect(relativeTime(now + offset, now)).toBe(words);
  });
});

describe('startOfTodayIso', () => {
  it('is local midnight of the same day, as Luxon works it out', () => {
    const at = new Date('2026-11-23T15:30:00');
    expect(startOfTodayIso(at)).toBe(DateTime.fromJSDate(at).startOf('day').toUTC().toISO());
  });
});
