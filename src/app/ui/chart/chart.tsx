import { useId } from 'react';
import {
  barsOf,
  CHART_HEIGHT,
  CHART_WIDTH,
  formatValue,
  lineRunsOf,
  pathOf,
  PLOT,
  scaleOf,
  summaryOf,
  xOf,
  yOf,
  type ChartKind,
  type ChartPoint,
} from './chart-geometry';

// A small chart drawn by hand in SVG (no chart library: Home's cards load on a budget): bars or a line
// over a few dozen points, scaled to the width it is given (a phone's 390 px too), with gaps where a
// point has no value. For screen readers the picture is one image with a summary (role="img",
// aria-label), and the values themselves are a table under "Show the values".

export type ChartProps = {
  title: string;
  /** What the values count ('steps', 'bpm', 'hours'). */
  unit: string;
  points: readonly ChartPoint[];
  kind: ChartKind;
  min?: number;
  max?: number;
};

export function Chart({ title, unit, points, kind, min, max }: ChartProps) {
  const titleId = useId();
  const scale = scaleOf(points, kind, min, max);
  const first = points[0];
  const last = points[points.length - 1];
  const baseline = PLOT.top + (CHART_HEIGHT - PLOT.top - PLOT.bottom);
  return (
    <figure className="min-w-0" data-testid="chart" data-kind={kind}>
      <figcaption id={titleId} className="mb-1 text-sm font-semibold text-text">
        {title} <span className="font-normal text-muted">({unit})</span>
      </figcaption>
      <svg
        role="img"
        aria-label={summaryOf(title, unit, points)}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        className="block h-auto w-full max-w-full text-primary"
        preserveAspectRatio="xMidYMid meet"
      >
        <g className="text-muted" fill="currentColor" fontSize="11">
          <text x={PLOT.left - 4} y={yOf(scale.max, scale) + 4} textAnchor="end">
            {formatValue(scale.max)}
          </text>
          <text x={PLOT.left - 4} y={yOf(scale.min, scale)} textAnchor="end">
            {formatValue(scale.min)}
          </text>
          {first ? (
            <text x={xOf(0, points.length)} y={CHART_HEIGHT - 6} textAnchor="start">
              {first.label}
            </text>
          ) : null}
          {last && points.length > 1 ? (
            <text x={xOf(points.length - 1, points.length)} y={CHART_HEIGHT - 6} textAnchor="end">
              {last.label}
            </text>
          ) : null}
        </g>
        <line
          x1={PLOT.left}
          x2={CHART_WIDTH - PLOT.right}
          y1={baseline}
          y2={baseline}
          stroke="currentColor"
          className="text-border-strong"
          strokeWidth="1"
        />
        {kind === 'bar'
          ? barsOf(points, scale).map((bar) => (
              <rect
                key={bar.index}
                data-index={bar.index}
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
                rx="1.5"
                fill="currentColor"
              />
            ))
          : lineRunsOf(points, scale).map((run) => (
              <g key={run[0]?.index}>
                {run.length > 1 ? (
                  <path
                    d={pathOf(run)}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinejoin="round"
                  />
                ) : null}
                {run.map((point) => (
                  <circle
                    key={point.index}
                    data-index={point.index}
                    cx={point.x}
                    cy={point.y}
                    r="2.5"
                    fill="currentColor"
                  />
                ))}
              </g>
            ))}
      </svg>
      <details className="mt-1 text-sm">
        <summary className="flex min-h-11 cursor-pointer items-center text-primary-strong">
          Show the values
        </summary>
        <table className="w-full text-left" aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col" className="py-1 font-semibold">
                Day
              </th>
              <th scope="col" className="py-1 font-semibold">
                {title} ({unit})
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((point, index) => (
              <tr key={`${point.label}-${index}`} className="border-t border-border">
                <td className="py-1">{point.label}</td>
                <td className="py-1">{point.value === null ? 'No value' : formatValue(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
