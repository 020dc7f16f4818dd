import { DateTime } from 'luxon';
import { activitySentence, type ActivityEntry } from '../../../domain/caregivers';

// How the caregiver page words what the replica holds: permissions by their catalogue labels, the
// activity as one sentence with its time, dates short.

/** The activity time format: '3 Mar 2026 14:05'. */
export const ACTIVITY_TIME_FORMAT = 'd MMM yyyy HH:mm';

/**
 * 'Alex added an appointment, 3 Mar 2026 14:05' for a change; for a day's deliveries to a caregiver's
 * device, which the server counts in one line (at is the last of them), 'Alex's device received 12
 * appointments that day, the last on 3 Mar 2026 at 14:05'. Times in this device's zone.
 */
export function activityLine(entry: ActivityEntry): string {
  const at = DateTime.fromISO(entry.at);
  const sentence = activitySentence(entry);
  if (!at.isValid) return sentence;
  if (entry.kind === 'delivery')
    return `${sentence} that day, the last on ${at.toFormat('d MMM yyyy')} at ${at.toFormat('HH:mm')}`;
  return `${sentence}, ${at.toFormat(ACTIVITY_TIME_FORMAT)}`;
}

/** A list date: '3 Mar 2026' (empty when the server sent something that is not a date). */
export function shortDate(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat('d MMM yyyy') : '';
}
