import type { Cell, Line } from './lab-extraction-layout';
import type { ColumnKind, TaggedCell } from './lab-extraction-row';
import { scanItems } from './lab-extraction-items';
import { datesIn } from './lab-extraction-meta';

// A table's header row ('Test  Result  Flag  Units  Reference Range', in any order) and the columns it
// fixes, and the cells of a later line placed in those columns.
//
// Choices:
// - A header is a line whose words are (nearly) all header words, naming at least two kinds of column, one
//   of them the result or the range: 'Test results' in a sentence is not a header.
// - A second name column on one header starts a second table beside the first (two tables per page).
// - Columns are kept as fractions of the page's width, so that a second page without a header, whose units
//   may differ, is read with the first page's columns.
// - A cell goes to the column its span overlaps most, else the nearest. A cell spanning the name and the next
//   column (a narrow gutter) is cut where the value starts.

export type HeaderKind = ColumnKind | 'other' | 'date';
/** `unit`: the unit a result column's header prints ('%', 'x10^9/L'), for its values printed without one. */
export type Column = { kind: HeaderKind; x0: number; x1: number; date?: string; unit?: string };
/** A table's columns, left to right, in fractions of the page's width. */
export type Region = { columns: Column[] };
/** `resultDate`: a cumulative table's current column's date (its results are from that day). */
export type Header = { regions: Region[]; resultDate?: string };

const PHRASES: [HeaderKind, string][] = [
  ['name', 'test name'],
  ['name', 'lab test'],
  ['name', 'lab tests'],
  ['name', 'test performed'],
  ['name', 'tests performed'],
  ['name', 'test ordered'],
  ['name', 'test description'],
  ['name', 'tests'],
  ['name', 'test'],
  ['name', 'analyte'],
  ['name', 'analytes'],
  ['name', 'component'],
  ['name', 'components'],
  ['name', 'description'],
  ['name', 'parameter'],
  ['name', 'investigation'],
  ['name', 'exam'],
  ['name', 'procedure'],
  ['value', 'current result and flag'],
  ['other', 'previous result and date'],
  ['other', 'previous result'],
  ['other', 'prior result'],
  ['other', 'previous'],
  ['other', 'prior'],
  ['value', 'your value'],
  ['value', 'your result'],
  ['value', 'observed value'],
  ['value', 'result value'],
  ['value', 'current result'],
  ['value', 'patient result'],
  ['value', 'in range'],
  ['value', 'out of range'],
  ['value', 'result'],
  ['value', 'results'],
  ['value', 'value'],
  ['unit', 'units'],
  ['unit', 'unit'],
  ['unit', 'uom'],
  ['flag', 'abnormal flag'],
  ['flag', 'result flag'],
  ['flag', 'h/l'],
  ['flag', 'hi/lo'],
  ['flag', 'flag'],
  ['flag', 'flags'],
  ['flag', 'abnormal'],
  ['flag', 'abn'],
  ['flag', 'indicator'],
  ['flag', 'status'],
  ['range', 'reference range'],
  ['range', 'ref range'],
  ['range', 'normal range'],
  ['range', 'reference interval'],
  ['range', 'reference intervals'],
  ['range', 'standard range'],
  ['range', 'reference values'],
  ['range', 'ref interval'],
  ['range', 'normal values'],
  ['range', 'expected range'],
  ['range', 'biological reference interval'],
  ['range', 'reference'],
  ['range', 'range'],
  ['range', 'normal'],
  // Limits in columns of their own: the range is made from them.
  ['low', 'low limit'],
  ['low', 'lower limit'],
  ['low', 'ref low'],
  ['low', 'normal low'],
  ['low', 'low'],
  ['low', 'min'],
  ['high', 'high limit'],
  ['high', 'upper limit'],
  ['high', 'ref high'],
  ['high', 'normal high'],
  ['high', 'high'],
  ['high', 'max'],
  ['other', 'specimen type'],
  ['other', 'specimen'],
  ['other', 'sample'],
  ['other', 'source'],
  ['other', 'lab'],
  ['other', 'site'],
  ['other', 'date'],
  ['other', 'comment'],
  ['other', 'comments'],
  ['other', 'method'],
  ['other', 'code'],
];

