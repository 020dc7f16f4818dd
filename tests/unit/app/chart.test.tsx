import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { Chart } from '../../../src/app/ui/chart/chart';
import {
  barsOf,
  lineRunsOf,
  PLOT,
  plotHeight,
  plotWidth,
  scaleOf,
  summaryOf,
  yOf,
  type ChartPoint,
} from '../../../src/app/ui/chart/chart-geometry';

// The small SVG chart (src/app/ui/chart): the values it draws (bar heights and point positions follow
// the data, a missing value is a gap), what a screen reader is told, and the table of the values.

const points = (values: (number | null)[]): ChartPoint[] =>
  values.map((value, index) => ({ label: `Day ${index + 1}`, value }));

const bottom = PLOT.top + plotHeight;

describe('chart geometry', () => {
  it('draws bars from zero, each as tall as its value in proportion to the highest', () => {
    const data = points([1000, 2000, 4000, 3000]);
    const scale = scaleOf(data, 'bar');
    expect(scale).toEqual({ min: 0, max: 4000 });
    const bars = barsOf(data, scale);
    expect(bars.map((bar) => bar.height)).toEqual([0.25, 0.5, 1, 0.75].map((share) => share * plotHeight));
    for (const bar of bars) expect(bar.y + bar.height).toBeCloseTo(bottom);
    // Left to right, equal slots across the plot.
    const slot = plotWidth / 4;
    expect(bars.map((bar) => bar.x + bar.width / 2)).toEqual(
      [0, 1, 2, 3].map((i) => PLOT.left + slot * (i + 0.5)),
    );
  });

  it('leaves a gap for a missing value, never a zero bar', () => {
    const bars = barsOf(points([5, null, 10]), scaleOf(points([5, null, 10]), 'bar'));
    expect(bars.map((bar) => bar.index)).toEqual([0, 2]);
    expect(bars[0]?.height).toBeCloseTo(plotHeight / 2);
  });

  it('puts a line between its lowest and highest values, broken where a value is missing', () => {
    const data = points([60, 62, null, 64, 61]);
    const scale = scaleOf(data, 'line');
    expect(scale).toEqual({ min: 60, max: 64 });
    const runs = lineRunsOf(data, scale);
    expect(runs.map((run) => run.map((point) => point.index))).toEqual([
      [0, 1],
      [3, 4],
    ]);
    const ys = runs.flat().map((point) => point.y);
    expect(ys[0]).toBeCloseTo(bottom); // 60, the lowest
    expect(ys[1]).toBeCloseTo(bottom - plotHeight / 2); // 62, half way
    expect(ys[2]).toBeCloseTo(PLOT.top); // 64, the highest
    expect(ys[3]).toBeCloseTo(bottom - plotHeight / 4);
  });

  it('keeps to the given min and max, and never divides by an empty range', () => {
    expect(scaleOf(points([50, 70]), 'line', 40, 100)).toEqual({ min: 40, max: 100 });
    expect(yOf(200, { min: 40, max: 100 })).toBe(PLOT.top);
    expect(scaleOf(points([7, 7]), 'line')).toEqual({ min: 7, max: 8 });
    expect(scaleOf(points([null, null]), 'bar')).toEqual({ min: 0, max: 1 });
    expect(barsOf(points([0, 0]), scaleOf(points([0, 0]), 'bar')).map((bar) => bar.height)).toEqual([0, 0]);
  });

  it('sums the chart up for screen readers: count, lowest, highest, latest', () => {
    expect(summaryOf('Steps', 'steps', points([4000, null, 9800, 5200]))).toBe(
      'Steps, 4 days: 3 with a value; lowest 4,000 steps (Day 1); highest 9,800 steps (Day 3); latest 5,200 steps (Day 4).',
    );
    expect(summaryOf('Sleep', 'hours', points([null, null]))).toBe('Sleep, 2 days: no values yet.');
  });
});

describe('<Chart>', () => {
  it('draws one bar per value, as one image with its summary, and the values as a table', () => {
    const data = points([1200, null, 2400]);
    const { container } = render(<Chart title="Steps" unit="steps" kind="bar" points={data} />);
    const image = screen.getByRole('img');
    expect(image.getAttribute('aria-label')).toBe(summaryOf('Steps', 'steps', data));
    const bars = [...container.querySelectorAll('rect')];
    expect(bars.map((bar) => bar.getAttribute('data-index'))).toEqual(['0', '2']);
    expect(Number(bars[0]?.getAttribute('height'))).toBeCloseTo(plotHeight / 2);
    expect(Number(bars[1]?.getAttribute('height'))).toBeCloseTo(plotHeight);
    const rows = within(screen.getByRole('table', { hidden: true })).getAllByRole('row', { hidden: true });
    expect(rows.map((row) => row.textContent)).toEqual([
      'DaySteps (steps)',
      'Day 11,200',
      'Day 2No value',
      'Day 32,400',
    ]);
  });

  it('draws a line through the values with a point on each, and no path across a gap', () => {
    const { container } = render(
      <Chart title="Resting heart rate" unit="bpm" kind="line" points={points([58, 60, null, 62])} />,
    );
    const circles = [...container.querySelectorAll('circle')];
    expect(circles.map((circle) => circle.getAttribute('data-index'))).toEqual(['0', '1', '3']);
    expect(Number(circles[0]?.getAttribute('cy'))).toBeCloseTo(bottom);
    expect(Number(circles[2]?.getAttribute('cy'))).toBeCloseTo(PLOT.top);
    // The run before the gap is a path; the lone point after it is only a point.
    expect(container.querySelectorAll('path')).toHaveLength(1);
    expect(container.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 320 150');
    expect(container.querySelector('svg')?.getAttribute('class')).toContain('w-full');
  });
});
