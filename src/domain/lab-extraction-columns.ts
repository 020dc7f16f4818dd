import { looksLikeUnit } from './lab-analytes';
import { headerOf, type Header } from './lab-extraction-header';
import type { Line, PageLines } from './lab-extraction-layout';
import { datesIn } from './lab-extraction-meta';
import type { OcrWord } from './ocr-layout';

// A table's header found where one line of header words is not enough (lab-extraction.ts asks here first).
//
// Choices:
// - A header row may be printed over two or three text lines: a cumulative report's dates with the time
//   under each, 'Your' over 'Value', a title set between the two lines of a taller cell ('Test' beside a
//   date and its time). Lines closer than nine tenths of the page's usual line pitch (a cell's lines are
//   closer than its rows) that hold nothing a result row holds (no number but dates, times and units, no
//   'Label:') are stacked column by column, a word joining the column it mostly overlaps, each column read
//   top to bottom, and the stack is read as one header line. A stack is taken only when it names more
//   columns than the first line alone: a section title or a note under a header stays what it is.

const STACK_GAP_IN_PITCHES = 0.9;
const TIME = /^\d{1,2}[:.]\d{2}(?::\d{2})?$/;

/** A line with nothing a result row would hold: every word with a digit is a date, a time or a unit. */
function headerish(line: Line): boolean {
  if (/[A-Za-z]:(?:\s|$)/.test(line.text)) return false;
  return line.words.every((word) =>
    word.text
      .split(/\s+/)
      .every(
        (part) => !/\d/.test(part) || TIME.test(part) || datesIn(part).length === 1 || looksLikeUnit(part),
      ),
  );
}

/** The words of several lines in columns: a word joins the column whose span it overlaps, else starts one. */
export function stackedLine(lines: Line[]): Line {
  const stacks: { x0: number; x1: number; words: OcrWord[] }[] = [];
  for (const line of lines) {
    for (const word of line.words) {
      const stack = stacks.find(
        (candidate) =>
          Math.min(word.x1, candidate.x1) - Math.max(word.x0, candidate.x0) >
            0.5 * Math.min(word.x1 - word.x0, candidate.x1 - candidate.x0) &&
          !line.words.some((other) => other !== word && candidate.words.includes(other)),
      );
      if (stack) {
        stack.words.push(word);
        stack.x0 = Math.min(stack.x0, word.x0);
        stack.x1 = Math.max(stack.x1, word.x1);
      } else {
        stacks.push({ x0: word.x0, x1: word.x1, words: [word] });
      }
    }
  }
  stacks.sort((a, b) => a.x0 - b.x0);
  const words = stacks.flatMap((stack) => stack.words);
  const first = lines[0];
  return {
    words,
    cells: [],
    text: words.map((word) => word.text).join(' '),
    y0: Math.min(...lines.map((line) => line.y0)),
    y1: Math.max(...lines.map((line) => line.y1)),
    yc: first?.yc ?? 0,
  };
}

const columnCount = (header: Header | null) =>
  header ? header.regions.reduce((sum, region) => sum + region.columns.length, 0) : 0;

/**
 * The header that starts at `index`, on that line alone or over it and the next one or two, and how many
 * lines it takes; null when none starts there.
 */
export function headerAt(
  page: Pick<PageLines, 'lines' | 'width' | 'pitch'>,
  index: number,
): { header: Header; lines: number } | null {
  const { lines, width: pageWidth } = page;
  const first = lines[index];
  if (!first) return null;
  const alone = headerOf(first, pageWidth);
  let best = alone ? { header: alone, lines: 1 } : null;
  if (!headerish(first)) return best;
  const group: Line[] = [first];
  for (let at = index + 1; at < lines.length && group.length < 3; at++) {
    const line = lines[at] as Line;
    const last = group[group.length - 1] as Line;
    if (line.yc - last.yc >= STACK_GAP_IN_PITCHES * page.pitch || !headerish(line)) break;
    group.push(line);
    const stacked = headerOf(stackedLine(group), pageWidth);
    if (stacked && columnCount(stacked) > columnCount(best?.header ?? null))
      best = { header: stacked, lines: group.length };
  }
  return best;
}
