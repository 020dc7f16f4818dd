import { describe, expect, it } from 'vitest';
import { parseSpokenDate, SPOKEN_DATE_ERROR } from '../../../src/domain/spoken-date';

// Tuesday 24 November 2026, late in the evening: the device's local calendar day is what counts.
const TODAY = new Date(2026, 10, 24, 23, 30);

const PARSED: [string, string][] = [
  ['March 5th 2026', '2026-03-05'],
  ['march fifth twenty twenty six', '2026-03-05'],
  ['5 March 2026', '2026-03-05'],
  ['the fifth of March, 2026', '2026-03-05'],
  ['03/05/2026', '2026-03-05'],
  ['3/5/2026', '2026-03-05'],
  ['2026-03-05', '2026-03-05'],
  ['March 5', '2026-03-05'],
  ['on March 5th, 2026.', '2026-03-05'],
  ['MARCH FIFTH', '2026-03-05'],
  ['today', '2026-11-24'],
  ['Today.', '2026-11-24'],
  ['tomorrow', '2026-11-25'],
  ['yesterday', '2026-11-23'],
  ['the day after tomorrow', '2026-11-26'],
  ['day before yesterday', '2026-11-22'],
  ['next Monday', '2026-11-30'],
  ['next Tuesday', '2026-12-01'],
  ['last Friday', '2026-11-20'],
  ['last Tuesday', '2026-11-17'],
  ['in 3 days', '2026-11-27'],
  ['in three days', '2026-11-27'],
  ['three days ago', '2026-11-21'],
  ['in two weeks', '2026-12-08'],
  ['a week ago', '2026-11-17'],
  ['ten days from now', '2026-12-04'],
  ['in 40 days', '2027-01-03'],
  ['in twenty one days', '2026-12-15'],
  ['six months ago', '2026-05-24'],
  ['in a year', '2027-11-24'],
  ['Sept 9 2026', '2026-09-09'],
  ['Feb. 2nd, 2026', '2026-02-02'],
  ['the thirty-first of December nineteen ninety nine', '1999-12-31'],
  ['July twenty first two thousand twenty six', '2026-07-21'],
  ['July twenty-first, two thousand and six', '2006-07-21'],
  ['June 1st nineteen eighty four', '1984-06-01'],
  ['march twenty twenty twenty six', '2026-03-20'],
  ['march twenty six', '2026-03-26'],
  ['January thirtieth twenty twenty', '2020-01-30'],
  ['october first nineteen oh five', '1905-10-01'],
  ['May 10 nineteen hundred and five', '1905-05-10'],
  ['twelfth Aug 2026', '2026-08-12'],
  ['February 29th 2028', '2028-02-29'],
  ['2024-2-29', '2024-02-29'],
];

const REFUSED = [
  'February 30',
  'feb thirtieth 2026',
  'April 31 2026',
  'april thirty first',
  '2025-02-29',
  'February 29 2025',
  '02/30/2026',
  '13/05/2026',
  '2026-13-01',
  'March 32',
  'march zero',
  'March',
  'March 5 12',
  '05/03/26',
  'Monday',
  'next someday',
  'in three apples',
  'in days',
  'the fifth',
  'twenty twenty six',
  'banana',
  '',
  '   ',
  'March 5 April 6',
];

describe('parseSpokenDate', () => {
  it.each(PARSED)('reads %j as %s', (spoken, expected) => {
    expect(parseSpokenDate(spoken, TODAY)).toEqual({ date: expected });
  });

  it.each(REFUSED)('refuses %j with the product text', (spoken) => {
    expect(parseSpokenDate(spoken, TODAY)).toEqual({ error: SPOKEN_DATE_ERROR });
  });

  it('uses the product error text word for word', () => {
    expect(SPOKEN_DATE_ERROR).toBe("Couldn't understand the date. Please try again.");
  });

  it('crosses month, year and leap-day boundaries by calendar arithmetic', () => {
    expect(parseSpokenDate('tomorrow', new Date(2026, 11, 31))).toEqual({ date: '2027-01-01' });
    expect(parseSpokenDate('yesterday', new Date(2028, 2, 1))).toEqual({ date: '2028-02-29' });
    expect(parseSpokenDate('yesterday', new Date(2027, 2, 1))).toEqual({ date: '2027-02-28' });
    expect(parseSpokenDate('in 1 month', new Date(2026, 0, 31))).toEqual({ date: '2026-02-28' });
    expect(parseSpokenDate('a month ago', new Date(2028, 2, 31))).toEqual({ date: '2028-02-29' });
    expect(parseSpokenDate('next Friday', new Date(2026, 11, 28))).toEqual({ date: '2027-01-01' });
  });

  it('takes the year of today for a date said without one', () => {
    expect(parseSpokenDate('March 5', new Date(2030, 5, 1))).toEqual({ date: '2030-03-05' });
    // February 29 exists only in leap years.
    expect(parseSpokenDate('February 29', new Date(2028, 5, 1))).toEqual({ date: '2028-02-29' });
    expect(parseSpokenDate('February 29', new Date(2027, 5, 1))).toEqual({ error: SPOKEN_DATE_ERROR });
  });

  it('reads the local calendar day of today, at any hour', () => {
    for (const hour of [0, 1, 12, 23])
      expect(parseSpokenDate('today', new Date(2026, 10, 24, hour, 59))).toEqual({ date: '2026-11-24' });
  });

  it('refuses a date it would move outside four-digit years', () => {
    expect(parseSpokenDate('in 99999999 days', TODAY)).toEqual({ error: SPOKEN_DATE_ERROR });
    expect(parseSpokenDate('today', new Date(Number.NaN))).toEqual({ error: SPOKEN_DATE_ERROR });
  });
});
