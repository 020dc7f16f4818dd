import type { VisitSummary } from '../domain/visit-summary';

// The visit summary (domain/visit-summary.ts) as a PDF made on the device, to print or share: black text
// on white (a clinic's printer is often black and white, so a flag is a word, not a colour), at most two
// US Letter pages; what does not fit says how much was left out. pdf-lib loads only when one is made.

const PAGE = { width: 612, height: 792, margin: 50 } as const;
export const MAX_PAGES = 2;
const SIZE = { title: 18, name: 13, heading: 12, text: 10 } as const;
const LEADING = 1.35;

/** The standard fonts write Latin-1 only: anything else is spelt out (>=, u) or marked. */
export function printable(text: string): string {
  return text
    .replace(/[≥]/g, '>=')
    .replace(/[≤]/g, '<=')
    .replace(/[µμ]/g, 'u')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/…/g, '...')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}

type Font = { widthOfTextAtSize: (text: string, size: number) => number };

/** `text` broken into lines no wider than `width` (a word longer than the line is cut). */
export function wrap(text: string, font: Font, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) {
      current = next;
      continue;
    }
    if (current) lines.push(current);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current) lines.push(current);
  return lines;
}

/** pdf-lib, fetched once: a screen that will make a PDF asks for it as it opens, while there is a signal. */
export const loadPdfLib = () => import('pdf-lib');

export async function visitSummaryPdf(summary: VisitSummary): Promise<Blob> {
  const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
  const document = await PDFDocument.create();
  document.setTitle(`Visit summary: ${printable(summary.name)}`);
  document.setCreator('Kincare');
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const black = rgb(0, 0, 0);
  const width = PAGE.width - 2 * PAGE.margin;
  let page = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  let full = false;
  let left = 0;

  /** Room for `height` more points: on this page, or on a new one while there may be one. */
  const room = (height: number) => {
    if (y - height >= PAGE.margin) return true;
    if (document.getPageCount() >= MAX_PAGES) return false;
    page = document.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
    return true;
  };
  const write = (text: string, size: number, font = regular, indent = 0) => {
    for (const line of wrap(printable(text), font, size, width - indent)) {
      if (full || !room(size * LEADING)) {
        full = true;
        left += 1;
        continue;
      }
      y -= size;
      page.drawText(line, { x: PAGE.margin + indent, y, size, font, color: black });
      y -= size * (LEADING - 1);
    }
  };

  write('Visit summary', SIZE.title, bold);
  write(summary.name, SIZE.name, bold);
  for (const detail of summary.details) write(detail, SIZE.text);
  write(summary.made, SIZE.text);
  for (const section of summary.sections) {
    y -= 8;
    write(section.title, SIZE.heading, bold);
    if (section.lines.length === 0) write(section.empty, SIZE.text);
    for (const line of section.lines) write(`- ${line.text}`, SIZE.text, line.flagged ? bold : regular, 8);
  }
  if (left > 0) {
    // The last line of the last page says what did not fit.
    const notice = `${left} more line${left === 1 ? '' : 's'} did not fit on ${MAX_PAGES} pages: see Kincare.`;
    page.drawRectangle({ x: PAGE.margin, y: PAGE.margin - 24, width, height: 16, color: rgb(1, 1, 1) });
    page.drawText(notice, { x: PAGE.margin, y: PAGE.margin - 20, size: SIZE.text, font: bold, color: black });
  }
  const bytes = await document.save();
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });
}
