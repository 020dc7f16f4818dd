import type { Cell, Line, PageLines } from './lab-extraction-layout';
import { flagOf, scanItems, type Item, type PrintedFlag } from './lab-extraction-items';
import type { RawRow } from './lab-extraction-row';

// Reports with no table: one block per test, as patient portals print their results. The test's name on a
// line of its own, then its value after a label ('Your value', 'Value', 'Result', on the same line or alone
// with the value on the next), its range after another ('Normal range', 'Standard range', 'Reference
// range'), and perhaps a flag in words ('High', 'Flag: Low', '(Abnormal)'). Labels may also stand in cells
// of one line ('Glucose   Your value: 105 mg/dL   Standard range: 70 - 99 mg/dL').
//
// Choices:
// - A block starts at a value label whose value reads as a result (a number, a bound, a result in words):
//   'Results' as a section title or 'Result: Final' is no block.
// - Its name is the nearest text before the label on the same line, else on the lines above it (at most
//   three lines up, past flag words and titles of no more than a few words, never past another block).
//   A range printed between the name and the value (some portals print it above the value) is the block's.
// - What follows, up to the next text that is not a flag (a name, a note, a title), is the block's: a range label's range, a flag label's flag, a flag
//   word on a line of its own. 'Normal' or 'In range' alone says nothing more.
// - Lines a block used are not read again as table rows.

const VALUE_LABEL = /^(?:your\s+)?(?:value|result)s?(?:\s+is)?\s*(?::|-|–|\s|$)\s*/i;
const RANGE_LABEL =
  /^(?:(?:standard|normal|reference|ref\.?|expected|target)\s+(?:range|interval|values?)|range)\s*(?::|-|–|\s|$)\s*/i;
const FLAG_LABEL = /^(?:flag|status|abnormal flag|interpretation)\s*(?::|-|–)\s*/i;
const FLAG_WORDS =
  /^\(?(?:high|low|abnormal|critical(?:ly)?(?: high| low)?|out of range|above (?:normal )?range|below (?:normal )?range|above normal|below normal|h|l|hh|ll)\)?$/i;
const NORMAL_WORDS = /^\(?(?:normal|in range|within range|within normal limits|wnl|not flagged)\)?$/i;

type Tag = 'value' | 'range' | 'flag' | null;
type Segment = { tag: Tag; text: string; line: number };

function tagOf(text: string): { tag: Tag; rest: string } {
  for (const [tag, label] of [
    ['range', RANGE_LABEL],
    ['flag', FLAG_LABEL],
    ['value', VALUE_LABEL],
  ] as const) {
    const found = label.exec(text);
    if (found) return { tag, rest: text.slice(found[0].length).trim() };
  }
  return { tag: null, rest: text };
}

/** A line's segments: a labelled cell starts one, an unlabelled cell continues the one before. */
function segmentsOf(cells: Cell[], index: number): Segment[] {
  const segments: Segment[] = [];
  for (const cell of cells) {
    const { tag, rest } = tagOf(cell.text);
    const last = segments[segments.length - 1];
    if (tag === null && last) last.text = `${last.text} ${cell.text}`.trim();
    else segments.push({ tag, text: rest, line: index });
  }
  return segments;
}

const isValueItem = (item: Item | undefined) =>
  item !== undefined && ['number', 'bound', 'words-result'].includes(item.kind);

/** '105 mg/dL (High)': the value, its unit and a printed flag; null when the text is no result. */
function readValue(text: string): { value: string; unit: string; printedFlag: PrintedFlag } | null {
  const items = scanItems(text.replace(/\((high|low|abnormal|h|l)\)/gi, ' $1 ').trim());
  if (!isValueItem(items[0])) return null;
  const first = items[0] as Item;
  let unit = first.unit ?? '';
  let printedFlag: PrintedFlag = first.flag ?? '';
  for (const item of items.slice(1)) {
    if (item.kind === 'unit' && !unit) unit = item.text;
    else if (item.kind === 'flag') printedFlag = item.flag ?? 'A';
    else if (item.kind === 'word' && !unit && /^[a-z/%^\d.]{1,12}$/i.test(item.text)) unit = item.text;
    else if (item.kind === 'word' && FLAG_WORDS.test(item.text)) printedFlag = flagOf(item.text);
  }
  return { value: first.text, unit, printedFlag };
}

/** '70 - 99 mg/dL': the range and the unit printed with it; null when the text holds no range. */
function readRange(text: string): { range: string; unit: string } | null {
  const items = scanItems(text);
  const range = items.find((item) => ['interval', 'bound', 'words-result'].includes(item.kind));
  if (!range) return null;
  return { range: range.text, unit: items.find((item) => item.kind === 'unit')?.text ?? '' };
}

const flagWord = (text: string): PrintedFlag | null => {
  const trimmed = text.trim();
  if (!FLAG_WORDS.test(trimmed)) return null;
  const words = trimmed.replace(/[()]/g, '').toLowerCase();
  if (/high|above/.test(words) || /^hh?$/.test(words)) return 'H';
  if (/low|below/.test(words) || /^ll?$/.test(words)) return 'L';
  return 'A';
};

/** A text that could name a test: letters, a few words, not a label, not a flag. */
const couldName = (text: string) =>
  /[a-z]{2}/i.test(text) &&
  text.split(/\s+/).length <= 8 &&
  !FLAG_WORDS.test(text.trim()) &&
  !NORMAL_WORDS.test(text.trim()) &&
  !isValueItem(scanItems(text)[0]);

