import { screen, waitFor } from '@testing-library/react';

/**
 * The chart (ui/chart) whose caption matches `title` (a string: begins with it), waited for: not the first charts to appear, since a
 * screen's charts often come from more than one live query (the readings, and what decides which charts
 * show or how).
 */
export function findChart(title: RegExp | string): Promise<HTMLElement> {
  const matches = (caption: string) =>
    typeof title === 'string' ? caption.startsWith(title) : title.test(caption);
  return waitFor(() => {
    const figure = screen
      .queryAllByTestId('chart')
      .find((element) => matches(element.querySelector('figcaption')?.textContent ?? ''));
    if (!figure) throw new Error(`no chart ${String(title)}`);
    return figure;
  });
}
