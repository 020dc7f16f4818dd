import { useId, useState } from 'react';
import { displayUnit, VITAL_KINDS, VITAL_LABELS, type Vital } from '../../../domain/vitals';
import { Chart } from '../../ui/chart/chart';
import { roundTicks } from '../../ui/chart/chart-geometry';
import { ChoiceGroup } from './choice-group';
import { dailySeries, daysUpTo, seriesOf, shownTarget } from './vital-format';
import type { VitalSettings } from './vital-settings';

// The charts of the Vitals screen: each kind the patient has readings of, over the last 7, 30 or 90 days,
// one point a day (the average of that day's readings) in the person's unit, with their target drawn
// behind it and the axis marked at round values. A day outside the target is a ring, and is called High
// or Low in the chart's table and summary (ui/chart).

export const PERIODS = ['7', '30', '90'] as const;
export type Period = (typeof PERIODS)[number];

export function VitalCharts({
  readings,
  settings,
  now = new Date(),
}: {
  readings: readonly Vital[];
  settings: VitalSettings;
  now?: Date;
}) {
  const headingId = useId();
  const [period, setPeriod] = useState<Period>('30');
  const days = daysUpTo(Number(period), now);
  const kinds = VITAL_KINDS.filter((kind) => readings.some((reading) => reading.kind === kind));
  return (
    <section aria-labelledby={headingId} className="mb-8" data-testid="vital-charts">
      <h2 id={headingId} className="mb-1 text-heading text-text">
        Charts
      </h2>
      <p className="mb-3 text-muted">One point a day: the average of that day’s readings.</p>
      <ChoiceGroup
        legend="Show the last"
        options={PERIODS.map((value) => ({ value, label: `${value} days` }))}
        value={period}
        onChange={setPeriod}
      />
      {kinds.length === 0 ? (
        <p className="text-muted">The charts appear once there are readings.</p>
      ) : (
        <div className="grid gap-6 md:grid-cols-2">
          {kinds.flatMap((kind) => {
            const unit = displayUnit(kind, settings.units);
            return seriesOf(kind).map(({ part, title }) => {
              const points = dailySeries(readings, kind, part, days, unit);
              if (points.every((point) => point.value === null))
                return (
                  <p key={`${kind}-${part}`} className="text-muted" data-testid="chart-empty">
                    No {VITAL_LABELS[kind].toLowerCase()} readings in the last {period} days.
                  </p>
                );
              const target = shownTarget(kind, part, settings);
              const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
              const bounds = target ? [...values, target.low, target.high] : values;
              return (
                <Chart
                  key={`${kind}-${part}`}
                  title={title}
                  unit={unit}
                  kind="line"
                  points={points}
                  ticks={roundTicks(Math.min(...bounds), Math.max(...bounds))}
                  {...(target ? { band: { low: target.low, high: target.high, label: 'Target' } } : {})}
                />
              );
            });
          })}
        </div>
      )}
    </section>
  );
}