const plain = (text: string) => text.toLowerCase().replace(/[^a-z/ ]/g, '');

/** The kind of column a header cell's words name as a whole ('Reference Range' is a range), or null. */
export function phraseKind(text: string): HeaderKind | null {
  const words = text.split(/\s+/).map(plain).filter(Boolean).join(' ');
  return PHRASES.find(([, phrase]) => phrase === words)?.[0] ?? null;
}

/** The header a line is, or null. */
export function headerOf(line: Line, pageWidth: number): Header | null {
  // A box may hold several words (a PDF's run): each gets its share of the box.
  const parts = line.words.flatMap((word) => {
    const parts = word.text.split(/\s+/);
    const step = (word.x1 - word.x0) / Math.max(word.text.length, 1);
    let offset = 0;
    return parts.map((part) => {
      const x0 = word.x0 + offset * step;
      offset += part.length + 1;
      return { word: { ...word, x0, x1: x0 + part.length * step }, text: plain(part), raw: part };
    });
  });
  const words = parts.filter((entry) => entry.text || datesIn(entry.raw).length === 1);
  // Numbers over result columns that read as no date ('1192023': OCR lost a date's slashes).
  const unread = parts.filter(
    (entry) => !entry.text && /\d{3}/.test(entry.raw) && datesIn(entry.raw).length === 0,
  );
  const columns: Column[] = [];
  let matched = 0;
  for (let index = 0; index < words.length;) {
    // A date over a column: a cumulative report's results of that day (the newest is the current one).
    const entry = words[index];
    const date = entry && /^[\dOolI]/.test(entry.raw) ? datesIn(entry.raw) : [];
    if (entry && date.length === 1 && date[0]) {
      columns.push({
        kind: 'date',
        x0: entry.word.x0 / pageWidth,
        x1: entry.word.x1 / pageWidth,
        date: date[0],
      });
      matched++;
      index++;
      continue;
    }
    const found = PHRASES.map(([kind, phrase]) => ({ kind, parts: phrase.split(' ') })).find(({ parts }) =>
      parts.every((part, offset) => words[index + offset]?.text === part),
    );
    if (!found) {
      index++;
      continue;
    }
    const phraseWords = words.slice(index, index + found.parts.length).map((entry) => entry.word);
    columns.push({
      kind: found.kind,
      x0: Math.min(...phraseWords.map((word) => word.x0)) / pageWidth,
      x1: Math.max(...phraseWords.map((word) => word.x1)) / pageWidth,
    });
    matched += found.parts.length;
    index += found.parts.length;
  }
  // Dates over the result columns (a cumulative report): the newest is the value; the others are earlier
  // results, not read. Beside a result column of its own, a date is only a date.
  const dated = columns.filter((column) => column.kind === 'date');
  const newest = dated.reduce<Column | null>(
    (best, column) => (!best || (column.date ?? '') > (best.date ?? '') ? column : best),
    null,
  );
  const hasValue = columns.some((column) => column.kind === 'value');
  for (const column of dated) column.kind = !hasValue && column === newest ? 'value' : 'other';
  let resultDate = !hasValue && newest ? newest.date : undefined;
  // With a date unread, the newest that read may not be the current column: every dated column is a
  // result column then, and a row with several results is read for review (rowsFromColumns).
  if (!hasValue && unread.length > 0) {
    for (const column of dated) column.kind = 'value';
    for (const entry of unread)
      columns.push({ kind: 'value', x0: entry.word.x0 / pageWidth, x1: entry.word.x1 / pageWidth });
    columns.sort((a, b) => a.x0 - b.x0);
    resultDate = undefined;
  }
  const kinds = new Set(columns.map((column) => column.kind).filter((kind) => kind !== 'other'));
  if (words.length === 0 || matched < words.length * 0.85 || kinds.size < 2) return null;
  if (!kinds.has('value') && !kinds.has('range')) return null;
  // 'Low' or 'High' alone is a flag column's title, not a limit: limits come in pairs.
  if (kinds.has('low') !== kinds.has('high'))
    for (const column of columns) if (column.kind === 'low' || column.kind === 'high') column.kind = 'flag';
  const regions: Region[] = [];
  for (const column of columns) {
    const current = regions.at(-1);
    // Every table has its name column: a second one starts a table beside the first ('In Range' and 'Out
    // of Range' are two result columns of one table).
    if (current && !(column.kind === 'name' && current.columns.some((seen) => seen.kind === 'name'))) {
      current.columns.push(column);
    } else {
      regions.push({ columns: [column] });
    }
  }
  return resultDate ? { regions, resultDate } : { regions };
}

