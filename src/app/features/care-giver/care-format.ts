import { formatDate, formatDateTime, formatTime } from '../../../domain/date-display';
import { activitySentence, type ActivityEntry } from '../../../domain/caregivers';

// How the caregiver page words what the replica holds: permissions by their catalogue labels, the
// activity as one sentence with its time, dates in the app's date format (date-display.ts).

/**
 * 'Alex added an appointment, Tue, Mar 03, 2026, 2:05 PM' for a change; for a day's deliveries to a
 * caregiver's device, which the server counts in one line (at is the last of them), 'Alex's device
 * received 12 appointments that day, the last on Tue, Mar 03, 2026 at 2:05 PM'. Times in this device's zone.
 */
export function activityLine(entry: ActivityEntry): string {
  const sentence = activitySentence(entry);
  if (!formatDate(entry.at)) return sentence;
  if (entry.kind === 'delivery')
    return `${sentence} that day, the last on ${formatDate(entry.at)} at ${formatTime(entry.at)}`;
  return `${sentence}, ${formatDateTime(entry.at)}`;
}

/** A list date: 'Tue, Mar 03, 2026' (empty when the server sent something that is not a date). */
export const shortDate = (iso: string): string => formatDate(iso);
