import { useId } from 'react';
import { formatDate, formatDay } from '../../../domain/date-display';
import type { AdherenceDay } from '../../../domain/medicine-schedule';
import { adherenceSummary } from './schedule-format';
import type { Adherence } from './use-medicine-schedule';

// Adherence as a bar chart in plain SVG (a chart library would cost more than the whole schedule: the
// bundle budget): one bar a day, its height the share of that day's due doses marked taken. A day with
// nothing due has no bar at all, only a dotted mark on the base line, so it does not read as 0%. The
// figure and a sentence say the same in words; the drawing itself is hidden from screen readers.

export const ADHERENCE_PERIODS = [7, 30] as const;
export type AdherencePeriod = (typeof ADHERENCE_PERIODS)[number];

const BAR_SLOT = 10;
const CHART_HEIGHT = 100;

function dayTitle(day: AdherenceDay): string {
  const date = formatDate(day.date);
  return day.due === 0 ? `${date}: nothing due` : `${date}: ${day.taken} of ${day.due} taken`;
}

export function AdherenceChart({
  adherence,
  period,
  onPeriod,
}: {
  adherence: Adherence | undefined;
  period: AdherencePeriod;
  onPeriod: (period: AdherencePeriod) => void;
}) {
  const headingId = useId();
  const days = adherence?.days ?? [];
  const width = Math.max(days.length, 1) * BAR_SLOT;
  // The days counted, not the period chosen: right after a switch the previous answer still shows.
  const summary = adherence ? adherenceSummary(adherence, days.length) : 'Counting the doses taken...';
  return (
    <section aria-labelledby={headingId} data-testid="adherence" className="mt-8">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-heading text-text">
          Doses taken
        </h2>
        <div role="group" aria-label="Period" className="flex gap-1 rounded-control bg-surface-muted p-1">
          {ADHERENCE_PERIODS.map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={choice === period}
              onClick={() => onPeriod(choice)}
              className={`min-h-11 min-w-20 rounded-control px-3 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${
                choice === period ? 'bg-primary text-primary-on' : 'text-text hover:bg-surface'
              }`}
            >
              {choice} days
            </button>
          ))}
        </div>
      </div>
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="text-display text-text" data-testid="adherence-figure" aria-hidden="true">
          {adherence?.percent === null || adherence === undefined ? '–' : `${adherence.percent}%`}
        </span>
        <span className="text-muted" role="status" data-testid="adherence-summary">
          {summary}
        </span>
      </p>
      {days.length > 0 ? (
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${width} ${CHART_HEIGHT + 4}`}
          preserveAspectRatio="none"
          className="mt-3 block h-28 w-full"
          data-testid="adherence-chart"
        >
          <line
            x1={0}
            x2={width}
            y1={CHART_HEIGHT}
            y2={CHART_HEIGHT}
            className="stroke-border-strong"
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
          {days.map((day, index) => {
            const x = index * BAR_SLOT + BAR_SLOT * 0.15;
            const barWidth = BAR_SLOT * 0.7;
            if (day.due === 0)
              return (
                <line
                  key={day.date}
                  data-day={day.date}
                  data-due="0"
                  x1={x}
                  x2={x + barWidth}
                  y1={CHART_HEIGHT + 2}
                  y2={CHART_HEIGHT + 2}
                  className="stroke-muted"
                  strokeWidth={2}
                  strokeDasharray="2 2"
                  vectorEffect="non-scaling-stroke"
                >
                  <title>{dayTitle(day)}</title>
                </line>
              );
            const share = day.taken / day.due;
            // A day with doses due and none taken still shows a sliver, in the alarm colour.
            const height = Math.max(share * CHART_HEIGHT, 2);
            return (
              <rect
                key={day.date}
                data-day={day.date}
                data-due={day.due}
                x={x}
                y={CHART_HEIGHT - height}
                width={barWidth}
                height={height}
                rx={1}
                className={share >= 0.8 ? 'fill-success' : share >= 0.5 ? 'fill-warning' : 'fill-danger'}
              >
                <title>{dayTitle(day)}</title>
              </rect>
            );
          })}
        </svg>
      ) : null}
      {days.length > 0 ? (
        <p className="mt-1 flex justify-between text-small text-muted" aria-hidden="true">
          <span>{formatDay(days[0]?.date ?? '')}</span>
          <span>Today</span>
        </p>
      ) : null}
    </section>
  );
}
