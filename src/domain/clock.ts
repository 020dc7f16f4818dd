// Date and time rules that need no date library, so the first screens (sign-in, the header) load
// without Luxon; what a date looks like on screen is date-display.ts's, date arithmetic dates.ts's.

// The display formats live in date-display.ts; these names stay importable from here for the screens
// that still do (the subscription's).
export { formatDate, formatDateTime } from './date-display';

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
