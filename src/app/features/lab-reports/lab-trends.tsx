import { useId, useMemo, useState } from 'react';
import { LineChart } from 'lucide-react';
import type { LabReport } from '../../../domain/lab-reports';
import { SelectField } from '../../ui/fields';
import { EmptyState } from '../../ui/page';
import { displayDate } from './lab-report-format';
import { trendSeries, valueScale, type TrendPoint, type TrendSeries } from './lab-trends-data';

// Trends: one test followed across the patient's reports, from the device's table (so it
// works offline). A plain SVG line (a chart library would cost more than the screen), its reference range
// as a shaded band, values outside it drawn larger in the alarm colour. The drawing is hidden from screen
// readers: a sentence and a table beside it say the same in words.

const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 44;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;

export function LabTrends({ reports }: { reports: readonly LabReport[] }) {
  const series = useMemo(() => trendSeries(reports), [reports]);
  // The test with the most reports first: the one a trend says most about.
  const preferred = useMemo(
    () => [...series].sort((a, b) => b.points.length - a.points.length)[0]?.key ?? '',
    [series],
  );
  const [chosen, setChosen] = useState('');
  const shown = series.find((item) => item.key === chosen) ?? series.find((item) => item.key === preferred);

  if (!shown)
    return (
      <EmptyState icon={<LineChart />} title="No results to chart yet.">
        Once reports with results are saved, each test can be followed here across them.
      </EmptyState>
    );

  return (
    <div>
      <SelectField
        label="Test"
        name="trend"
        options={series.map((item) => ({
          value: item.key,
          label: `${item.name} (${item.points.length === 1 ? '1 result' : `${item.points.length} results`})`,
        }))}
        value={shown.key}
        onChange={setChosen}
      />
      <TrendChart series={shown} />
    </div>
  );
}

function outsideWords(point: TrendPoint): string {
  return point.outside === 'high' ? 'High' : point.outside === 'low' ? 'Low' : 'In range';
}

function TrendChart({ series }: { series: TrendSeries }) {
  const headingId = useId();
  const { min, max, ticks } = valueScale(series);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + ((max - value) / (max - min)) * plotHeight;
  const x = (index: number) =>
    LEFT + (series.points.length === 1 ? plotWidth / 2 : (index / (series.points.length - 1)) * plotWidth);
  const bandTop =
    series.bounds?.high !== null && series.bounds?.high !== undefined ? y(series.bounds.high) : TOP;
  const bandBottom =
    series.bounds?.low !== null && series.bounds?.low !== undefined ? y(series.bounds.low) : TOP + plotHeight;
  const outside = series.points.filter((point) => point.outside !== null).length;
  const latest = series.points.at(-1);
  const unit = series.unit ? ` ${series.unit}` : '';
  const summary = `${series.name}: ${series.points.length === 1 ? '1 result' : `${series.points.length} results`}${
    latest ? `, latest ${latest.text}${unit} on ${displayDate(latest.date)}` : ''
  }${series.range ? `; reference range ${series.range}${unit}` : ''}; ${
    outside === 0 ? 'all within range' : `${outside} outside the range`
  }.`;
  const path = series.points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index)},${y(point.value)}`)
    .join(' ');

  return (
    <section aria-labelledby={headingId} data-testid="lab-trend" data-series={series.key}>
      <h2 id={headingId} className="text-heading text-text">
        {series.name}
      </h2>
      <p className="mb-2 text-muted" data-testid="trend-summary">
        {summary}
      </p>
      <svg
        aria-hidden="true"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="block h-auto w-full max-w-2xl text-text"
        data-testid="trend-chart"
      >
        {series.bounds ? (
          <rect
            data-testid="trend-band"
            x={LEFT}
            y={bandTop}
            width={plotWidth}
            height={Math.max(bandBottom - bandTop, 1)}
            className="fill-success opacity-20"
          />
        ) : null}
        <line x1={LEFT} x2={LEFT} y1={TOP} y2={TOP + plotHeight} className="stroke-border-strong" />
        <line
          x1={LEFT}
          x2={WIDTH - RIGHT}
          y1={TOP + plotHeight}
          y2={TOP + plotHeight}
          className="stroke-border-strong"
        />
        {ticks.map((tick) => (
          <text
            key={tick}
            x={LEFT - 4}
            y={y(tick) + 4}
            textAnchor="end"
            fontSize={11}
            className="fill-muted"
            data-testid="trend-tick"
          >
            {tick}
          </text>
        ))}
        <path d={path} fill="none" strokeWidth={2} className="stroke-primary" />
        {series.points.map((point, index) => (
          <g key={`${point.reportId}-${index}`}>
            <circle
              data-testid="trend-point"
              data-outside={point.outside ?? undefined}
              cx={x(index)}
              cy={y(point.value)}
              r={point.outside ? 6 : 4}
              className={point.outside ? 'fill-danger stroke-surface' : 'fill-primary stroke-surface'}
              strokeWidth={2}
            />
            {!hasDateLabel(index, series.points.length) ? null : (
              <text
                x={x(index)}
                y={HEIGHT - 8}
                // The first and last dates are drawn inward, so they are not cut at the chart's edges.
                textAnchor={
                  series.points.length === 1
                    ? 'middle'
                    : index === 0
                      ? 'start'
                      : index === series.points.length - 1
                        ? 'end'
                        : 'middle'
                }
                fontSize={10}
                className="fill-muted"
              >
                {axisDate(point.date)}
              </text>
            )}
          </g>
        ))}
      </svg>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left text-small" data-testid="trend-table">
          <caption className="sr-only">{series.name} by report date</caption>
          <thead className="text-muted">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Report date
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Value
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Range
              </th>
              <th scope="col" className="py-2 font-semibold">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {[...series.points].reverse().map((point, index) => (
              <tr key={`${point.reportId}-${index}`} className="border-t border-border">
                <td className="py-2 pr-3 whitespace-nowrap">{displayDate(point.date)}</td>
                <td className="py-2 pr-3">
                  {point.text}
                  {point.unit ? ` ${point.unit}` : ''}
                </td>
                <td className="py-2 pr-3">{point.range || '—'}</td>
                <td className={`py-2 ${point.outside ? 'font-semibold text-danger' : ''}`}>
                  {outsideWords(point)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A short date an axis has room for and nobody misreads: 'Nov 2 2025' (the table below has the full date). */
function axisDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(day)} ${year}`;
}

/** Whether the point at `index` of `count` gets a date under it: at most five do, always the last one. */
function hasDateLabel(index: number, count: number): boolean {
  const step = Math.max(1, Math.ceil(count / 4));
  if (index === count - 1) return true;
  return index % step === 0 && count - 1 - index >= step / 2;
}
