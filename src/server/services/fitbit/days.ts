import { z } from 'zod';
import { FITBIT_DAYS, type FitbitDay } from '../../../domain/fitbit';
import type { FitbitConfig } from '../../config-fitbit';
import { FitbitError, getResource } from './client';

// The 30 days read from Fitbit's Web API: steps, resting heart rate and minutes asleep, by date. Each
// answer is checked; a day with nothing (no tracker worn, no sleep logged) stays null, never 0.

const fitbitDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const wholeOrNull = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : Math.round(value);

const stepsSchema = z.object({
  'activities-steps': z.array(z.object({ dateTime: fitbitDate, value: z.coerce.number() })),
});
const heartSchema = z.object({
  'activities-heart': z.array(
    z.object({
      dateTime: fitbitDate,
      value: z.object({ restingHeartRate: z.number().optional() }).loose(),
    }),
  ),
});
const sleepSchema = z.object({
  sleep: z.array(z.object({ dateOfSleep: fitbitDate, minutesAsleep: z.number().nonnegative() }).loose()),
});

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new FitbitError('broken-answer');
  return result.data;
}

/** `day` moved by `offset` days (YYYY-MM-DD in, YYYY-MM-DD out). */
export function shiftDay(day: string, offset: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

/** The FITBIT_DAYS days ending on `lastDay`, oldest first. */
export function windowEnding(lastDay: string): string[] {
  return Array.from({ length: FITBIT_DAYS }, (_, index) => shiftDay(lastDay, index - FITBIT_DAYS + 1));
}

/**
 * The last 30 days as Fitbit has them. "today" is the patient's day in their Fitbit's time zone, so the
 * steps answer's last date, not the server's, says which 30 days these are.
 */
export async function readFitbitDays(config: FitbitConfig, accessToken: string): Promise<FitbitDay[]> {
  const [stepsBody, heartBody] = await Promise.all([
    getResource(config, '/1/user/-/activities/steps/date/today/30d.json', accessToken),
    getResource(config, '/1/user/-/activities/heart/date/today/30d.json', accessToken),
  ]);
  const steps = parsed(stepsSchema, stepsBody)['activities-steps'];
  const heart = parsed(heartSchema, heartBody)['activities-heart'];
  const lastDay =
    steps
      .map((entry) => entry.dateTime)
      .sort()
      .at(-1) ?? new Date().toISOString().slice(0, 10);
  const days = windowEnding(lastDay);
  const first = days[0] ?? lastDay;
  const sleepBody = await getResource(config, `/1.2/user/-/sleep/date/${first}/${lastDay}.json`, accessToken);
  const sleepMinutes = new Map<string, number>();
  // A night can be logged in pieces (a nap, a wake-up): the day's sleep is their sum.
  for (const entry of parsed(sleepSchema, sleepBody).sleep)
    sleepMinutes.set(entry.dateOfSleep, (sleepMinutes.get(entry.dateOfSleep) ?? 0) + entry.minutesAsleep);
  const stepsByDay = new Map(steps.map((entry) => [entry.dateTime, entry.value]));
  const restingByDay = new Map(heart.map((entry) => [entry.dateTime, entry.value.restingHeartRate]));
  return days.map((date) => ({
    date,
    steps: wholeOrNull(stepsByDay.get(date)),
    resting_heart_rate: wholeOrNull(restingByDay.get(date)),
    sleep_minutes: wholeOrNull(sleepMinutes.get(date)),
  }));
}
