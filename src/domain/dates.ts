import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';

// Date arithmetic with Luxon. What a date looks like on screen is date-display.ts's (README.md beside
// this file); 'YYYY-MM-DD' is how a date is stored or sent.
export const ISO_DATE = 'yyyy-MM-dd';

// The display formats live in date-display.ts; these names stay importable from here for the screens
// that still do (the beta policy's).
export { formatDate, formatDateTime } from './date-display';

/** A zone's IANA name ('America/New_York'), refused with `message` when the platform does not know it. */
export const zoneNameSchema = (message: string) =>
  z
    .string({ error: message })
    .max(64, message)
    .refine((zone) => IANAZone.isValidZone(zone), message);

/** Whole years between a YYYY-MM-DD birth date and `today`. */
export function ageFromBirthDate(birthDate: string, today: DateTime = DateTime.now()): number | null {
  const born = DateTime.fromISO(birthDate);
  if (!born.isValid) return null;
  const years = Math.floor(today.startOf('day').diff(born.startOf('day'), 'years').years);
  return years >= 0 ? years : null;
}
