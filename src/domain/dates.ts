import { DateTime } from 'luxon';

// Display formats of SPEC section 9, written as Luxon tokens:
// 'ddd, MMM DD, YYYY, HH:mm' -> 'ccc, LLL dd, yyyy, HH:mm'; 'ddd, MMM DD, YYYY' -> 'ccc, LLL dd, yyyy'.
export const DATE_TIME_DISPLAY = 'ccc, LLL dd, yyyy, HH:mm';
export const DATE_DISPLAY = 'ccc, LLL dd, yyyy';
export const ISO_DATE = 'yyyy-MM-dd';

export function formatDateTime(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat(DATE_TIME_DISPLAY) : '';
}

export function formatDate(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat(DATE_DISPLAY) : '';
}

/** Whole years between a YYYY-MM-DD birth date and `today`. */
export function ageFromBirthDate(birthDate: string, today: DateTime = DateTime.now()): number | null {
  const born = DateTime.fromISO(birthDate);
  if (!born.isValid) return null;
  const years = Math.floor(today.startOf('day').diff(born.startOf('day'), 'years').years);
  return years >= 0 ? years : null;
}

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

export function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromFormat(value, ISO_DATE).isValid;
}
