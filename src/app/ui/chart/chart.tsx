import { useId } from 'react';
import {
  bandFlagOf,
  bandSummaryOf,
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
  type ChartBand,
  type ChartKind,
  type ChartPoint,
} from './chart-geometry';

// A small chart drawn by hand in SVG (no chart library: Home's cards load on a budget): bars or a line
// over a few dozen points, scaled to the width it is given (a phone's 390 px too), with gaps where a
// point has no value. For screen readers the picture is one image with a summary (role="img",
// aria-label), and the values themselves are a table under "Show the values". A band (a person's target)
// is drawn behind the data, and each value outside it is drawn as a ring and called High or Low in the
// table and the summary: never told by colour alone.

export type ChartProps = {
  title: string;
  /** What the values count ('steps', 'bpm', 'hours'). */
  unit: string;
  points: readonly ChartPoint[];
  kind: ChartKind;
  min?: number;
  max?: number;
  /** Values to mark on the value axis, lowest first (roundTicks); the scale spans them unless min/max say. */
  ticks?: readonly number[];
  band?: ChartBand;
};

export function Chart({ title, unit, points, kind, min, max, ticks, band }: ChartProps) {
  const titleId = useId();
  const scale = scaleOf(points, kind, min ?? ticks?.[0], max ?? ticks?.[ticks.length - 1]);
  const flagOf = (value: number | null) => (band ? bandFlagOf(value, band) : null);
  const first = points[0];
  const last = points[points.length - 1];
  const baseline = PLOT.top + (CHART_HEIGHT - PLOT.top - PLOT.bottom);
  return (
    <figure className="min-w-0" data-testid="chart" data-kind={kind}>
      <figcaption id={titleId} className="mb-1 text-sm font-semibold text-text">
        {title} <span className="font-normal text-muted">({unit})</span>
        {band ? (
          <span className="block font-normal text-muted">
            {band.label}: {formatValue(band.low)} to {formatValue(band.high)} {unit}
          </span>
        ) : null}
      </figcaption>
      <svg
        role="img"
        aria-label={`${summaryOf(title, unit, points)}${band ? ` ${bandSummaryOf(unit, points, band)}` : ''}`}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        className="block h-auto w-full max-w-full text-primary"
        preserveAspectRatio="xMidYMid meet"
      >
        {band ? (
          <g className="text-primary" data-testid="chart-band">
            <rect
              x={PLOT.left}
              y={yOf(band.high, scale)}
              width={CHART_WIDTH - PLOT.left - PLOT.right}
              height={yOf(band.low, scale) - yOf(band.high, scale)}
              fill="currentColor"
              fillOpacity="0.12"
            />
            {[band.low, band.high].map((edge) => (
              <line
                key={edge}
                x1={PLOT.left}
                x2={CHART_WIDTH - PLOT.right}
                y1={yOf(edge, scale)}
                y2={yOf(edge, scale)}
                stroke="currentColor"
                strokeDasharray="4 3"
                strokeWidth="1"
              />
            ))}
          </g>
        ) : null}
        <g className="text-muted" fill="currentColor" fontSize="11">
          {ticks ? (
            ticks.map((tick) => (
              <g key={tick} data-testid="chart-tick">
                <line
                  x1={PLOT.left}
                  x2={CHART_WIDTH - PLOT.right}
                  y1={yOf(tick, scale)}
                  y2={yOf(tick, scale)}
                  stroke="currentColor"
                  strokeOpacity="0.25"
                  strokeWidth="1"
                />
                <text x={PLOT.left - 4} y={yOf(tick, scale) + 4} textAnchor="end">
                  {formatValue(tick)}
                </text>
              </g>
            ))
          ) : (
            <>
              <text x={PLOT.left - 4} y={yOf(scale.max, scale) + 4} textAnchor="end">
                {formatValue(scale.max)}
              </text>
              <text x={PLOT.left - 4} y={yOf(scale.min, scale)} textAnchor="end">
                {formatValue(scale.min)}
              </text>
            </>
          )}
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
                {run.map((point) =>
                  flagOf(point.point.value) ? (
                    <circle
                      key={point.index}
                      data-index={point.index}
                      data-flag={flagOf(point.point.value)}
                      cx={point.x}
                      cy={point.y}
                      r="4.5"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="2"
                    />
                  ) : (
                    <circle
                      key={point.index}
                      data-index={point.index}
                      cx={point.x}
                      cy={point.y}
                      r="2.5"
                      fill="currentColor"
                    />
                  ),
                )}
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
              {band ? (
                <th scope="col" className="py-1 font-semibold">
                  Against the {band.label.toLowerCase()}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {points.map((point, index) => (
              <tr key={`${point.label}-${index}`} className="border-t border-border">
                <td className="py-1">{point.label}</td>
                <td className="py-1">{point.value === null ? 'No value' : formatValue(point.value)}</td>
                {band ? (
                  <td className="py-1">{point.value === null ? '' : (flagOf(point.value) ?? 'In range')}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
