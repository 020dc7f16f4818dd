import { findAnalyte, looksLikeUnit } from './lab-analytes';
import type { Cell } from './lab-extraction-layout';
import type { OcrWord } from './ocr-layout';

// One table row read from a line's cells: the name, the value, the unit, the printed flag and the range.
//
// Choices:
// - Each cell's text is read into items by shape: an interval ('70-99', '70 - 99'), a bound ('<200', '> OR =
//   40'), a number (with a flag or a unit stuck to it: '250H', '5.4mg/dL'), a result in words ('Negative',
//   'Trace', '2+'), a flag, a unit. Anything else is a word. Two misreads OCR makes in numbers are mended
//   and marked (the row is then reviewed): a colon for a decimal point ('1:18') or for a dash ('1.5:12.5'),
//   and a lost dash ('2.34.2').
// - With a header, a cell's column says what it is; a cell read by shape can still hold several things (a
//   value and its unit, a range and its unit). Without one, the first value-like item is the value and the
//   rest are placed by shape.
// - A word after the value starts the next row of the same line (two tables side by side with no header);
//   a row whose cells do not all read as a result is not a row (a sentence, an address, 'Page 1 of 2').

export type ColumnKind = 'name' | 'value' | 'unit' | 'flag' | 'range' | 'low' | 'high';
/** `unit`: the unit its column's header prints, for a value printed without one. */
export type TaggedCell = Cell & { kind: ColumnKind | null; unit?: string };
export type PrintedFlag = 'H' | 'L' | 'A' | '';
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

type ItemKind = 'interval' | 'bound' | 'number' | 'words-result' | 'flag' | 'unit' | 'word';
export type Item = { kind: ItemKind; text: string; flag?: PrintedFlag; unit?: string; mended?: boolean };

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+`;
const INTERVAL = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})(?![\d.,])`, 'i');
const BOUND = new RegExp(String.raw`^(<=|>=|≤|≥|=<|=>|<|>)\s*(?:or\s*=\s*)?(${NUMBER})(?![\d.,])`, 'i');
const NUMBER_TOKEN = new RegExp(String.raw`^(${NUMBER})(\S*)`);
const WORDS_RESULT =
  /^(?:not detected|none seen|non[- ]?reactive|pale yellow|light yellow|dark yellow|slightly cloudy|slightly hazy|negative|positive|neg|pos|trace|detected|reactive|clear|cloudy|hazy|turbid|yellow|straw|amber|colorless|few|rare|moderate|many|small|large|normal|[1-4]\+)(?![\w+])/i;
const FLAG =
  /^(?:HIGH|LOW|High|Low|HH|LL|H|L|A|\*{1,2}|\((?:HH|LL|H|L|A|HIGH|LOW|High|Low|ABN|Abnormal|ABNORMAL)\)|ABN|Abnormal|ABNORMAL|CRIT)(?![\w*])/;

export function flagOf(text: string): PrintedFlag {
  const letters = text.replace(/[()\s]/g, '').toUpperCase();
  if (/^(?:H|HH|HIGH)$/.test(letters)) return 'H';
  if (/^(?:L|LL|LOW)$/.test(letters)) return 'L';
  return letters.length > 0 ? 'A' : '';
}

// O read for 0 and l or I for 1 inside what is otherwise a number ('1O5', 'l.2', '0.5-l.2').
function repairDigits(token: string): string {
  if (!/\d/.test(token) || !/^[<>=]*[\dOolI.,\-–]+(?:HH|LL|H|L|\*)?$/.test(token)) return token;
  const flagMatch = /(HH|LL|H|L|\*)$/.exec(token);
  const flag = flagMatch?.[1] ?? '';
  const body = flag ? token.slice(0, -flag.length) : token;
  return body.replace(/[Oo]/g, '0').replace(/[lI]/g, '1') + flag;
}

const dropThousands = (number: string) =>
  /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(number) ? number.replace(/,/g, '') : number;

