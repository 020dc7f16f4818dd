import { DateTime } from 'luxon';
import type { DoseMark } from './dose-marks';
import { medicineLabel } from './medicine-label';
import type { Prescription } from './prescriptions';
import { uuidFromDigest } from './record-ids';

export { uuidFromDigest };
export type { DoseMark };

// The daily medicine schedule (README.md beside this file; an entry: medicine_name, schedule_id,
// is_taken, start_date, end_date, times; today's medicines grouped by time and sorted). It is not stored:
// it follows from the active prescriptions, day by day, and from the marks people make. A mark is a
// synced record (resource `dose_marks`) of one dose, taken or not taken, with who marked it and when.
//
// A dose is named by its prescription (schedule_id), its day and its time, so the mark's id is made from
// those three (doseMarkName, hashed the same way on the device and the server): two devices that mark
// the same dose offline write the same record, and the later mark wins, instead of leaving two answers.
// The marks' wire shapes are in dose-marks.ts: the schedule itself, which Home draws, needs no schemas.

export const DOSE_MARK_MESSAGES = {
  scheduleInvalid: 'schedule_id must be a prescription id (a UUID).',
  dateInvalid: 'date must be a day (YYYY-MM-DD).',
  takenInvalid: 'is_taken must be true or false.',
  idMismatch: 'The id does not name this dose.',
  notFound: 'Dose mark not found.',
  notChangeable: 'A dose mark is changed by marking the dose again.',
  markedTaken: 'Marked as taken.',
  markedNotTaken: 'Marked as not taken.',
} as const;

/** The text a dose mark's id is made from (see doseMarkId in the device and the server). */
export function doseMarkName(scheduleId: string, date: string, time: string): string {
  return `kincare-dose:${scheduleId.toLowerCase()}:${date}:${time}`;
}

/** SHA-1 through Web Crypto, which the browser, the service worker and Node 20 all have. */
export async function doseMarkId(scheduleId: string, date: string, time: string): Promise<string> {
  const name = new TextEncoder().encode(doseMarkName(scheduleId, date, time));
  return uuidFromDigest(new Uint8Array(await crypto.subtle.digest('SHA-1', name)));
}

/**
 * The instant a dose is due: its day and wall-clock time in the prescription's zone. On the day clocks
 * spring forward a time that does not exist (02:30) is the first minute after the gap (03:30); on the day
 * they fall back a time that happens twice is the first of the two.
 */
export function doseInstant(date: string, time: string, zone: string): DateTime {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const day = DateTime.fromISO(date, { zone });
  return day.set({ hour, minute, second: 0, millisecond: 0 });
}

/** The day it is now in `zone` ('YYYY-MM-DD'). */
export function todayIn(zone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone }).toISODate() ?? '';
}

type SchedulePrescription = Pick<
  Prescription,
  | 'id'
  | 'medicine_name'
  | 'strength'
  | 'form'
  | 'directions'
  | 'start_date'
  | 'end_date'
  | 'times'
  | 'as_needed'
  | 'status'
  | 'time_zone'
> &
  /** When the prescription was added to Kincare (ISO): a dose due before then was never anyone's to mark. */
  Partial<Pick<Prescription, 'created_at'>>;
type ScheduleMark = Pick<
  DoseMark,
  'schedule_id' | 'date' | 'time' | 'is_taken' | 'marked_by' | 'marked_by_name' | 'marked_at'
>;

/** Whether a prescription gives doses on `date`: active, started, not ended, with fixed times. */
export function givesDosesOn(prescription: SchedulePrescription, date: string): boolean {
  return (
    prescription.status === 'active' &&
    prescription.times.length > 0 &&
    prescription.start_date <= date &&
    (prescription.end_date === null || date <= prescription.end_date)
  );
}

/**
 * 'before-added': due before the prescription was added to Kincare (added at 11:00 with an 08:00 dose).
 * Nobody could mark it, so it is neither missed nor counted; it can still be marked if it was taken.
 */
export type DoseState = 'taken' | 'not-taken' | 'missed' | 'due' | 'upcoming' | 'before-added';

export type ScheduledDose = {
  time: string;
  /** ISO instant the dose is due (the day's wall-clock time in the prescription's zone). */
  due_at: string;
  /** true taken, false marked not taken, null not marked yet. */
  is_taken: boolean | null;
  state: DoseState;
  marked_by: string | null;
  marked_by_name: string | null;
  marked_at: string | null;
};

/** One medicine's doses of one day: the schedule entry, with each dose's mark. */
export type ScheduleEntry = {
  schedule_id: string;
  medicine_name: string;
  /** 'Metformin 500 mg'. */
  label: string;
  form: string;
  directions: string;
  start_date: string;
  end_date: string | null;
  times: string[];
  time_zone: string;
  /** Every dose of the day taken. */
  is_taken: boolean;
  doses: ScheduledDose[];
};

/** How long after its time an unmarked dose still counts as due rather than missed. */
export const DUE_WINDOW_MINUTES = 60;

/** Whether a dose was due before its prescription was added (see 'before-added'). */
export function dueBeforeAdded(dueAt: DateTime, addedAt: string | undefined): boolean {
  if (!addedAt) return false;
  const added = Date.parse(addedAt);
  return Number.isFinite(added) && dueAt.toMillis() < added;
}

export function doseState(isTaken: boolean | null, dueAt: DateTime, now: Date, addedAt?: string): DoseState {
  if (isTaken === true) return 'taken';
  if (isTaken === false) return 'not-taken';
  if (dueBeforeAdded(dueAt, addedAt)) return 'before-added';
  const minutesLate = (now.getTime() - dueAt.toMillis()) / 60_000;
  if (minutesLate < 0) return 'upcoming';
  return minutesLate <= DUE_WINDOW_MINUTES ? 'due' : 'missed';
}

