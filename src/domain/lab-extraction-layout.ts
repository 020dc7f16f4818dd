import type { OcrPageLayout, OcrWord } from './ocr-layout';

// Lines and cells rebuilt from where a page's words stand (lab-extraction.ts reads them as table rows).
//
// Choices:
// - Every distance is measured in the page's typical word height (the median), since units differ by page.
// - A word joins the line whose last word, to its left, stands at the nearest height within half a word
//   height. Comparing with the last word rather than the line's first lets a slightly skewed photo's line
//   drift across the page and stay one line. Words tesseract put on one line (word.line) move together.
// - A cell is a run of words with gaps of less than a word height: wider than the spaces between words
//   of one phrase, narrower than the gutter between columns; on a page whose spaces are wider (a
//   monospaced printout read by OCR), one and a half of its usual word gap.

export type Cell = { words: OcrWord[]; text: string; x0: number; x1: number };
export type Line = {
  words: OcrWord[];
  cells: Cell[];
  text: string;
  y0: number;
  y1: number;
  yc: number;
};
export type PageLines = {
  page: number;
  width: number;
  height: number;
  wordHeight: number;
  /** The usual distance between one line and the next (the median). */
  pitch: number;
  lines: Line[];
};

const CELL_GAP_IN_HEIGHTS = 0.9;
const SPACE_AT_MOST_IN_HEIGHTS = 1.2;
const SPACES_IN_A_GUTTER = 1.5;
const MIN_GAPS_MEASURED = 12;
const SAME_LINE_IN_HEIGHTS = 0.5;
/** Well under a space's width (about a quarter of a word height). */
const TOUCHING_IN_HEIGHTS = 0.06;

const center = (word: OcrWord) => (word.y0 + word.y1) / 2;

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

type Unit = { words: OcrWord[]; x0: number; x1: number; yc: number };

// Words that tesseract numbered as one line travel together, at that line's mean height.
function unitsOf(words: OcrWord[]): Unit[] {
  const units: Unit[] = [];
  const byLine = new Map<number, OcrWord[]>();
  for (const word of words) {
    if (word.line === undefined) {
      units.push({ words: [word], x0: word.x0, x1: word.x1, yc: center(word) });
    } else {
      byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
    }
  }
  for (const lineWords of byLine.values()) {
    // A tesseract line can run through a gutter into the next table: split it where a wide gap is.
    const sorted = [...lineWords].sort((a, b) => a.x0 - b.x0);
    const yc = sorted.reduce((sum, word) => sum + center(word), 0) / sorted.length;
    for (const word of sorted) units.push({ words: [word], x0: word.x0, x1: word.x1, yc });
  }
  return units.sort((a, b) => a.x0 - b.x0);
}

function cellsOf(words: OcrWord[], gap: number): Cell[] {
  const cells: Cell[] = [];
  let parted = false;
  for (const word of words) {
    // A bar between fields ('Pt: Lang, Henry | DOB ... | Ordering: ...') parts cells, and is no text.
    if (word.text === '|') {
      parted = true;
      continue;
    }
    const last = parted ? undefined : cells.at(-1);
    parted = false;
    if (last && word.x0 - last.x1 < gap) {
      last.words.push(word);
      last.text = `${last.text} ${word.text}`;
      last.x1 = Math.max(last.x1, word.x1);
    } else {
      cells.push({ words: [word], text: word.text, x0: word.x0, x1: word.x1 });
    }
  }
  return cells;
}

export function cellsFromWords(words: OcrWord[], wordHeight: number): Cell[] {
  return cellsOf(
    [...words].sort((a, b) => a.x0 - b.x0),
    CELL_GAP_IN_HEIGHTS * wordHeight,
  );
}

/**
 * The narrowest gap between two cells of this page's lines. In most fonts a space between two words is
 * well under a word height; in a monospaced one it is a letter's width, and OCR's tight boxes put a word
 * gap near one word height: the page's own word gaps (the median of those under 1.2 word heights) set
 * the cut at one and a half of them when that is wider.
 */
function cellGapOf(lines: OcrWord[][], wordHeight: number): number {
  const gaps = lines
    .flatMap((words) => words.slice(1).map((word, at) => word.x0 - (words[at]?.x1 ?? word.x0)))
    .filter((gap) => gap > 0 && gap < SPACE_AT_MOST_IN_HEIGHTS * wordHeight);
  const least = CELL_GAP_IN_HEIGHTS * wordHeight;
  return gaps.length < MIN_GAPS_MEASURED ? least : Math.max(least, SPACES_IN_A_GUTTER * median(gaps));
}

// Pieces of one word a PDF's text layer holds apart ('North', 'fi', 'eld': a ligature drawn as a glyph of
// its own), which touch end to start on one baseline, are one word again.
function joinTouching(words: OcrWord[], wordHeight: number): OcrWord[] {
  const joined: OcrWord[] = [];
  for (const word of [...words].sort((a, b) => a.x0 - b.x0)) {
    const piece = joined.findLast(
      (other) =>
        other.confidence === null &&
        word.confidence === null &&
        Math.abs(other.x1 - word.x0) <= TOUCHING_IN_HEIGHTS * wordHeight &&
        Math.abs(other.y1 - word.y1) <= TOUCHING_IN_HEIGHTS * wordHeight,
    );
    if (piece) {
      piece.text += word.text;
      piece.x1 = Math.max(piece.x1, word.x1);
      piece.y0 = Math.min(piece.y0, word.y0);
    } else {
      joined.push({ ...word });
    }
  }
  return joined;
}

export function linesOfPage(page: OcrPageLayout): PageLines {
  const cleaned = page.words
    .map((word) => ({ ...word, text: word.text.trim() }))
    .filter((word) => word.text.length > 0 && word.x1 >= word.x0 && word.y1 >= word.y0);
  const wordHeight = median(cleaned.map((word) => word.y1 - word.y0)) || 1;
  const words = joinTouching(cleaned, wordHeight);
  const open: { units: Unit[]; tail: Unit }[] = [];
  for (const unit of unitsOf(words)) {
    let best: (typeof open)[number] | null = null;
    let bestDistance = Infinity;
    for (const line of open) {
      const distance = Math.abs(line.tail.yc - unit.yc);
      if (distance > SAME_LINE_IN_HEIGHTS * wordHeight) continue;
      if (line.tail.x1 > unit.x0 + wordHeight && line.tail.yc !== unit.yc) continue;
      if (distance < bestDistance) {
        best = line;
        bestDistance = distance;
      }
    }
    if (best) {
      best.units.push(unit);
      best.tail = unit;
    } else {
      open.push({ units: [unit], tail: unit });
    }
  }
  const wordsByLine = open.map(({ units }) =>
    units.flatMap((unit) => unit.words).sort((a, b) => a.x0 - b.x0),
  );
  const gap = cellGapOf(wordsByLine, wordHeight);
  const lines = wordsByLine.map((lineWords) => {
    const cells = cellsOf(lineWords, gap);
    const y0 = Math.min(...lineWords.map((word) => word.y0));
    const y1 = Math.max(...lineWords.map((word) => word.y1));
    const yc = lineWords.reduce((sum, word) => sum + center(word), 0) / lineWords.length;
    return { words: lineWords, cells, text: cells.map((cell) => cell.text).join('  '), y0, y1, yc };
  });
  lines.sort((a, b) => a.yc - b.yc);
  const pitch =
    median(lines.slice(1).map((line, index) => line.yc - (lines[index]?.yc ?? 0))) || wordHeight * 1.5;
  return { page: page.page, width: page.width, height: page.height, wordHeight, pitch, lines };
}
