import { DateTime } from 'luxon';

// Display formats (README.md beside this file), written as Luxon tokens:
// 'ddd, MMM DD, YYYY, HH:mm' -> 'ccc, LLL dd, yyyy, HH:mm'; 'ddd, MMM DD, YYYY' -> 'ccc, LLL dd, yyyy'.
export const DATE_TIME_DISPLAY = 'ccc, LLL dd, yyyy, HH:mm';
export const DATE_DISPLAY = 'ccc, LLL dd, yyyy';
export const ISO_DATE = 'yyyy-MM-dd';

// Displayed through Intl (clock.ts), so that Home and the header need no Luxon; the tokens above are what
// tests/unit/domain/clock.test.ts compares them with.
export { formatDate, formatDateTime } from './clock';

/** Whole years between a YYYY-MM-DD birth date and `today`. */
export function ageFromBirthDate(birthDate: string, today: DateTime = DateTime.now()): number | null {
  const born = DateTime.fromISO(birthDate);
  if (!born.isValid) return null;
  const years = Math.floor(today.startOf('day').diff(born.startOf('day'), 'years').years);
  return years >= 0 ? years : null;
}
