import { findAnalyte } from './lab-analytes';
import { flagOf, isValueItem, scanItems, type Item, type PrintedFlag } from './lab-extraction-items';
import type { Cell } from './lab-extraction-layout';
import type { OcrWord } from './ocr-layout';

// One table row read from a line's cells: the name, the value, the unit, the printed flag and the range.
//
// Choices:
// - Each cell's text is read into items by shape (lab-extraction-items.ts).
// - With a header, a cell's column says what it is; a cell read by shape can still hold several things (a
//   value and its unit, a range and its unit). Without one, the first value-like item is the value and the
//   rest are placed by shape.
// - A word after the value starts the next row of the same line (two tables side by side with no header);
//   a row whose cells do not all read as a result is not a row (a sentence, an address, 'Page 1 of 2').

export type ColumnKind = 'name' | 'value' | 'unit' | 'flag' | 'range' | 'low' | 'high';
/** `unit`: the unit its column's header prints, for a value printed without one. */
export type TaggedCell = Cell & { kind: ColumnKind | null; unit?: string };
export type RawRow = {
  name: string;
  value: string;
  unit: string;
  printedFlag: PrintedFlag;
  range: string;
  words: OcrWord[];
  x0: number;
  /** A character was read as another to make sense of the row ('1:18' for '1.18'): worth a look. */
  mended?: boolean;
};

/** `others`: more results followed the value in the row (other days'), so later flags are theirs. */
type Reading = {
  value: string;
  unit: string;
  printedFlag: PrintedFlag;
  range: string;
  mended?: boolean;
  others?: boolean;
};