const markKey = (scheduleId: string, date: string, time: string) => `${scheduleId} ${date} ${time}`;

/** Marks by dose, for scheduleForDay and adherence (the marks of any days; only the asked ones are read). */
export function indexMarks<Mark extends ScheduleMark>(marks: readonly Mark[]): Map<string, Mark> {
  return new Map(marks.map((mark) => [markKey(mark.schedule_id, mark.date, mark.time), mark]));
}

/** The schedule of one day (the patient's calendar day), medicines in name order. */
export function scheduleForDay(
  date: string,
  prescriptions: readonly SchedulePrescription[],
  marks: ReadonlyMap<string, ScheduleMark>,
  now: Date = new Date(),
): ScheduleEntry[] {
  return prescriptions
    .filter((prescription) => givesDosesOn(prescription, date))
    .map((prescription) => {
      const doses = [...prescription.times].sort().map((time): ScheduledDose => {
        const mark = marks.get(markKey(prescription.id, date, time));
        const dueAt = doseInstant(date, time, prescription.time_zone);
        const isTaken = mark ? mark.is_taken : null;
        return {
          time,
          due_at: dueAt.toUTC().toISO() ?? '',
          is_taken: isTaken,
          state: doseState(isTaken, dueAt, now, prescription.created_at),
          marked_by: mark?.marked_by ?? null,
          marked_by_name: mark?.marked_by_name ?? null,
          marked_at: mark?.marked_at ?? null,
        };
      });
      return {
        schedule_id: prescription.id,
        medicine_name: prescription.medicine_name,
        label: medicineLabel(prescription),
        form: prescription.form,
        directions: prescription.directions,
        start_date: prescription.start_date,
        end_date: prescription.end_date,
        times: doses.map((dose) => dose.time),
        time_zone: prescription.time_zone,
        is_taken: doses.every((dose) => dose.is_taken === true),
        doses,
      };
    })
    .sort((a, b) => a.label.localeCompare(b.label));
}

export type ScheduleSlot = {
  time: string;
  items: { entry: ScheduleEntry; dose: ScheduledDose }[];
};

/** Today's medicines grouped by time and sorted. */
export function groupByTime(entries: readonly ScheduleEntry[]): ScheduleSlot[] {
  const slots = new Map<string, ScheduleSlot>();
  for (const entry of entries)
    for (const dose of entry.doses) {
      const slot = slots.get(dose.time) ?? { time: dose.time, items: [] };
      slot.items.push({ entry, dose });
      slots.set(dose.time, slot);
    }
  return [...slots.values()].sort((a, b) => a.time.localeCompare(b.time));
}

export type AdherenceDay = {
  date: string;
  /** Doses due by now that day. */
  due: number;
  taken: number;
};

/**
 * Adherence of the `days` days ending with `today`: per day, the doses that were due by `now` and how many
 * were marked taken. A day with nothing due counts neither way, nor does a dose due before its prescription
 * was added to Kincare, unless it was marked taken.
 */
export function adherence(
  today: string,
  days: number,
  prescriptions: readonly SchedulePrescription[],
  marks: ReadonlyMap<string, ScheduleMark>,
  now: Date = new Date(),
): { days: AdherenceDay[]; due: number; taken: number; percent: number | null } {
  const end = DateTime.fromISO(today);
  // Days at least two before `today` are over in every zone (zones are at most 26 hours apart): each of
  // their doses is due, with no need to work out its instant (the costly part of a 30-day chart).
  const surelyOver = end.minus({ days: 2 }).toISODate() ?? '';
  const result: AdherenceDay[] = [];
  for (let back = days - 1; back >= 0; back -= 1) {
    const date = end.minus({ days: back }).toISODate() ?? '';
    let due = 0;
    let taken = 0;
    for (const prescription of prescriptions) {
      if (!givesDosesOn(prescription, date)) continue;
      const addedOn = prescription.created_at?.slice(0, 10) ?? '';
      for (const time of prescription.times) {
        // Worked out only near today and near the day it was added: elsewhere a dose is plainly due.
        const near =
          date > surelyOver ||
          (addedOn !== '' && date >= shiftedDay(addedOn, -1) && date <= shiftedDay(addedOn, 1));
        const dueAt = near ? doseInstant(date, time, prescription.time_zone) : null;
        if (dueAt && dueAt.toMillis() > now.getTime()) continue;
        const isTaken = marks.get(markKey(prescription.id, date, time))?.is_taken === true;
        if (addedOn !== '' && date < shiftedDay(addedOn, -1) && !isTaken) continue;
        if (dueAt && dueBeforeAdded(dueAt, prescription.created_at) && !isTaken) continue;
        due += 1;
        if (isTaken) taken += 1;
      }
    }
    result.push({ date, due, taken });
  }
  const due = result.reduce((sum, day) => sum + day.due, 0);
  const taken = result.reduce((sum, day) => sum + day.taken, 0);
  return { days: result, due, taken, percent: due === 0 ? null : Math.round((taken / due) * 100) };
}

function shiftedDay(date: string, days: number): string {
  return DateTime.fromISO(date).plus({ days }).toISODate() ?? date;
}

/** The reminder a patient's device shows: 'Metformin 500 mg - 08:00'. */
export function reminderTitle(prescription: Pick<Prescription, 'medicine_name' | 'strength'>, time: string) {
  return `${medicineLabel(prescription)} - ${time}`;
}
