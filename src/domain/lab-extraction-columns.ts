import { looksLikeUnit } from './lab-analytes';
import { headerOf, phraseKind, type Column, type Header, type HeaderKind } from './lab-extraction-header';
import type { Cell, Line, PageLines } from './lab-extraction-layout';
import { datesIn } from './lab-extraction-meta';
import { scanItems } from './lab-extraction-items';
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
// - A line of column titles whose words are not all header words ('Differential  %  Ref. %  Absolute  Ref.
//   Absolute  Units', 'Cell type  x10^9/L  Reference') still starts a table when it names one column the
//   usual way or in a unit, and the lines under it read as rows: each column's kind is what its title says
//   when it says it ('Units', 'Reference'), else what its cells hold (numbers are results, intervals and
//   bounds ranges, units units, flags flags; the first column of words the names). A title that is a unit
//   ('%', 'x10^9/L', 'Percent') is the unit of the results under it.

const STACK_GAP_IN_PITCHES = 0.9;
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;

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

const CONTENT_LOOKAHEAD = 6;

type Tally = Record<'number' | 'range' | 'unit' | 'flag' | 'word', number>;

function tallyOf(cells: Cell[]): Tally {
  const tally: Tally = { number: 0, range: 0, unit: 0, flag: 0, word: 0 };
  for (const cell of cells) {
    const first = scanItems(cell.text)[0];
    if (!first) continue;
    if (first.kind === 'number' || first.kind === 'words-result') tally.number++;
    else if (first.kind === 'interval' || first.kind === 'bound') tally.range++;
    else if (first.kind === 'unit') tally.unit++;
    else if (first.kind === 'flag') tally.flag++;
    else tally.word++;
  }
  return tally;
}

const unitTitle = (text: string) =>
  /^(?:%|percent|pct)$/i.test(text.trim())
    ? '%'
    : looksLikeUnit(text.replace(/[()[\]]/g, ''))
      ? text.replace(/[()[\]]/g, '')
      : null;

/** The cells of `lines` nearest each title, by overlap, else by distance. */
function cellsUnder(titles: Cell[], lines: Line[]): Cell[][] {
  const under: Cell[][] = titles.map(() => []);
  for (const line of lines) {
    for (const cell of line.cells) {
      let best = 0;
      let bestScore = -Infinity;
      titles.forEach((title, at) => {
        const overlap = Math.min(cell.x1, title.x1) - Math.max(cell.x0, title.x0);
        const score = overlap > 0 ? overlap : -Math.max(title.x0 - cell.x1, cell.x0 - title.x1);
        if (score > bestScore) [best, bestScore] = [at, score];
      });
      under[best]?.push(cell);
    }
  }
  return under;
}

/**
 * A header made from a line of column titles and what the lines under it hold, for titles that are not all
 * header words; null when the line is no such header (see the choices above).
 */
export function headerByContent(
  page: Pick<PageLines, 'lines' | 'width' | 'pitch'>,
  index: number,
): Header | null {
  const titles = page.lines[index];
  if (!titles || titles.cells.length < 3 || !headerish(titles)) return null;
  // Titles are words or units: a flag, a result in words or a number is a row's ('(Low)', 'Negative').
  if (titles.cells.some((cell) => !['word', 'unit'].includes(scanItems(cell.text)[0]?.kind ?? '')))
    return null;
  const named = titles.cells.map((cell) => phraseKind(cell.text));
  const units = titles.cells.map((cell) => unitTitle(cell.text));
  // Two titles at least say what their columns are, in header words or as a unit: one header word in a
  // line is a title's or a sentence's ('Cumulative Results Report').
  const told = titles.cells.filter((_, at) => (named[at] && named[at] !== 'other') || units[at]).length;
  if (told < 2) return null;
  // The rows under it: up to the next line of titles, or a gap of more than two lines.
  const body: Line[] = [];
  for (let at = index + 1; at < page.lines.length && body.length < CONTENT_LOOKAHEAD; at++) {
    const line = page.lines[at] as Line;
    const above = page.lines[at - 1] as Line;
    // A labelled field ('Patient: ...', 'DOB: ...') is a report's header block, not a table's row.
    if (line.yc - above.yc > 2.5 * page.pitch || headerish(line) || /[A-Za-z]:(?:\s|$)/.test(line.text))
      break;
    body.push(line);
  }
  const rowsWithValues = body.filter((line) => tallyOf(line.cells).number >= 1 && line.cells.length >= 2);
  if (rowsWithValues.length < Math.min(2, body.length) || rowsWithValues.length === 0) return null;
  const under = cellsUnder(titles.cells, rowsWithValues);
  let nameSeen = false;
  const columns: Column[] = titles.cells.map((title, at) => {
    const tally = tallyOf(under[at] ?? []);
    const said = named[at];
    let kind: HeaderKind;
    if (said && said !== 'other' && said !== 'date') kind = said;
    else if (!nameSeen && tally.word > 0 && tally.word >= tally.number) kind = 'name';
    else if (tally.number > 0 && tally.number >= tally.range && tally.number >= tally.unit) kind = 'value';
    else if (tally.range > 0 && tally.range >= tally.unit) kind = 'range';
    else if (tally.unit > 0) kind = 'unit';
    else if (tally.flag > 0) kind = 'flag';
    else kind = 'other';
    if (kind === 'name') nameSeen = true;
    const unit = kind === 'value' ? units[at] : null;
    return {
      kind,
      x0: title.x0 / page.width,
      x1: title.x1 / page.width,
      ...(unit ? { unit } : {}),
    };
  });
  if (!columns.some((column) => column.kind === 'name') || !columns.some((column) => column.kind === 'value'))
    return null;
  return { regions: [{ columns }] };
}