// Places items read by shape: the first value-like item is the value, the rest by shape.
// `lenient`: a word after the value is its unit misread ('32 UIL' in a result column), for the review to judge.
function placeByShape(items: Item[], reading: Reading, lenient = false): boolean {
  for (const item of items) {
    if (
      item.kind === 'word' &&
      lenient &&
      reading.value &&
      !reading.unit &&
      /^[a-z/]{1,8}$/i.test(item.text)
    ) {
      reading.unit = item.text;
      continue;
    }
    if (item.kind === 'word') return false;
    if (item.mended) reading.mended = true;
    if (!reading.value && isValueItem(item)) {
      reading.value = item.text;
      if (item.flag) reading.printedFlag = item.flag;
      if (item.unit && !reading.unit) reading.unit = item.unit;
    } else if (item.kind === 'interval' || item.kind === 'bound' || item.kind === 'words-result') {
      if (reading.range) return false;
      reading.range = item.text;
    } else if (item.kind === 'flag') {
      if (!reading.others) reading.printedFlag = item.flag ?? 'A';
    } else if (item.kind === 'unit') {
      if (!reading.unit) reading.unit = item.text;
    } else if (item.kind === 'number' && !reading.unit && !reading.range) {
      // Another result before the row's unit and range: a cumulative row whose columns no header dates.
      // The first is taken, for review: which one is current is not printed.
      reading.others = true;
      reading.mended = true;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * The rows of one line of a table. Where a header has two result columns and the line has a value in each
 * (a differential's percentage and absolute count, 'Result  Units  Result  Units'), each value is a row of
 * its own under the same name, with the cells that follow it up to the next value; the analyte table then
 * tells the percentage from the count by the unit. With one value (an 'In Range' / 'Out Of Range' pair), it
 * is one row.
 */
export function rowsFromColumns(cells: TaggedCell[]): RawRow[] {
  const ordered = [...cells].sort((a, b) => a.x0 - b.x0);
  const values = ordered.filter((cell) => cell.kind === 'value' && isValueItem(scanItems(cell.text)[0]));
  if (values.length < 2) {
    const row = rowFromColumns(cells);
    return row ? [row] : [];
  }
  // Each result with a unit, a range or limits of its own after it (a differential) is a row; results side
  // by side with nothing of their own between them are one row's results of several days whose header
  // did not say which is current (OCR lost its dates): the first is taken, for review.
  const ownCells = (from: TaggedCell, to: TaggedCell | undefined) =>
    ordered.some(
      (cell) =>
        cell.x0 > from.x0 &&
        (!to || cell.x0 < to.x0) &&
        ['unit', 'range', 'low', 'high'].includes(cell.kind ?? ''),
    );
  // Columns whose titles give them units of their own ('%', 'x10^9/L') are different results either way.
  const ownUnits = new Set(values.map((value) => value.unit ?? '')).size === values.length;
  if (!ownUnits && !values.every((value, index) => ownCells(value, values[index + 1]))) {
    const row = rowFromColumns(ordered.filter((cell) => cell.kind !== 'value' || cell === values[0]));
    return row ? [{ ...row, mended: true }] : [];
  }
  const names = ordered.filter((cell) => cell.kind === 'name');
  return values.flatMap((value, index) => {
    const next = values[index + 1];
    const own = ordered.filter(
      (cell) => cell.kind !== 'name' && cell.x0 >= value.x0 && (!next || cell.x0 < next.x0),
    );
    const row = rowFromColumns([...names, ...own]);
    return row ? [row] : [];
  });
}

/** A row from cells tagged by a header's columns, or null when it is not a result row. */
export function rowFromColumns(cells: TaggedCell[]): RawRow | null {
  const nameCells = cells.filter((cell) => cell.kind === 'name');
  const of = (kind: ColumnKind) =>
    cells
      .filter((cell) => cell.kind === kind)
      .map((cell) => cell.text)
      .join(' ');
  const reading: Reading = { value: '', unit: '', printedFlag: '', range: '' };
  const valueItems = scanItems(of('value'));
  // A flag printed before the result in its cell ('H  105'): the flag, then the value.
  if (valueItems[0]?.kind === 'flag' && isValueItem(valueItems[1]))
    valueItems.push(valueItems.shift() as Item);
  if (!isValueItem(valueItems[0]) && valueItems.length > 0) return null;
  if (!placeByShape(valueItems, reading, true)) return null;
  // A unit cell may hold the range too, where the gutter between them is narrow ('mL/min/1.73m2 >60').
  const unitItems = scanItems(of('unit'));
  const unitRange = unitItems.find((item) => item.kind === 'interval' || item.kind === 'bound');
  const unitText = unitItems
    .filter((item) => item !== unitRange)
    .map((item) => item.text)
    .join(' ');
  if (unitText) reading.unit = unitText;
  if (unitRange && !reading.range) reading.range = unitRange.text;
  reading.unit ||= cells.find((cell) => cell.kind === 'value' && cell.unit)?.unit ?? '';
  const flagText = of('flag').trim();
  if (flagText) reading.printedFlag = flagOf(flagText);
  // A flag word standing in the range column's span ('High  <200 mg/dL'): the flag, not part of the range.
  const rangeItems = scanItems(of('range')).filter((item) => {
    if (item.kind !== 'flag') return true;
    if (!reading.printedFlag) reading.printedFlag = item.flag ?? 'A';
    return false;
  });
  const rangeUnit = rangeItems.find((item) => item.kind === 'unit');
  if (rangeUnit && !reading.unit) reading.unit = rangeUnit.text;
  // A range with words about it ('<100 Optimal', 'Fasting: 70-99'): the one interval or bound is the range.
  // Two of them ('Male: 13-17 Female: 12-16') stay as printed, for a person to read.
  const rangeShapes = rangeItems.filter((item) => item.kind !== 'unit');
  const limits = rangeShapes.filter((item) => item.kind === 'interval' || item.kind === 'bound');
  const described =
    limits.length === 1 && rangeShapes.every((item) => item === limits[0] || item.kind === 'word');
  const rangeText = (described ? limits : rangeShapes).map((item) => item.text).join(' ');
  if (rangeText) reading.range = rangeText;
  // Separate limit columns ('Low  High'): the range they make, one open end written as a bound.
  const low = scanItems(of('low')).find((item) => item.kind === 'number')?.text;
  const high = scanItems(of('high')).find((item) => item.kind === 'number')?.text;
  if (!reading.range && (low || high))
    reading.range = low && high ? `${low}-${high}` : low ? `>=${low}` : `<=${high ?? ''}`;
  // A range column that reads as no range ('3553', '1.525': a lost dash) is a doubtful read.
  const rangeReads =
    described ||
    (rangeShapes.length === 1 && ['interval', 'bound', 'words-result'].includes(rangeShapes[0]?.kind ?? ''));
  if (rangeItems.some((item) => item.mended) || (rangeShapes.length > 0 && !rangeReads))
    reading.mended = true;
  const name = nameCells.map((cell) => cell.text).join(' ');
  if (!reading.value) return null;
  return { name, ...reading, words: cells.flatMap((cell) => cell.words), x0: cells[0]?.x0 ?? 0 };
}

// Where the name ends inside a cell that also holds the value ('Glucose 95 mg/dL' read as one cell).
function splitName(cell: Cell): { name: string; rest: string } | null {
  const tokens = cell.text.split(' ');
  let firstFit: { name: string; rest: string } | null = null;
  for (let k = tokens.length - 1; k >= 1; k--) {
    const name = tokens.slice(0, k).join(' ');
    const rest = tokens.slice(k).join(' ');
    const items = scanItems(rest);
    if (!isValueItem(items[0]) || items.some((item) => item.kind === 'word')) continue;
    if (findAnalyte(name)) return { name, rest };
    firstFit = { name, rest };
  }
  return firstFit;
}

/** The rows one line holds when no header says what its columns are (one, or more side by side). */
export function rowsByShape(cells: Cell[]): RawRow[] {
  const rows: RawRow[] = [];
  let index = 0;
  while (index < cells.length) {
    const nameCell = cells[index];
    if (!nameCell) break;
    let name = nameCell.text;
    const restTexts: { text: string; cell: Cell }[] = [];
    const next = cells[index + 1];
    const startsValue = (cell: Cell | undefined) =>
      cell !== undefined && ['number', 'bound', 'interval'].includes(scanItems(cell.text)[0]?.kind ?? '');
    if (index === 0 && startsValue(nameCell)) {
      // Values under a name printed on the line above (a wrapped name): the caller joins them.
      name = '';
      restTexts.push({ text: nameCell.text, cell: nameCell });
    } else if (!startsValue(next) && !isValueItem(scanItems(next?.text ?? '')[0]) && !findAnalyte(name)) {
      const split = splitName(nameCell);
      if (split) {
        name = split.name;
        restTexts.push({ text: split.rest, cell: nameCell });
      }
    }
    const reading: Reading = { value: '', unit: '', printedFlag: '', range: '' };
    const used: Cell[] = [nameCell];
    let cursor = index + 1;
    let valid = placeByShape(
      restTexts.flatMap((part) => scanItems(part.text)),
      reading,
    );
    while (valid && cursor < cells.length) {
      const cell = cells[cursor] as Cell;
      const items = scanItems(cell.text);
      // A word after the value: the next row of a table standing beside this one.
      if (reading.value && items[0]?.kind === 'word') break;
      valid = placeByShape(items, reading);
      used.push(cell);
      cursor++;
    }
    if (valid && reading.value && (name === '' || /[a-z]/i.test(name))) {
      rows.push({ name, ...reading, words: used.flatMap((cell) => cell.words), x0: nameCell.x0 });
    }
    if (!valid) break;
    index = Math.max(cursor, index + 1);
  }
  return rows;
}
