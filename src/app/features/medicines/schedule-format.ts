import { DateTime } from 'luxon';
import { formatDate, formatDay, formatTime } from '../../../domain/date-display';
import type { DoseState, ScheduledDose, ScheduleSlot } from '../../../domain/medicine-schedule';
import type { BadgeTone } from '../../ui/badge';

// The words of the medicine schedule: what a dose's badge says, what a time slot's heading says, how a
// day is named and how adherence is summed up. Pure, so the unit tests hold the wording.

/**
 * ' at 8:05 AM' on the prescription's clock (the schedule's zone, never labelled: the whole schedule is
 * in it), or ' on Mar 11 at 7:00 AM' when marked on another day (late).
 */
function markedTime(markedAt: string, doseDate: string, zone: string): string {
  const marked = DateTime.fromISO(markedAt, { zone });
  if (!marked.isValid) return '';
  const onItsClock = { zone, viewerZone: zone };
  const time = formatTime(markedAt, onItsClock);
  return marked.toISODate() === doseDate
    ? ` at ${time}`
    : ` on ${formatDay(markedAt, onItsClock)} at ${time}`;
}

/** What the badge of one dose says, and its colour (the words carry the meaning; colour only helps). */
export function doseBadge(
  dose: Pick<ScheduledDose, 'state' | 'marked_by_name' | 'marked_at'>,
  doseDate: string,
  zone: string,
): { text: string; tone: BadgeTone } {
  const by = dose.marked_by_name ? ` by ${dose.marked_by_name}` : '';
  const when = dose.marked_at ? markedTime(dose.marked_at, doseDate, zone) : '';
  const texts: Record<DoseState, { text: string; tone: BadgeTone }> = {
    taken: { text: `Taken${by}${when}`, tone: 'success' },
    'not-taken': { text: `Not taken${by ? ` (marked${by}${when})` : ''}`, tone: 'warning' },
    missed: { text: 'Missed', tone: 'danger' },
    due: { text: 'Due now', tone: 'info' },
    upcoming: { text: 'Upcoming', tone: 'neutral' },
    'before-added': { text: 'Before this medicine was added', tone: 'neutral' },
  };
  return texts[dose.state];
}

/** The state of a time slot in a few words, for its heading: the worst news first. */
export function slotSummary(slot: Pick<ScheduleSlot, 'items'>): string {
  const states = slot.items.map((item) => item.dose.state);
  const count = (state: DoseState) => states.filter((candidate) => candidate === state).length;
  const total = states.length;
  if (count('taken') === total) return total === 1 ? 'Taken' : 'All taken';
  if (count('missed') > 0) return `${count('missed')} missed`;
  if (count('due') > 0) return 'Due now';
  if (count('upcoming') === total) return 'Upcoming';
  if (count('before-added') === total) return 'Before this medicine was added';
  return `${count('taken')} of ${total} taken`;
}

/** 'Today, Mon, Nov 23, 2026' / 'Yesterday, Sun, Nov 22, 2026' / 'Thu, Nov 19, 2026': the app's date. */
export function dayLabel(date: string, today: string): string {
  const difference = Math.round(DateTime.fromISO(date).diff(DateTime.fromISO(today), 'days').days);
  const named: Record<string, string> = { '0': 'Today', '-1': 'Yesterday', '1': 'Tomorrow' };
  const name = named[String(difference)];
  return name ? `${name}, ${formatDate(date)}` : formatDate(date);
}

/** The day `days` away from `date` ('YYYY-MM-DD'). */
export function shiftDay(date: string, days: number): string {
  return DateTime.fromISO(date).plus({ days }).toISODate() ?? date;
}

/** '86% of doses taken in the last 7 days (24 of 28)', or why there is no figure. */
export function adherenceSummary(
  result: { due: number; taken: number; percent: number | null },
  days: number,
) {
  if (result.percent === null) return `No doses were due in the last ${days} days.`;
  return `${result.percent}% of doses taken in the last ${days} days (${result.taken} of ${result.due})`;
}
