import { findAnalyte, suggestReportType } from './lab-analytes';
import { blockRows } from './lab-extraction-blocks';
import { headerAt, headerByContent } from './lab-extraction-columns';
import { headerOf, placeCells, type Header } from './lab-extraction-header';
import { linesOfPage, type Line, type PageLines } from './lab-extraction-layout';
import { findDoctor, findReportDate } from './lab-extraction-meta';
import { resultOf } from './lab-extraction-review';
import { scanItems } from './lab-extraction-items';
import { rowsByShape, rowsFromColumns, type RawRow, type TaggedCell } from './lab-extraction-row';
import type { LabExtraction } from './lab-results';
import type { OcrPageLayout } from './ocr-layout';

// A lab report's result table, its ordering doctor and its date, read from the words OCR found on
// each page and where they stand (ocr-layout.ts). Pure: the server's OCR service gives the layout, the
// person reviews what this answers.
//
// Choices:
// - Lines are rebuilt from word positions and cut into cells at wide gaps (lab-extraction-layout.ts). A
//   header line fixes the columns of the table below it, and of the next pages until another header
//   (lab-extraction-header.ts), also when it is printed over two or three lines (lab-extraction-columns.ts);
//   without one, each line is read by the shape of its cells
//   (lab-extraction-row.ts).
// - Test blocks with no table ('Glucose' / 'Your value: 105 mg/dL' / 'Standard range: 70 - 99') are read
//   first, by their labels (lab-extraction-blocks.ts).
// - A line with a name but no value is a section title ('LIPID PANEL'), a wrapped name, or text. When it is
//   short and set no further from a row than the page's usual line pitch, it joins the row above or below
//   when together they name a known analyte, when it opens with '(' or a small letter or the name above
//   leaves a parenthesis open, or when the row below has values and no name; otherwise it is not a row.
// - Under a header, a line of nothing but flags and units outside the name column is a row's cells
//   wrapped onto a second line ('55 mL/min/1.73m2' over '(Low)'): they are the row above's. A labelled
//   range on the line under a row that printed none ('Reference range: 65-99 mg/dL') is that row's.
// - Lines repeated at the top or bottom of several pages (a page header or footer) are not rows.
// - Rows are kept per table, left table first on a page, and each is checked (lab-extraction-review.ts).
// - A row read without a value is not a result; a line that does not read as a row is left out rather than
//   guessed at.

export type ExtractOptions = {
  /** YYYY-MM-DD: dates after it are not report dates. */
  today?: string;
};

type Entry =
  | { kind: 'row'; row: RawRow; line: number; region: number; yc: number }
  | { kind: 'text'; text: string; line: number; region: number; yc: number; title: boolean }
  /** A row's cells wrapped onto the next line, outside the name column ('(Low)' under '55 mL/min'). */
  | { kind: 'more'; cells: TaggedCell[]; line: number; region: number; yc: number };

const SECTION_WORDS =
  /^(?:chemistry|hematology|haematology|lipids?|lipid panel|lipid profile|urinalysis|thyroid|endocrinology|immunology|serology|coagulation|general chemistry|routine chemistry|special chemistry|complete blood count|cbc(?: with differential)?|differential|comprehensive metabolic panel|basic metabolic panel|cmp|bmp|liver function|kidney function|renal function|iron studies|vitamins?|diabetes|urine|microscopic|macroscopic|results?|test results?|lab results?|panel|profile)\b/i;

function looksLikeTitle(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, '');
  return (
    SECTION_WORDS.test(text.trim()) ||
    /:\s*$/.test(text) ||
    /\b(?:panel|profile|count|studies|function|screen)\s*$/i.test(text) ||
    (letters.length >= 3 && letters === letters.toUpperCase() && text.trim().split(/\s+/).length >= 2)
  );
}

const edgeKey = (line: Line) => line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