const overlap = (cell: { x0: number; x1: number }, column: Column) =>
  Math.min(cell.x1, column.x1) - Math.max(cell.x0, column.x0);
const distance = (cell: { x0: number; x1: number }, column: Column) =>
  Math.max(column.x0 - cell.x1, cell.x0 - column.x1, 0);

function columnFor(span: { x0: number; x1: number }, columns: Column[]): Column | undefined {
  let best: Column | undefined;
  let bestScore = -Infinity;
  for (const column of columns) {
    const score = overlap(span, column) > 0 ? overlap(span, column) : -distance(span, column);
    if (score > bestScore) {
      best = column;
      bestScore = score;
    }
  }
  return best;
}

const isValueStart = (text: string) =>
  ['number', 'bound', 'words-result'].includes(scanItems(text)[0]?.kind ?? '');

/** A line's cells placed in a header's tables and columns: one list of tagged cells per table. */
export function placeCells(
  cells: Cell[],
  header: Header,
  pageWidth: number,
  wordHeight: number,
): TaggedCell[][] {
  const fraction = (cell: { x0: number; x1: number }) => ({
    x0: cell.x0 / pageWidth,
    x1: cell.x1 / pageWidth,
  });
  const margin = wordHeight / pageWidth;
  const byRegion: TaggedCell[][] = header.regions.map(() => []);
  for (const cell of cells) {
    const span = fraction(cell);
    let regionIndex = 0;
    header.regions.forEach((region, index) => {
      const start = region.columns[0]?.x0 ?? 0;
      if (index > 0 && span.x0 >= start - margin) regionIndex = index;
    });
    const region = header.regions[regionIndex] as Region;
    const list = byRegion[regionIndex] as TaggedCell[];
    const touched = region.columns.filter((column) => overlap(span, column) > 0);
    const nameColumn = region.columns.find((column) => column.kind === 'name');
    if (touched.length > 1 && touched[0] === nameColumn) {
      // The name ran into the next column: cut the cell where a value begins.
      const cut = cell.words.findIndex(
        (word, index) =>
          index > 0 &&
          columnFor(fraction(word), region.columns) !== nameColumn &&
          isValueStart(
            cell.words
              .slice(index)
              .map((w) => w.text)
              .join(' '),
          ),
      );
      if (cut > 0) {
        for (const part of [cell.words.slice(0, cut), cell.words.slice(cut)]) {
          const partCell = {
            words: part,
            text: part.map((word) => word.text).join(' '),
            x0: Math.min(...part.map((word) => word.x0)),
            x1: Math.max(...part.map((word) => word.x1)),
          };
          list.push({ ...partCell, kind: kindOf(columnFor(fraction(partCell), region.columns)) });
        }
        continue;
      }
    }
    const column = columnFor(span, region.columns);
    list.push({ ...cell, kind: kindOf(column), ...(column?.unit ? { unit: column.unit } : {}) });
  }
  return byRegion;
}

const kindOf = (column: Column | undefined): ColumnKind | null =>
  column && column.kind !== 'other' && column.kind !== 'date' ? column.kind : null;
