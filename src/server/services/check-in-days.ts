// The days a check-in may be for, judged by the server's clock (UTC). A check-in is for the device's
// local date; every time zone's date is within a day of UTC's, so a day more than one ahead is wrong. A
// past day is taken for a week, so the answers a device queued offline still arrive when it reconnects.

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);

/** The server's date (UTC), YYYY-MM-DD. */
export const utcDay = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** How late a device's answers may arrive, in days. */
export const CHECK_IN_LATE_DAYS = 7;

/** Whether a device may be on this day (YYYY-MM-DD, a real date) now. */
export function dayWithinReach(day: string, now: Date = new Date()): boolean {
  const offset = dayNumber(day) - dayNumber(utcDay(now));
  return offset <= 1 && offset >= -CHECK_IN_LATE_DAYS;
}

/** `count` days ending with `until`, oldest first. */
export function daysUntil(until: string, count: number): string[] {
  const last = dayNumber(until);
  return Array.from({ length: count }, (_, index) => dayOf(last - count + 1 + index));
}