// Lines printed at the top or bottom of more than one page: a page header or footer.
function repeatedEdges(pages: PageLines[]): Set<string> {
  const seen = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const line of page.lines) {
      const atEdge = line.yc < page.height * 0.2 || line.yc > page.height * 0.85;
      if (!atEdge) continue;
      const key = edgeKey(line);
      seen.set(key, (seen.get(key) ?? new Set()).add(page.page));
    }
  }
  return new Set([...seen].filter(([, onPages]) => onPages.size > 1).map(([key]) => key));
}

function entriesOfLine(line: Line, index: number, page: PageLines, header: Header | null): Entry[] {
  const groups: TaggedCell[][] = header
    ? placeCells(line.cells, header, page.width, page.wordHeight)
    : [line.cells.map((cell) => ({ ...cell, kind: null }))];
  const entries: Entry[] = [];
  groups.forEach((cells, region) => {
    if (cells.length === 0) return;
    const text = cells.map((cell) => cell.text).join(' ');
    // 'Reference range: <200 mg/dL' under a row reads as a row named 'Reference range:'; it is the row's.
    if (RANGE_BELOW.test(text)) {
      entries.push({ kind: 'text', text, line: index, region, yc: line.yc, title: false });
      return;
    }
    const rows = header ? rowsFromColumns(cells) : rowsByShape(cells);
    if (rows.length > 0) {
      rows.forEach((row, offset) =>
        entries.push({ kind: 'row', row, line: index, region: region + offset, yc: line.yc }),
      );
      return;
    }
    if (header && cells.every((cell) => cell.kind !== null && cell.kind !== 'name' && wraps(cell.text))) {
      entries.push({ kind: 'more', cells, line: index, region, yc: line.yc });
      return;
    }
    if (/[a-z]/i.test(text))
      entries.push({ kind: 'text', text, line: index, region, yc: line.yc, title: looksLikeTitle(text) });
  });
  return entries;
}

const known = (name: string) => findAnalyte(name) !== null;

// What a cell's text wrapped onto a second line holds: a flag, a unit.
const wraps = (text: string) => scanItems(text).every((item) => item.kind === 'flag' || item.kind === 'unit');

/** A row's flag or unit that wrapped onto the line below it. */
function addWrapped(row: RawRow, cells: TaggedCell[]): void {
  for (const cell of cells) {
    for (const item of scanItems(cell.text)) {
      if (item.kind === 'flag' && !row.printedFlag) row.printedFlag = item.flag ?? 'A';
      if (item.kind === 'unit' && !row.unit && (cell.kind === 'value' || cell.kind === 'unit'))
        row.unit = item.text;
    }
    row.words.push(...cell.words);
  }
}

const RANGE_BELOW =
  /^(?:(?:reference|ref\.?|normal|standard|expected)(?:\s+(?:range|interval|values?))?|range)\s*[:\-–]?\s+/i;

/**
 * 'Reference range: 65-99 mg/dL' on the line under a row that printed none: the row's range, and its
 * unit when the row has none. False when the text is no such line.
 */
function addRangeBelow(row: RawRow, text: string): boolean {
  const label = RANGE_BELOW.exec(text);
  if (!label || row.range) return false;
  const items = scanItems(text.slice(label[0].length));
  const range = items.find((item) => ['interval', 'bound', 'words-result'].includes(item.kind));
  if (!range) return false;
  row.range = range.text;
  const unit = items.find((item) => item.kind === 'unit');
  if (!row.unit && unit) row.unit = unit.text;
  return true;
}

// A row of an analyte Kincare does not know needs more than a number to be a result: a unit or a range
// ('Suite 200' and 'Patient ID: 12345' are not results).
const believable = (row: RawRow) =>
  known(row.name) ||
  (!/:/.test(row.name) && (row.unit !== '' || row.range !== '') && /[a-z]{2}/i.test(row.name));

