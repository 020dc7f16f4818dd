// Voice date input (README.md beside this file): what an en-US speech engine writes down for a spoken date,
// turned into the YYYY-MM-DD the forms store. Pure: the caller passes `today` (the device's local calendar
// day), and every computation is plain year/month/day arithmetic. Date.UTC is used only as a calendar
// calculator (days in a month, adding days, the weekday), never to parse text, so no time zone or host locale
// can shift the answer by a day.
//
// Decisions a reader could make differently:
// - 'next Monday' is the first Monday after today (a week ahead when today is Monday); 'last Friday' is
//   the latest Friday before today. A bare weekday ('Monday') is refused: past or future is unknown.
// - 'March 5' without a year is in today's year, even when that day is still to come.
// - 'in 1 month' / '2 years ago' keep the day and clamp it to the month's last day (Jan 31 + 1 month is
//   Feb 28 or 29).
// - '03/05/2026' is US month/day, as the date picker's MM/dd/yyyy; years are four digits or spoken words.

export const SPOKEN_DATE_ERROR = "Couldn't understand the date. Please try again.";

export type SpokenDateResult = { date: string } | { error: string };

type CalendarDay = { year: number; month: number; day: number };

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const CARDINALS: Record<string, number> = Object.fromEntries([
  ...UNITS.map((word, value) => [word, value]),
  ...TEENS.map((word, index) => [word, 10 + index]),
]);
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};

// Words engines put around a date that carry no meaning here ('on the fifth of March, 2026').
const FILLER = new Set(['on', 'the', 'of', 'and']);

type SpokenNumber = { value: number; ordinal: boolean };

/** One or two words (or digits) saying a number below 100: 'five', 'twenty first', '21'. */
function smallNumber(words: string[]): SpokenNumber | null {
  const [first, second] = words;
  if (first === undefined || words.length > 2) return null;
  if (second === undefined) {
    if (/^\d{1,2}$/.test(first)) return { value: Number(first), ordinal: false };
    if (first in CARDINALS) return { value: CARDINALS[first] ?? 0, ordinal: false };
    if (first in TENS) return { value: TENS[first] ?? 0, ordinal: false };
    if (first in ORDINALS) return { value: ORDINALS[first] ?? 0, ordinal: true };
    return null;
  }
  // 'twenty one', 'thirty first': a tens word then a unit from one to nine.
  const tens = TENS[first];
  if (tens === undefined) return null;
  const unit = CARDINALS[second];
  if (unit !== undefined && unit >= 1 && unit <= 9) return { value: tens + unit, ordinal: false };
  const ordinalUnit = ORDINALS[second];
  if (ordinalUnit !== undefined && ordinalUnit <= 9) return { value: tens + ordinalUnit, ordinal: true };
  return null;
}

/** A cardinal number below 100 in words or digits ('three', '21'), or null. */
function cardinal(words: string[]): number | null {
  const number = smallNumber(words);
  return number && !number.ordinal ? number.value : null;
}

/** A day of the month said any way ('5', 'fifth', 'five', 'thirty first'); range is checked later. */
function dayNumber(words: string[]): number | null {
  const number = smallNumber(words);
  return number && number.value >= 1 ? number.value : null;
}

/**
 * A year: four digits, or words as people say years: 'twenty twenty six', 'nineteen eighty four',
 * 'nineteen oh five', 'nineteen hundred (and) five', 'two thousand (and) twenty six'.
 */
