import { formatDay } from '../../../domain/date-display';
import type { FitbitDay } from '../../../domain/fitbit';
import { Chart } from '../../ui/chart/chart';
import type { ChartPoint } from '../../ui/chart/chart-geometry';

// The Fitbit card's three 30-day charts: steps (bars), resting heart rate (a line) and sleep in hours
// (bars). A day Fitbit has nothing for is a gap, never a zero.

/** 'Nov 24' for '2026-11-24' (the day as Fitbit named it, whatever the device's time zone). */
export const dayLabel = (date: string): string => formatDay(date);

const pointsOf = (days: readonly FitbitDay[], value: (day: FitbitDay) => number | null): ChartPoint[] =>
  days.map((day) => ({ label: dayLabel(day.date), value: value(day) }));

/** Minutes asleep as hours, to a tenth (7 h 30 min is 7.5). */
export const sleepHours = (minutes: number | null) =>
  minutes === null ? null : Math.round(minutes / 6) / 10;

export function FitbitCharts({ days }: { days: readonly FitbitDay[] }) {
  return (
    <div className="grid min-w-0 gap-4" data-testid="fitbit-charts">
      <Chart title="Steps" unit="steps" kind="bar" points={pointsOf(days, (day) => day.steps)} />
      <Chart
        title="Resting heart rate"
        unit="bpm"
        kind="line"
        points={pointsOf(days, (day) => day.resting_heart_rate)}
      />
      <Chart
        title="Sleep"
        unit="hours"
        kind="bar"
        points={pointsOf(days, (day) => sleepHours(day.sleep_minutes))}
      />
    </div>
  );
}
