import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { DateTime } from 'luxon';
import type { ScheduleEntry } from '../../../domain/medicine-schedule';
import { hasUserDb, userDb } from '../../../local/db';
import { adherenceOf, scheduleOn } from '../../../local/medicine-schedule';

// Reads of the medicine schedule, from the device's tables (never the network, so a caregiver checks and
// ticks it with no signal). useLiveQuery watches prescriptions and dose_marks: a mark shows the moment it
// is written, and a mark pulled from another device appears by itself.

/** How often the states are worked out again: a due dose becomes missed without a reload. */
export const REFRESH_MS = 60_000;

/** The time now, moving on every minute. */
export function useNow(intervalMs = REFRESH_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The device's calendar day at `now` ('YYYY-MM-DD'): what "today" means to the person holding it. */
export function localDay(now: Date): string {
  return DateTime.fromJSDate(now).toISODate() ?? '';
}

/** One day's schedule of the patient; undefined while the first read runs. */
export function useDaySchedule(
  patientId: string | null,
  date: string,
  now: Date,
): ScheduleEntry[] | undefined {
  // The minute, not `now`, is the dependency: a re-render alone does not read again.
  const minute = Math.floor(now.getTime() / REFRESH_MS);
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    return scheduleOn(userDb(), patientId, date, now);
  }, [patientId, date, minute]);
}

export type Adherence = Awaited<ReturnType<typeof adherenceOf>>;

/** Adherence over the `days` days ending today; undefined while the first read runs. */
export function useAdherence(
  patientId: string | null,
  today: string,
  days: number,
  now: Date,
): Adherence | undefined {
  const minute = Math.floor(now.getTime() / REFRESH_MS);
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { days: [], due: 0, taken: 0, percent: null };
    return adherenceOf(userDb(), patientId, today, days, now);
  }, [patientId, today, days, minute]);
}