function yearNumber(words: string[]): number | null {
  const [only] = words;
  if (words.length === 1 && only !== undefined && /^\d{4}$/.test(only)) return Number(only);
  const thousandAt = words.indexOf('thousand');
  if (thousandAt > 0) {
    const thousands = cardinal(words.slice(0, thousandAt));
    const rest = words.slice(thousandAt + 1);
    const remainder = rest.length === 0 ? 0 : cardinal(rest);
    if (thousands === null || thousands < 1 || thousands > 9 || remainder === null) return null;
    return thousands * 1000 + remainder;
  }
  // The century said as a number from ten to ninety-nine, then the two last digits.
  for (const split of [1, 2]) {
    const century = cardinal(words.slice(0, split));
    const rest = words.slice(split);
    if (century === null || century < 10 || rest.length === 0) continue;
    if (rest[0] === 'hundred') {
      const lastDigits = rest.length === 1 ? 0 : cardinal(rest.slice(1));
      if (lastDigits !== null) return century * 100 + lastDigits;
      continue;
    }
    const [zero, unit] = rest;
    if (rest.length === 2 && (zero === 'oh' || zero === 'o' || zero === 'zero') && unit !== undefined) {
      const digit = cardinal([unit]);
      if (digit !== null && digit >= 1 && digit <= 9) return century * 100 + digit;
    }
    const lastDigits = cardinal(rest);
    if (lastDigits !== null && lastDigits >= 10) return century * 100 + lastDigits;
  }
  return null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The day only when it exists in the calendar (no February 30, no 2025-02-29) and has a 4-digit year. */
function realDay(year: number, month: number, day: number): CalendarDay | null {
  if (![year, month, day].every(Number.isInteger)) return null;
  if (year < 1000 || year > 9999 || month < 1 || month > 12) return null;
  return day >= 1 && day <= daysInMonth(year, month) ? { year, month, day } : null;
}

function addDays(from: CalendarDay, days: number): CalendarDay | null {
  const moved = new Date(Date.UTC(from.year, from.month - 1, from.day + days));
  return realDay(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
}

function addMonths(from: CalendarDay, months: number): CalendarDay | null {
  const index = from.year * 12 + (from.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  if (year < 1000 || year > 9999) return null;
  return realDay(year, month, Math.min(from.day, daysInMonth(year, month)));
}

function weekdayOf(day: CalendarDay): number {
  return new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
}

/** Lower case, words only: no commas, no periods after words ('Feb.', the engine's final period). */
function wordsOf(spoken: string): string[] {
  return spoken
    .toLowerCase()
    .replace(/[,;!?]/g, ' ')
    .replace(/\.+\s*$/, '')
    .replace(/([a-z])\./g, '$1 ')
    .replace(/([a-z])-(?=[a-z])/g, '$1 ')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\b(\d{1,2})(?:st|nd|rd|th)\b/g, '$1')
    .split(/\s+/)
    .filter((word) => word !== '' && !FILLER.has(word));
}

/** '2026-03-05' and US '03/05/2026'. */
function numericDate(words: string[]): CalendarDay | null {
  const [only] = words;
  if (words.length !== 1 || only === undefined) return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(only);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(only);
  if (us) return realDay(Number(us[3]), Number(us[1]), Number(us[2]));
  return null;
}

const NAMED_DAYS: Record<string, number> = {
  today: 0,
  tomorrow: 1,
  yesterday: -1,
  'day after tomorrow': 2,
  'day before yesterday': -2,
};

const UNIT_DAYS: Record<string, number> = { day: 1, days: 1, week: 7, weeks: 7 };
const UNIT_MONTHS: Record<string, number> = { month: 1, months: 1, year: 12, years: 12 };

/** How many: 'a', 'an', any digits, or words below 100. */
function countOf(words: string[]): number | null {
  const [only] = words;
  if (words.length === 1 && only !== undefined) {
    if (only === 'a' || only === 'an') return 1;
    if (/^\d+$/.test(only)) return Number(only);
  }
  return cardinal(words);
}

/** 'in 3 days', 'in two weeks', 'three days ago', 'a week ago', '5 days from now', 'in a month'. */
function relativeDate(words: string[], today: CalendarDay): CalendarDay | null {
  let sign: number;
  let amount: string[];
  if (words[0] === 'in') [sign, amount] = [1, words.slice(1)];
  else if (words.at(-1) === 'ago') [sign, amount] = [-1, words.slice(0, -1)];
  else if (words.at(-2) === 'from' && words.at(-1) === 'now') [sign, amount] = [1, words.slice(0, -2)];
  else return null;
  const unit = amount.at(-1) ?? '';
  const count = countOf(amount.slice(0, -1));
  if (count === null) return null;
  const days = UNIT_DAYS[unit];
  if (days !== undefined) return addDays(today, sign * count * days);
  const months = UNIT_MONTHS[unit];
  if (months !== undefined) return addMonths(today, sign * count * months);
  return null;
}

/** 'next Monday' (after today), 'last Friday' (before today), 'next week', 'last week'. */
function weekdayDate(words: string[], today: CalendarDay): CalendarDay | null {
  const [direction, name] = words;
  if (words.length !== 2 || (direction !== 'next' && direction !== 'last')) return null;
  const sign = direction === 'next' ? 1 : -1;
  if (name === 'week') return addDays(today, sign * 7);
  const target = WEEKDAYS.indexOf(name ?? '');
  if (target < 0) return null;
  const difference = (sign * (target - weekdayOf(today)) + 7) % 7 || 7;
  return addDays(today, sign * difference);
}

/** 'March 5th 2026', 'march fifth twenty twenty six', '5 March 2026', 'fifth March', 'Sept 9'. */
function monthNameDate(words: string[], today: CalendarDay): CalendarDay | null {
  const monthAt = words.findIndex((word) => word in MONTHS);
  const month = MONTHS[words[monthAt] ?? ''];
  if (month === undefined || words.findLastIndex((word) => word in MONTHS) !== monthAt) return null;
  const before = words.slice(0, monthAt);
  const after = words.slice(monthAt + 1);
  const dated = (day: number | null, yearWords: string[]): CalendarDay | null => {
    const year = yearWords.length === 0 ? today.year : yearNumber(yearWords);
    return day === null || year === null ? null : realDay(year, month, day);
  };
  if (before.length > 0) return dated(dayNumber(before), after);
  // Month first: the day takes one or two words ('twenty first'), the year what follows.
  for (const dayWords of [2, 1]) {
    if (after.length < dayWords) continue;
    const found = dated(dayNumber(after.slice(0, dayWords)), after.slice(dayWords));
    if (found) return found;
  }
  return null;
}

function isoOf({ year, month, day }: CalendarDay): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** What a speech engine heard, as YYYY-MM-DD, or the product's error text when it is not a real date. */
export function parseSpokenDate(spoken: string, today: Date): SpokenDateResult {
  const todayDay: CalendarDay = {
    year: today.getFullYear(),
    month: today.getMonth() + 1,
    day: today.getDate(),
  };
  const words = wordsOf(spoken);
  const named = NAMED_DAYS[words.join(' ')];
  const found =
    named !== undefined
      ? addDays(todayDay, named)
      : (numericDate(words) ??
        relativeDate(words, todayDay) ??
        weekdayDate(words, todayDay) ??
        monthNameDate(words, todayDay));
  return found ? { date: isoOf(found) } : { error: SPOKEN_DATE_ERROR };
}
