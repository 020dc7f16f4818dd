import type { OcrPageLayout, OcrWord } from '../../../src/domain/ocr-layout';

// Pages for the lab extraction tests, written as monospace text and laid out the way OCR reports them: a
// word box per word, CHAR wide per character, LINE apart per line. Two spaces or more are a gutter between
// columns; one space is within a cell. A word ending in '~' was read with a confidence of 50.

const CHAR = 6;
const HEIGHT = 10;
const LINE = 16;

export type PageOptions = {
  page?: number;
  /** Radians: each line drifts down by tan(skew) per unit across the page (a photo taken at an angle). */
  skew?: number;
  /** Multiplies every coordinate: pages in points and in pixels. */
  scale?: number;
  source?: OcrPageLayout['source'];
  /** Give each word tesseract's line number. */
  lineNumbers?: boolean;
  /** One box per run of words with single spaces, as a PDF's text layer may hold them. */
  runs?: boolean;
  /** Shift each word's height by up to this many units, alternately, as OCR boxes wobble. */
  jitter?: number;
};

export function layoutPage(lines: string[], options: PageOptions = {}): OcrPageLayout {
  const scale = options.scale ?? 1;
  const slope = Math.tan(options.skew ?? 0);
  const words: OcrWord[] = [];
  lines.forEach((text, lineIndex) => {
    const pattern = options.runs ? /\S+(?: \S+)*/g : /\S+/g;
    for (const match of text.matchAll(pattern)) {
      const low = match[0].endsWith('~');
      const wordText = low ? match[0].slice(0, -1) : match[0];
      const x0 = (20 + match.index * CHAR) * scale;
      const wobble = options.jitter ? (words.length % 2 === 0 ? 1 : -1) * options.jitter : 0;
      const y0 = (20 + lineIndex * LINE + wobble) * scale + x0 * slope;
      words.push({
        text: wordText,
        x0,
        x1: x0 + wordText.length * CHAR * scale,
        y0,
        y1: y0 + HEIGHT * scale,
        confidence: low ? 50 : options.source === 'ocr' ? 95 : null,
        ...(options.lineNumbers ? { line: lineIndex } : {}),
      });
    }
  });
  const longest = Math.max(...lines.map((line) => line.length), 10);
  return {
    page: options.page ?? 1,
    width: (40 + longest * CHAR) * scale,
    height: (40 + lines.length * LINE) * scale,
    source: options.source ?? 'text-layer',
    words,
  };
}
