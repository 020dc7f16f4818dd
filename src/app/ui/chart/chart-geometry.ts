// The arithmetic of the small charts (chart.tsx), apart from React so the values drawn can be checked:
// where each bar stands and how tall it is, where each point of a line lies, and where a line breaks
// for a day with no value. Coordinates are in the SVG's own units (the viewBox), y growing downwards.

export type ChartPoint = { label: string; value: number | null };
export type ChartKind = 'bar' | 'line';
/** A range of values drawn behind the data (a person's target), with its name ('Target'). */
export type ChartBand = { low: number; high: number; label: string };

export const CHART_WIDTH = 320;
export const CHART_HEIGHT = 150;
/** Room for the y-axis values on the left and the first/last labels below. */
export const PLOT = { left: 40, right: 6, top: 8, bottom: 22 } as const;

export const plotWidth = CHART_WIDTH - PLOT.left - PLOT.right;
export const plotHeight = CHART_HEIGHT - PLOT.top - PLOT.bottom;

export type Scale = { min: number; max: number };

/**
 * The values' range: the given min/max, else 0 (bars stand on zero) or just below the lowest value
 * (a line of resting heart rates 58-64 would be flat from 0), up to the highest. Never empty.
 */
export function scaleOf(points: readonly ChartPoint[], kind: ChartKind, min?: number, max?: number): Scale {
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
  const lowest = values.length > 0 ? Math.min(...values) : 0;
  const highest = values.length > 0 ? Math.max(...values) : 1;
  const low = min ?? (kind === 'bar' ? Math.min(0, lowest) : lowest);
  let high = max ?? highest;
  if (high <= low) high = low + 1;
  return { min: low, max: high };
}

/** The y of a value (clamped to the plot). */
export function yOf(value: number, scale: Scale): number {
  const share = (Math.min(Math.max(value, scale.min), scale.max) - scale.min) / (scale.max - scale.min);
  return PLOT.top + plotHeight * (1 - share);
}

/** The horizontal middle of the slot of point `index` of `count`. */
export function xOf(index: number, count: number): number {
  return PLOT.left + (plotWidth / count) * (index + 0.5);
}

export type Bar = { index: number; x: number; y: number; width: number; height: number; point: ChartPoint };

/** One bar per point with a value (none for a gap); each takes 70% of its slot. */
export function barsOf(points: readonly ChartPoint[], scale: Scale): Bar[] {
  const slot = plotWidth / Math.max(points.length, 1);
  const width = slot * 0.7;
  const base = yOf(Math.max(scale.min, Math.min(0, scale.max)), scale);
  return points.flatMap((point, index) => {
    if (point.value === null) return [];
    const top = yOf(point.value, scale);
    return [
      {
        index,
        x: xOf(index, points.length) - width / 2,
        y: Math.min(top, base),
        width,
        height: Math.abs(base - top),
        point,
      },
    ];
  });
}

export type LinePoint = { index: number; x: number; y: number; point: ChartPoint };

/** The line's runs: consecutive points with values; a null ends a run (the gap is drawn as a gap). */
export function lineRunsOf(points: readonly ChartPoint[], scale: Scale): LinePoint[][] {
  const runs: LinePoint[][] = [];
  let run: LinePoint[] = [];
  points.forEach((point, index) => {
    if (point.value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      return;
    }
    run.push({ index, x: xOf(index, points.length), y: yOf(point.value, scale), point });
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

/** An SVG path through the points of one run. */
export const pathOf = (run: readonly LinePoint[]): string =>
  run
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(2)},${point.y.toFixed(2)}`)
    .join(' ');

/** Numbers as people read them: 9,800 and 7.5, not 9800 and 7.499999. */
export function formatValue(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/**
 * What a screen reader says for the chart: how many points have a value, the lowest, the highest and
 * the latest, with their labels ('Steps, 30 days: 29 with a value; lowest 4,000 (Oct 26); ...').
 */
export function summaryOf(title: string, unit: string, points: readonly ChartPoint[]): string {
  const known = points.filter((point): point is { label: string; value: number } => point.value !== null);
  const head = `${title}, ${points.length} days`;
  if (known.length === 0) return `${head}: no values yet.`;
  const by = (pick: (a: number, b: number) => boolean) =>
    known.reduce((best, point) => (pick(point.value, best.value) ? point : best));
  const say = (point: { label: string; value: number }) =>
    `${formatValue(point.value)} ${unit} (${point.label})`;
  const latest = known[known.length - 1] ?? known[0];
  return (
    `${head}: ${known.length} with a value; lowest ${say(by((a, b) => a < b))}; ` +
    `highest ${say(by((a, b) => a > b))}; latest ${latest ? say(latest) : ''}.`
  );
}

/**
 * Values for the value axis that read as round numbers: 1, 2 or 5 times a power of ten apart (or 25, 250...;
 * never finer than a tenth), from at or below `low` to at or above `high`, about `count` of them.
 */
export function roundTicks(low: number, high: number, count = 4): number[] {
  const span = high > low ? high - low : Math.max(Math.abs(high), 1) / 10;
  const rough = span / Math.max(count - 1, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  // 2.5 only from 25 up: a step of 0.25 would need a second decimal.
  const factors = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const step = Math.max(0.1, (factors.find((factor) => factor * power >= rough) ?? 10) * power);
  const first = Math.floor(low / step + 1e-9) * step;
  const last = Math.max(Math.ceil(high / step - 1e-9) * step, first + step);
  const ticks: number[] = [];
  // Multiplied out, not added up, and rounded to the step's decimals: 0.1 + 0.2 is not 0.3.
  const decimals = step < 1 ? 1 : 0;
  for (let index = 0; first + index * step <= last + step / 2; index += 1)
    ticks.push(Number((first + index * step).toFixed(decimals)));
  return ticks;
}

/** 'High' above the band, 'Low' below it, null inside it (or for no value). */
export function bandFlagOf(
  value: number | null,
  band: Pick<ChartBand, 'low' | 'high'>,
): 'High' | 'Low' | null {
  if (value === null) return null;
  if (value > band.high) return 'High';
  if (value < band.low) return 'Low';
  return null;
}

/** What a screen reader is told of the band: 'Target 90 to 120 mmHg: 2 days above it, 1 below it.' */
export function bandSummaryOf(unit: string, points: readonly ChartPoint[], band: ChartBand): string {
  const flags = points.map((point) => bandFlagOf(point.value, band));
  const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
  const above = flags.filter((flag) => flag === 'High').length;
  const below = flags.filter((flag) => flag === 'Low').length;
  return (
    `${band.label} ${formatValue(band.low)} to ${formatValue(band.high)} ${unit}: ` +
    `${days(above)} above it, ${days(below)} below it.`
  );
}