/** The items one cell's text holds, in order. */
export function scanItems(text: string): Item[] {
  // Specks a photo adds ('~~ 123', '| 4.5') are no part of any field.
  let rest = text
    // A range in brackets with spaces in it ('(135 - 146)', '( > 60 )'): the brackets are no part of it.
    .replace(/[([]\s*([<>≤≥=]*\s*[\d.,]+(?:\s*(?:-|–|to)\s*[\d.,]+)?)\s*[)\]]/gi, ' $1 ')
    .split(/\s+/)
    .filter((token) => !/^[~_|'"`°•·,.:;]+$/.test(token))
    // A range in brackets ('(70-99)', '[<200]'): the brackets are no part of it.
    .map((token) => token.replace(/^[([]([<>≤≥=]*\s*[\d.,]+(?:\s*[-–]\s*[\d.,]+)?)[)\]]$/, '$1'))
    .map(repairDigits)
    .join(' ')
    .trim();
  const items: Item[] = [];
  while (rest.length > 0) {
    const item = nextItem(rest);
    items.push(item.item);
    rest = rest.slice(item.length).trim();
  }
  return items;
}

function nextItem(rest: string): { item: Item; length: number } {
  // '2.34.2': an interval whose dash OCR lost; both bounds have the last one's decimals.
  const dashless = /^(\d+)\.(\d+)\.(\d+)(?![\d.])/.exec(rest);
  if (dashless && (dashless[2] ?? '').length > (dashless[3] ?? '').length) {
    const [, whole = '', middle = '', last = ''] = dashless;
    const text = `${whole}.${middle.slice(0, last.length)}-${middle.slice(last.length)}.${last}`;
    return { item: { kind: 'interval', text, mended: true }, length: dashless[0].length };
  }
  // '1.5:12.5': a dash read as a colon between two decimals.
  const colonInterval = /^(\d+\.\d+):(\d+\.\d+)(?![\d.])/.exec(rest);
  if (colonInterval) {
    const text = `${colonInterval[1]}-${colonInterval[2]}`;
    return { item: { kind: 'interval', text, mended: true }, length: colonInterval[0].length };
  }
  // '1:18': OCR's colon for a decimal point.
  const colon = /^(\d{1,3}):(\d{1,3})(?![\d:])/.exec(rest);
  if (colon)
    return {
      item: { kind: 'number', text: `${colon[1]}.${colon[2]}`, mended: true },
      length: colon[0].length,
    };
  const interval = INTERVAL.exec(rest);
  if (interval)
    return { item: { kind: 'interval', text: interval[0].replace(/\s+/g, ' ') }, length: interval[0].length };
  const bound = BOUND.exec(rest);
  if (bound) {
    const sign = (bound[1] ?? '').replace('=<', '<=').replace('=>', '>=');
    const orEqual = /or\s*=/i.test(bound[0]) ? '=' : '';
    return {
      item: { kind: 'bound', text: `${sign}${orEqual}${dropThousands(bound[2] ?? '')}` },
      length: bound[0].length,
    };
  }
  const words = WORDS_RESULT.exec(rest);
  if (words) return { item: { kind: 'words-result', text: words[0] }, length: words[0].length };
  const number = NUMBER_TOKEN.exec(rest);
  if (number) {
    const value = dropThousands(number[1] ?? '');
    const suffix = number[2] ?? '';
    if (suffix === '') return { item: { kind: 'number', text: value }, length: number[0].length };
    if (FLAG.test(suffix) && FLAG.exec(suffix)?.[0] === suffix) {
      return { item: { kind: 'number', text: value, flag: flagOf(suffix) }, length: number[0].length };
    }
    if (looksLikeUnit(suffix))
      return { item: { kind: 'number', text: value, unit: suffix }, length: number[0].length };
  }
  const flag = FLAG.exec(rest);
  if (flag) return { item: { kind: 'flag', text: flag[0], flag: flagOf(flag[0]) }, length: flag[0].length };
  const tokens = rest.split(' ');
  const two = tokens.slice(0, 2).join(' ');
  if (tokens.length > 1 && looksLikeUnit(two))
    return { item: { kind: 'unit', text: two }, length: two.length };
  const first = tokens[0] ?? rest;
  if (looksLikeUnit(first)) return { item: { kind: 'unit', text: first }, length: first.length };
  return { item: { kind: 'word', text: first }, length: first.length };
}

const VALUE_KINDS: ItemKind[] = ['number', 'bound', 'words-result'];
const isValueItem = (item: Item | undefined) => item !== undefined && VALUE_KINDS.includes(item.kind);

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
  if (!values.every((value, index) => ownCells(value, values[index + 1]))) {
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