// Wrapped names: a name-only line joins the row above or below it in the same table.
function joinWrappedNames(entries: Entry[], pitch: number): RawRow[][] {
  const byRegion = new Map<number, Entry[]>();
  for (const entry of entries) byRegion.set(entry.region, [...(byRegion.get(entry.region) ?? []), entry]);
  const regions = [...byRegion.keys()].sort((a, b) => a - b);
  return regions.map((region) => {
    const list = byRegion.get(region) ?? [];
    list.forEach((entry, at) => {
      const close = (other: Entry | undefined) =>
        other !== undefined &&
        Math.abs(other.line - entry.line) === 1 &&
        Math.abs(other.yc - entry.yc) <= 1.2 * pitch;
      const above = list[at - 1];
      if (entry.kind === 'more') {
        if (above?.kind === 'row' && close(above)) addWrapped(above.row, entry.cells);
        return;
      }
      if (
        entry.kind === 'text' &&
        above?.kind === 'row' &&
        close(above) &&
        addRangeBelow(above.row, entry.text)
      )
        return;
      // A wrapped name is short and set close to its row; a note under the table is neither.
      if (entry.kind !== 'text' || entry.text.split(/\s+/).length > 5) return;
      const below = list[at + 1];
      const rowAbove = above?.kind === 'row' && close(above) ? above.row : null;
      const rowBelow = below?.kind === 'row' && close(below) ? below.row : null;
      if (
        rowBelow &&
        (rowBelow.name === '' || (!known(rowBelow.name) && known(`${entry.text} ${rowBelow.name}`)))
      ) {
        rowBelow.name = `${entry.text} ${rowBelow.name}`.trim();
        return;
      }
      if (entry.title) return;
      const continues =
        /^[(a-z]/.test(entry.text) ||
        /[-,/&(]$|\band$|\([^)]*$/.test(rowAbove?.name ?? '') ||
        (rowAbove !== null &&
          known(`${rowAbove.name} ${entry.text}`) &&
          findAnalyte(rowAbove.name) !== findAnalyte(`${rowAbove.name} ${entry.text}`));
      if (rowAbove && continues) rowAbove.name = `${rowAbove.name} ${entry.text}`;
    });
    return list.flatMap((entry) => (entry.kind === 'row' && entry.row.name !== '' ? [entry.row] : []));
  });
}

export function extractLabReport(pages: OcrPageLayout[], options: ExtractOptions = {}): LabExtraction {
  const pageLines = [...pages].sort((a, b) => a.page - b.page).map(linesOfPage);
  const edges = repeatedEdges(pageLines);
  let header: Header | null = null;
  let resultDate: string | null = null;
  const rows: RawRow[] = [];
  for (const page of pageLines) {
    const entries: Entry[] = [];
    // Test blocks with no table first (a portal's printout); their lines are not read again as rows.
    const blocks = blockRows(page, (line) => edges.has(edgeKey(line)) || headerOf(line, page.width) !== null);
    rows.push(...blocks.rows);
    for (let index = 0; index < page.lines.length; index++) {
      const line = page.lines[index] as Line;
      if (blocks.used.has(index)) continue;
      // A header on this line, or printed over it and the next ones (lab-extraction-columns.ts).
      const found = headerAt(page, index);
      if (found) {
        header = found.header;
        resultDate ??= found.header.resultDate ?? null;
        index += found.lines - 1;
        continue;
      }
      // Column titles that are not all header words, read with what the lines under them hold.
      const byContent = headerByContent(page, index);
      if (byContent) {
        header = byContent;
        continue;
      }
      if (edges.has(edgeKey(line))) continue;
      entries.push(...entriesOfLine(line, index, page, header));
    }
    for (const regionRows of joinWrappedNames(entries, page.pitch)) rows.push(...regionRows);
  }
  // A lab's own test code printed before the name ('001453 Hemoglobin A1c') is no part of it.
  for (const row of rows) row.name = row.name.replace(/^\d{4,7}\s+(?=[A-Za-z])/, '');
  const lab_results = rows.filter(believable).map(resultOf);
  return {
    doctor_name: findDoctor(pageLines),
    // A cumulative table says the day of its current results; a labelled date still wins.
    report_date: findReportDate(pageLines, options.today, resultDate),
    lab_results,
    report_type: suggestReportType(lab_results.flatMap((result) => (result.code ? [result.code] : []))),
  };
}
