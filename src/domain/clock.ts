// Date and time rules that need no date library, so the first screens (sign-in, the header) load
// without Luxon; formatting and date arithmetic live in dates.ts.

/** Morning before 12, Afternoon before 18, otherwise Evening (README.md beside this file). */
export function greetingFor(hour: number): 'Good Morning' | 'Good Afternoon' | 'Good Evening' {
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/** Night is before 06:00 or after 18:00. */
export function isNight(hour: number, minute = 0): boolean {
  return hour < 6 || hour > 18 || (hour === 18 && minute > 0);
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A date as the device's calendar reads it: YYYY-MM-DD is that day at local midnight (as Luxon's fromISO
 * reads it, not UTC midnight as Date does), anything else as Date parses ISO. Null when not a date.
 */
function localDateOf(iso: string): Date | null {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const date = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : /^\d{4}-\d{2}-\d{2}T/.test(iso)
      ? new Date(iso)
      : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

// The display formats are written in English tokens ('ddd' is Mon to Sun, 'MMM' Jan to Dec), so
// they are spelled out here from the device's clock rather than through Intl. The first Intl formatter a
// page makes loads the locale's data: 17 to 25 ms of main thread here, four times that on the phone
// tests/bench/lighthouse.ts simulates, in the middle of Home's first screen. A device set to another
// language also gets the formats' English now, as every other text of the app is.
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

function partsOf(date: Date) {
  return {
    weekday: WEEKDAYS[date.getDay()],
    month: MONTHS[date.getMonth()],
    day: twoDigits(date.getDate()),
    year: String(date.getFullYear()),
    hour: twoDigits(date.getHours()),
    minute: twoDigits(date.getMinutes()),
    second: twoDigits(date.getSeconds()),
  };
}

// The display formats (README.md beside this file: 'ddd, MMM DD, YYYY, HH:mm' and 'ddd, MMM DD, YYYY'): the
// first screens (Home, the header) show dates without loading Luxon. tests/unit/domain/clock.test.ts holds
// them to Luxon's output for the same formats.

/** 'Thu, Apr 01, 2027, 09:00' ('' when not a date). */
export function formatDateTime(iso: string): string {
  const date = localDateOf(iso);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute}`;
}

/** 'Thu, Apr 01, 2027' ('' when not a date). */
export function formatDate(iso: string): string {
  const date = localDateOf(iso);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year}`;
}

/** 'Thu, Apr 01, 09:00:05': when something happened today or lately (the sync status). */
export function formatMoment(at: number): string {
  const p = partsOf(new Date(at));
  return `${p.weekday}, ${p.month} ${p.day}, ${p.hour}:${p.minute}:${p.second}`;
}

// Luxon's own units: no weeks ('8 days ago').
const RELATIVE_UNITS: [string, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

/** '5 minutes ago', 'in 2 hours': the largest whole unit, as Luxon's toRelative() says it (in English). */
export function relativeTime(at: number, now = Date.now()): string {
  const difference = at - now;
  for (const [unit, size] of RELATIVE_UNITS) {
    const count = Math.trunc(difference / size);
    if (count === 0) continue;
    const amount = `${Math.abs(count)} ${unit}${Math.abs(count) === 1 ? '' : 's'}`;
    return count < 0 ? `${amount} ago` : `in ${amount}`;
  }
  return 'in 0 seconds';
}

/** The start of the device's today, as an ISO instant (UTC). */
export function startOfTodayIso(now = new Date()): string {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  return start.toISOString();
}

/** The device's calendar day at `now` (YYYY-MM-DD, local time): what "today" means to the person holding it. */
export function deviceDay(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
