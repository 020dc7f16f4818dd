import type { LabReport } from '../../../domain/lab-reports';
import type { LabFlag } from '../../../domain/lab-results';
import { roundTicks } from '../../ui/chart/chart-geometry';

// The Trends view's data: each test followed across the patient's reports (by its LOINC code when
// extraction recognised it, else by its name), its numeric values over time, and its reference range as
// printed ('70-99', '<200', '>= 40') turned into bounds to draw as a band.

export type RangeBounds = { low: number | null; high: number | null };

const NUMBER = String.raw`(-?\d+(?:[.,]\d+)?)`;

function toNumber(text: string): number {
  return Number(text.replace(',', '.'));
}

/** The bounds of a printed reference range, or null when it is not one ('Negative', ''). */
export function parseRange(text: string): RangeBounds | null {
  const range = text.trim().replace(/\s+/g, ' ');
  const between = new RegExp(`^${NUMBER} ?(?:-|–|to) ?${NUMBER}$`, 'i').exec(range);
  if (between?.[1] && between[2]) {
    const low = toNumber(between[1]);
    const high = toNumber(between[2]);
    return low <= high ? { low, high } : { low: high, high: low };
  }
  const below = new RegExp(`^(?:<|<=|≤|less than|up to) ?${NUMBER}$`, 'i').exec(range);
  if (below?.[1]) return { low: null, high: toNumber(below[1]) };
  const above = new RegExp(`^(?:>|>=|≥|greater than|over) ?${NUMBER}$`, 'i').exec(range);
  if (above?.[1]) return { low: toNumber(above[1]), high: null };
  return null;
}

/** A result's value as a number ('5.4', '<0.5' as 0.5, '1,250' as 1250), or null ('Negative'). */
export function numericValue(value: string): number | null {
  const match = /^[<>]?=? ?(-?\d+(?:\.\d+)?)$/.exec(value.trim().replace(/(\d),(\d{3})\b/g, '$1$2'));
  return match?.[1] ? Number(match[1]) : null;
}

export type TrendPoint = {
  reportId: string;
  date: string;
  value: number;
  text: string;
  unit: string;
  flag: LabFlag;
  range: string;
  /** Above or below its range (by the range when it can be read, else by the report's flag). */
  outside: 'high' | 'low' | null;
};

export type TrendSeries = {
  key: string;
  name: string;
  unit: string;
  /** The range of the latest report that gives one: the band drawn. */
  range: string;
  bounds: RangeBounds | null;
  points: TrendPoint[];
};

function outsideOf(value: number, bounds: RangeBounds | null, flag: LabFlag): TrendPoint['outside'] {
  if (bounds) {
    if (bounds.high !== null && value > bounds.high) return 'high';
    if (bounds.low !== null && value < bounds.low) return 'low';
    return null;
  }
  return flag === 'H' ? 'high' : flag === 'L' ? 'low' : null;
}

const keyOf = (row: { code?: string | undefined; name: string }) =>
  row.code ? `loinc:${row.code}` : `name:${row.name.trim().toLowerCase().replace(/\s+/g, ' ')}`;

/** Every test with a numeric value in any report, oldest point first; tests sorted by name. */
export function trendSeries(reports: readonly LabReport[]): TrendSeries[] {
  const byKey = new Map<string, TrendSeries>();
  const ordered = [...reports].sort((a, b) =>
    a.report_date === b.report_date
      ? a.created_at.localeCompare(b.created_at)
      : a.report_date.localeCompare(b.report_date),
  );
  for (const report of ordered) {
    for (const row of report.results) {
      const value = numericValue(row.value);
      if (value === null || !row.name.trim()) continue;
      const key = keyOf(row);
      const series = byKey.get(key) ?? {
        key,
        name: row.name.trim(),
        unit: row.unit,
        range: '',
        bounds: null,
        points: [],
      };
      const bounds = parseRange(row.reference_range);
      series.points.push({
        reportId: report.id,
        date: report.report_date,
        value,
        text: row.value,
        unit: row.unit,
        flag: row.flag,
        range: row.reference_range,
        outside: outsideOf(value, bounds, row.flag),
      });
      // The latest report names it and gives its unit and range.
      series.name = row.name.trim();
      if (row.unit) series.unit = row.unit;
      if (bounds) {
        series.range = row.reference_range;
        series.bounds = bounds;
      }
      byKey.set(key, series);
    }
  }
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The value scale of a chart: the points and the band, with a margin, never a zero-height span, widened
 * to round ticks for its axis.
 */
export function valueScale(series: Pick<TrendSeries, 'points' | 'bounds'>): {
  min: number;
  max: number;
  ticks: number[];
} {
  const values = series.points.map((point) => point.value);
  if (series.bounds?.low !== null && series.bounds?.low !== undefined) values.push(series.bounds.low);
  if (series.bounds?.high !== null && series.bounds?.high !== undefined) values.push(series.bounds.high);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { min: 0, max: 1, ticks: [0, 0.5, 1] };
  if (min === max) {
    const pad = Math.abs(min) * 0.1 || 1;
    min -= pad;
    max += pad;
  }
  const margin = (max - min) * 0.1;
  // The axis reads round numbers (4, 5, 6, 7, not 6.64 / 5.2 / 3.76): the scale spans its ticks.
  const ticks = roundTicks(min - margin, max + margin);
  return { min: ticks[0] ?? min - margin, max: ticks.at(-1) ?? max + margin, ticks };
}
