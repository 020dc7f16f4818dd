import { useId } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CheckInDaySummary } from '../../../domain/check-in';
import { deviceDay } from '../../../domain/clock';
import { formatDay } from '../../../domain/date-display';
import { hasUserDb, userDb } from '../../../local/db';
import { checkInSummaries } from '../../../local/check-in';
import { Chart, type ChartProps } from '../../ui/chart/chart';

// The check-ins of the last 30 days, charted: mood, sleep, pain and the PHQ-2 total,
// one point a day, read live from the replica (a check-in answered offline shows at once). A day with
// no answer is a gap, not a zero. Shown with the medical history, where a check-in's account belongs.

export const CHART_DAYS = 30;

/** The `count` device days up to today, oldest first ('YYYY-MM-DD'). */
export function lastDays(count: number, now: Date = new Date()): string[] {
  return Array.from({ length: count }, (_, index) => {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (count - 1 - index), 12);
    return deviceDay(day);
  });
}

const labelOf = (day: string) => formatDay(day);

const pointsOf = (days: readonly CheckInDaySummary[], value: (day: CheckInDaySummary) => number | null) =>
  days.map((day) => ({ label: labelOf(day.day), value: value(day) }));

/** The charts, each one answer over the days, on its own fixed scale. */
const CHARTS: readonly (Omit<ChartProps, 'points'> & {
  value: (day: CheckInDaySummary) => number | null;
})[] = [
  {
    title: 'Mood (1 Bad to 5 Very good)',
    unit: 'out of 5',
    kind: 'line',
    min: 1,
    max: 5,
    value: (day) => day.mood,
  },
  { title: 'Sleep', unit: 'hours', kind: 'bar', min: 0, max: 10, value: (day) => day.sleep_hours },
  {
    title: 'Pain (0 none to 10 worst)',
    unit: 'out of 10',
    kind: 'line',
    min: 0,
    max: 10,
    value: (day) => day.pain,
  },
  {
    title: 'PHQ-2 score (3 or more: worth talking about with your doctor)',
    unit: 'out of 6',
    kind: 'bar',
    min: 0,
    max: 6,
    value: (day) => day.phq2_score,
  },
];

export function CheckInHistorySection({ patientId }: { patientId: string }) {
  const headingId = useId();
  const today = deviceDay();
  const days = useLiveQuery(
    async () => (hasUserDb() ? checkInSummaries(userDb(), patientId, lastDays(CHART_DAYS)) : undefined),
    [patientId, today],
  );
  const answered = days?.filter((day) => day.status !== null).length ?? 0;
  return (
    <section aria-labelledby={headingId} className="mt-8" data-testid="check-in-history">
      <h2 id={headingId} className="mb-1 text-heading text-text">
        Check-ins, last {CHART_DAYS} days
      </h2>
      {!days ? (
        <p className="text-muted">Reading the check-ins on this device...</p>
      ) : answered === 0 ? (
        <p className="text-muted">No check-ins in the last {CHART_DAYS} days.</p>
      ) : (
        <>
          <p className="mb-4 text-muted">
            Checked in on {answered} of the last {CHART_DAYS} days.
          </p>
          <div className="grid gap-6 md:grid-cols-2">
            {CHARTS.map(({ value, ...chart }) => (
              <Chart key={chart.title} {...chart} points={pointsOf(days, value)} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
