// What the server's OCR service (src/server/ocr) read on each page, word by word with its box, so that a
// table can be rebuilt from where its words stand (lab reports), not only from the order of the text.
// Boxes have a top-left origin with y growing down, in the page's own units: PDF points (1/72 inch) for a
// PDF's text layer, pixels for an image or a rendered page. Only ratios between boxes on one page carry
// meaning, so code reading a layout measures in line heights, never in fixed units.

export type OcrWord = {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Tesseract's confidence for the word (0-100); null for a PDF's own text, which is exact. */
  confidence: number | null;
  /** The line tesseract put the word on (numbered from 0 on each page), when OCR read it. */
  line?: number;
};

export type OcrPageLayout = {
  /** From 1. */
  page: number;
  width: number;
  height: number;
  /** 'text-layer': the PDF's own text; 'ocr': read from pixels (a photo, a scan, a rendered page). */
  source: 'text-layer' | 'ocr';
  words: OcrWord[];
};
