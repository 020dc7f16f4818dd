// Date and time rules that need no date library, so the first screens (sign-in, the header) load
// without Luxon; formatting and date arithmetic live in dates.ts.

/** SPEC section 9: Morning before 12, Afternoon before 18, otherwise Evening. */
export function greetingFor(hour: number): 'Good Morning' | 'Good Afternoon' | 'Good Evening' {
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/** SPEC section 9: night is before 06:00 or after 18:00. */
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
