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