/**
 * Where the columns of blocks printed side by side start: the left edges of the value labels of the line
 * that holds the most of them, or of the name cell before a label ([0] when no line holds two: one column).
 */
function columnStarts(page: PageLines): number[] {
  let starts: number[] = [];
  for (const line of page.lines) {
    const labels = line.cells.filter((cell) => tagOf(cell.text).tag === 'value').map((cell) => cell.x0);
    const edges = labels.map((x0) => {
      const before = line.cells.filter((cell) => cell.x1 < x0 && tagOf(cell.text).tag === null).pop();
      const previousLabel = labels.filter((other) => other < x0).pop() ?? -Infinity;
      return before && before.x0 > previousLabel ? before.x0 : x0;
    });
    if (edges.length > starts.length) starts = edges;
  }
  return starts.length >= 2 ? starts : [0];
}

/** The rows of a page's test blocks, and the lines they were read from. */
export function blockRows(
  page: PageLines,
  skip: (line: Line) => boolean,
): { rows: RawRow[]; used: Set<number> } {
  const starts = columnStarts(page);
  const slack = page.wordHeight * 2;
  const rows: RawRow[] = [];
  const used = new Set<number>();
  starts.forEach((start, column) => {
    const end = starts[column + 1] ?? Infinity;
    const inColumn = (cell: Cell) => (column === 0 || cell.x0 >= start - slack) && cell.x0 < end - slack;
    const segments = page.lines.flatMap((line, index) =>
      skip(line) ? [] : segmentsOf(line.cells.filter(inColumn), index),
    );
    const found = blocksOf(page, segments);
    rows.push(...found.rows);
    for (const line of found.used) used.add(line);
  });
  return { rows, used };
}

/** The blocks of one column, from its segments in reading order. */
function blocksOf(page: PageLines, segments: Segment[]): { rows: RawRow[]; used: Set<number> } {
  const rows: RawRow[] = [];
  const used = new Set<number>();
  let current: (RawRow & { lines: number[] }) | null = null;
  /** Whether what follows may still be the current block's (no other test's name or note came between). */
  let open = false;
  const close = () => {
    if (current) {
      const { lines, ...row } = current;
      rows.push(row);
      for (const line of lines) used.add(line);
    }
    current = null;
  };
  const wordsOf = (lines: number[]) => lines.flatMap((line) => page.lines[line]?.words ?? []);

  for (let at = 0; at < segments.length; at++) {
    const segment = segments[at] as Segment;
    if (segment.tag === 'value') {
      // The value after its label, or alone on the next line.
      let text = segment.text;
      const lines = [segment.line];
      const next = segments[at + 1];
      if (!text && next && next.tag === null && next.line === segment.line + 1) {
        text = next.text;
        lines.push(next.line);
      }
      const value = readValue(text);
      // A label without a result ('Your value: Pending'): what follows is that test's, not the last one's.
      if (!value) {
        open = false;
        continue;
      }
      // Its name: the text before the label on its line, else the nearest above.
      let name: Segment | null = null;
      // A range printed between the name and the value ('Normal range: ...' above 'Value 5.3') is this
      // block's, when no block before took it.
      let rangeAbove: Segment | null = null;
      for (let back = at - 1; back >= 0; back--) {
        const before = segments[back] as Segment;
        if (segment.line - before.line > 3) break;
        if (used.has(before.line) || (current !== null && current.lines.includes(before.line))) break;
        if (before.tag === 'range' && !rangeAbove) {
          rangeAbove = before;
          continue;
        }
        if (before.tag !== null) break;
        if (couldName(before.text)) {
          name = before;
          break;
        }
      }
      if (!name) continue;
      close();
      open = true;
      if (lines.length > 1) at += 1;
      const blockLines = [name.line, ...lines];
      current = {
        name: name.text.replace(/[:\s]+$/, ''),
        ...value,
        range: '',
        words: wordsOf([...new Set(blockLines)]),
        x0: page.lines[name.line]?.cells[0]?.x0 ?? 0,
        lines: blockLines,
      };
      const range = rangeAbove ? readRange(rangeAbove.text) : null;
      if (rangeAbove && range) {
        current.range = range.range;
        current.unit ||= range.unit;
        current.lines.push(rangeAbove.line);
      }
      continue;
    }
    if (!current || !open) continue;
    const block: RawRow & { lines: number[] } = current;
    if (segment.tag === 'range') {
      let text = segment.text;
      const next = segments[at + 1];
      if (!text && next && next.tag === null && next.line === segment.line + 1) {
        text = next.text;
        at += 1;
        block.lines.push(next.line);
      }
      const range = readRange(text);
      if (range && !block.range) {
        block.range = range.range;
        if (!block.unit) block.unit = range.unit;
        block.lines.push(segment.line);
      }
      continue;
    }
    if (segment.tag === 'flag') {
      const flag = flagWord(segment.text) ?? (NORMAL_WORDS.test(segment.text.trim()) ? '' : null);
      if (flag !== null) {
        if (flag) block.printedFlag = flag;
        block.lines.push(segment.line);
      }
      continue;
    }
    const flag = flagWord(segment.text);
    if (flag) {
      block.printedFlag = flag;
      block.lines.push(segment.line);
    } else if (NORMAL_WORDS.test(segment.text.trim())) {
      block.lines.push(segment.line);
    } else {
      // The next block's name, a note or a title: nothing after it is this block's.
      open = false;
    }
  }
  close();
  return { rows, used };
}
