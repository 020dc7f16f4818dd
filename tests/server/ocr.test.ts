import { randomBytes } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOcrService,
  OcrError,
  PAGE_SEPARATOR,
  type OcrService,
} from '../../src/server/ocr/ocr-service';
import { drawLabel, LABEL_LINES, type ScannedImage } from '../fixtures/labels';
import { stream, writePdf } from '../fixtures/pdfs';

// Real OCR, no mocks: the fixtures are drawn at test time (a prescription label, black on white, in a plain
// sans font) and wrapped by hand into a text PDF and an image-only ("scanned") PDF.

/** Words the service must read back; punctuation is left out, where OCR noise is expected. */
const KEY_WORDS = ['CVS PHARMACY', '4471920', 'METFORMIN', '500', 'TWICE DAILY', 'REFILLS', 'JANE SMITH'];

/** A PDF page: lines of real PDF text, or a scanned image (optionally with a line of text, as scanner apps stamp). */
type PdfPageFixture = { text: string[] } | { scan: ScannedImage; stamp?: string };

/** A US letter page at 300 dpi, full of label text: a few seconds of OCR. */
function drawFullPage(): ScannedImage {
  const width = 2550;
  const height = 3300;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '50px "Label Sans"';
  for (let line = 0; line < 40; line++) {
    context.fillText(LABEL_LINES[line % LABEL_LINES.length]!, 150, 200 + line * 75);
  }
  return { bytes: canvas.toBuffer('image/jpeg', 90), width, height };
}

const escapePdfText = (text: string) => text.replace(/[\\()]/g, (character) => `\\${character}`);

/**
 * A PDF of the given pages. Text is Helvetica (a standard font: no font file needed); a scan is its JPEG
 * embedded as is (DCTDecode) at 300 dpi, which is what a scanner produces.
 */
function buildPdf(pages: PdfPageFixture[]): Buffer {
  // Objects: 1 catalog, 2 page tree, 3 font, then per page: the page, its content, and its image if any.
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // the page tree, written once the page numbers are known
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const pageIds: number[] = [];
  for (const page of pages) {
    const pageId = objects.length + 1;
    pageIds.push(pageId);
    if ('text' in page) {
      const content = [
        'BT /F1 12 Tf 14 TL 72 720 Td',
        ...page.text.map((line) => `(${escapePdfText(line)}) Tj T*`),
        'ET',
      ].join('\n');
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
        stream('', Buffer.from(content, 'latin1')),
      );
    } else {
      const { bytes, width, height } = page.scan;
      const pageWidth = (width * 72) / 300;
      const pageHeight = (height * 72) / 300;
      const stamp = page.stamp ? `BT /F1 6 Tf 2 2 Td (${escapePdfText(page.stamp)}) Tj ET` : '';
      const content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Im1 Do Q ${stamp}`;
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Contents ${pageId + 1} 0 R /Resources << /XObject << /Im1 ${pageId + 2} 0 R >> /Font << /F1 3 0 R >> >> >>`,
        stream('', Buffer.from(content, 'latin1')),
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`,
          bytes,
        ),
      );
    }
  }
  objects[1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  return writePdf(objects);
}

const textPdf = () => buildPdf([{ text: LABEL_LINES }]);
const scannedPdf = (pageCount: number, scan: ScannedImage = drawLabel('jpeg')) =>
  buildPdf(Array.from({ length: pageCount }, () => ({ scan })));

/** OCR reads "Rx#" as "Rx#", "Rx #" or "Rxit": compare letters and digits only, words kept apart. */
function normalised(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

function expectKeyWords(text: string): void {
  const read = normalised(text);
  for (const word of KEY_WORDS) expect(read).toContain(normalised(word));
}

async function reasonOf(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    expect(error).toBeInstanceOf(OcrError);
    const ocrError = error as OcrError;
    // A sentence for a person, not a code or a stack trace.
    expect(ocrError.message).toMatch(/^[A-Z][^\n]*\.$/);
    return ocrError.reason;
  }
  throw new Error('expected an OcrError, but the file was read');
}

/**
 * Runs `work` while timing the main event loop: OCR and PDF rendering happen in sandbox processes, so the
 * longest gap between ticks stays small however long the work takes.
 */
async function withLoopWatch<T>(
  work: () => Promise<T>,
): Promise<{ result: T; longestGapMs: number; ms: number }> {
  let longestGapMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, longestGapMs, ms: performance.now() - started };
  } finally {
    clearInterval(ticker);
  }
}

const png = drawLabel('png').bytes;
const jpeg = drawLabel('jpeg').bytes;
let service: OcrService;
let peakRss = 0;
const rssSampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);

beforeAll(() => {
  service = createOcrService({ workers: 1 });
});

afterAll(async () => {
  clearInterval(rssSampler);
  await service.close();
  console.info(`ocr.test peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
});

describe('OCR service: reading', () => {
  it('reads a PNG label', async () => {
    const { result, longestGapMs, ms } = await withLoopWatch(() => service.recognize(png, 'image/png'));
    console.info(
      `PNG label, first job (starts the worker): ${ms.toFixed(0)} ms, loop gap ${longestGapMs.toFixed(0)} ms`,
    );
    expectKeyWords(result.text);
    expect(result).toMatchObject({ pages: 1, source: 'ocr' });
    expect(result.confidence).toBeGreaterThan(70);
    expect(result.confidence).toBeLessThanOrEqual(100);
    // The words with their boxes: the drawn label is 1200 px wide, its lines 80 px apart from y = 90.
    const [page] = result.layout;
    expect(page).toMatchObject({ page: 1, source: 'ocr', width: 1200, height: 600 });
    const words = page?.words ?? [];
    const quantity = words.find((word) => word.text.startsWith('QTY'));
    const refills = words.find((word) => word.text.startsWith('REFILLS'));
    expect(quantity && refills).toBeTruthy();
    // One line, read left to right; baseline near 90 + 4 * 80 = 410.
    expect(refills?.line).toBe(quantity?.line);
    expect(refills!.x0).toBeGreaterThan(quantity!.x1);
    expect(quantity!.y1).toBeGreaterThan(370);
    expect(quantity!.y0).toBeLessThan(410);
    expect(quantity!.confidence).toBeGreaterThan(50);
    expect(new Set(words.map((word) => word.line)).size).toBe(LABEL_LINES.length);
  });

  it('reads a JPEG label', async () => {
    const { result, ms } = await withLoopWatch(() => service.recognize(jpeg, 'image/jpeg'));
    console.info(`JPEG label, warm worker: ${ms.toFixed(0)} ms`);
    expectKeyWords(result.text);
    expect(result).toMatchObject({ pages: 1, source: 'ocr' });
  });

  it("uses a PDF's own text when it has some, without OCR", async () => {
    const { result, ms } = await withLoopWatch(() => service.recognize(textPdf(), 'application/pdf'));
    console.info(`text PDF: ${ms.toFixed(0)} ms`);
    expect(result).toEqual({
      text: expect.any(String),
      pages: 1,
      source: 'text-layer',
      confidence: null,
      layout: [expect.objectContaining({ page: 1, source: 'text-layer', width: 612, height: 792 })],
    });
    // Exact, unlike OCR; only runs of spaces are one space in a PDF's text.
    for (const line of LABEL_LINES) expect(result.text).toContain(line.replace(/ +/g, ' '));
    // Each word boxed in points from the top: the lines are 14 pt apart from 72 pt below the top (792 - 720).
    const words = result.layout[0]?.words ?? [];
    expect(words.map((word) => word.text)).toEqual(LABEL_LINES.flatMap((line) => line.split(/ +/)));
    const [pharmacy, name] = words;
    expect(pharmacy).toMatchObject({ text: 'CVS', x0: 72, y1: 72, confidence: null });
    expect(pharmacy!.y0).toBeCloseTo(60, 0); // 12 pt text
    expect(name!.x0).toBeGreaterThan(pharmacy!.x1);
    const doctor = words.find((word) => word.text === 'SMITH');
    expect(doctor?.y1).toBeCloseTo(72 + 5 * 14, 1);
  });

  it('renders and reads each page of a scanned PDF, pages kept apart', async () => {
    const { result, ms } = await withLoopWatch(() => service.recognize(scannedPdf(2), 'application/pdf'));
    console.info(`scanned PDF, 2 label pages: ${ms.toFixed(0)} ms`);
    expect(result).toMatchObject({ pages: 2, source: 'ocr' });
    const [first, second, ...rest] = result.text.split(PAGE_SEPARATOR);
    expect(rest).toEqual([]);
    expectKeyWords(first ?? '');
    expectKeyWords(second ?? '');
    expect(result.confidence).toBeGreaterThan(70);
  });

  it("reads a scan with a scanner app's stamp on it, and a PDF of text and scanned pages", async () => {
    const scan = drawLabel('jpeg');
    const stamped = await service.recognize(
      buildPdf([{ scan, stamp: 'Scanned with CamScanner' }]),
      'application/pdf',
    );
    expect(stamped.source).toBe('ocr');
    expectKeyWords(stamped.text);

    const mixed = await service.recognize(
      buildPdf([{ text: ['LAB REPORT PAGE ONE', ...LABEL_LINES] }, { scan }]),
      'application/pdf',
    );
    expect(mixed).toMatchObject({ pages: 2, source: 'ocr' });
    const [textPage, scannedPage] = mixed.text.split(PAGE_SEPARATOR);
    expect(textPage).toContain('LAB REPORT PAGE ONE');
    expectKeyWords(scannedPage ?? '');
  });

  it('reads a full 300 dpi scanned letter page in its sandbox process, the event loop free', async () => {
    const letter = scannedPdf(1, drawFullPage());
    const { result, longestGapMs, ms } = await withLoopWatch(() =>
      service.recognize(letter, 'application/pdf'),
    );
    console.info(
      `scanned PDF, 1 full letter page: ${ms.toFixed(0)} ms, loop gap ${longestGapMs.toFixed(0)} ms`,
    );
    expect(result).toMatchObject({ pages: 1, source: 'ocr' });
    expectKeyWords(result.text);
    // Rendering and OCR on the main thread would stop it for the whole ~3 s; the margin is for a busy machine.
    expect(longestGapMs).toBeLessThan(1_000);
  });
});

describe('OCR service: refusals', () => {
  it('refuses a file over the size limit before reading it', async () => {
    const small = createOcrService({ maxBytes: png.length - 1 });
    expect(await reasonOf(small.recognize(png, 'image/png'))).toBe('too-large');
    await small.close();
  });

  it('refuses an image whose header claims too many pixels', async () => {
    // A valid PNG header for 10,000 x 10,000 pixels followed by nothing: never decoded.
    const header = Buffer.from(png.subarray(0, 33));
    header.writeUInt32BE(10_000, 16);
    header.writeUInt32BE(10_000, 20);
    expect(await reasonOf(service.recognize(header, 'image/png'))).toBe('too-large');
  });

  it('refuses bytes that are not the claimed type, or no known type at all', async () => {
    expect(await reasonOf(service.recognize(png, 'application/pdf'))).toBe('unreadable');
    expect(await reasonOf(service.recognize(png, 'image/jpeg'))).toBe('unreadable');
    expect(await reasonOf(service.recognize(textPdf(), 'image/png'))).toBe('unreadable');
    expect(await reasonOf(service.recognize(randomBytes(4096), 'image/jpeg'))).toBe('unreadable');
  });

  it('refuses a PDF that is only a header, and a truncated image', async () => {
    const brokenPdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048)]);
    expect(await reasonOf(service.recognize(brokenPdf, 'application/pdf'))).toBe('unreadable');
    expect(await reasonOf(service.recognize(png.subarray(0, 200), 'image/png'))).toBe('unreadable');
  });

  it('reads PDF after PDF on its warm process, and a broken one in between does not spoil the next', async () => {
    const text = (result: { text: string }) => normalised(result.text);
    const first = await service.recognize(textPdf(), 'application/pdf');
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);
    expect(await reasonOf(service.recognize(broken, 'application/pdf'))).toBe('unreadable');
    expect(await reasonOf(service.recognize(scannedPdf(6), 'application/pdf'))).toBe('too-many-pages');
    const again = await service.recognize(textPdf(), 'application/pdf');
    expect(text(again)).toBe(text(first));
    expect(again.layout).toEqual(first.layout);
    const scanned = await service.recognize(scannedPdf(1), 'application/pdf');
    expectKeyWords(scanned.text);
    // Several at once (one per worker slot) each get their own document's answer.
    const [a, b] = await Promise.all([
      service.recognize(textPdf(), 'application/pdf'),
      service.recognize(
        buildPdf([{ text: ['ANOTHER DOCUMENT ENTIRELY, WITH ENOUGH LETTERS TO COUNT'] }]),
        'application/pdf',
      ),
    ]);
    expect(text(a)).toBe(text(first));
    expect(b.text).toContain('ANOTHER DOCUMENT ENTIRELY');
  }, 60_000);

  it('refuses a PDF with more pages than allowed instead of reading part of it', async () => {
    expect(await reasonOf(service.recognize(scannedPdf(6), 'application/pdf'))).toBe('too-many-pages');
    // The limit is the option's: the same file is within a limit of 6 (and then runs out of time).
    const six = createOcrService({ maxPages: 6, timeoutMs: 1 });
    expect(await reasonOf(six.recognize(scannedPdf(6), 'application/pdf'))).toBe('timeout');
    await six.close();
  }, 120_000);

  it('refuses with busy when the queue is full', async () => {
    const narrow = createOcrService({ workers: 1, maxQueue: 1, timeoutMs: 1 });
    // Three in the same tick: one runs, one waits, the third is refused at once.
    const reasons = await Promise.all([1, 2, 3].map(() => reasonOf(narrow.recognize(png, 'image/png'))));
    expect(reasons).toEqual(['timeout', 'timeout', 'busy']);
    await narrow.close();
  }, 120_000);

  it('refuses new files once closed', async () => {
    const closing = createOcrService();
    await closing.close();
    expect(await reasonOf(closing.recognize(png, 'image/png'))).toBe('busy');
  });
});

describe('OCR service: time limit', () => {
  it('abandons a job over its time limit, and the next job is still taken', async () => {
    const hasty = createOcrService({ timeoutMs: 1 });
    expect(await reasonOf(hasty.recognize(png, 'image/png'))).toBe('timeout');
    expect(await reasonOf(hasty.recognize(scannedPdf(1), 'application/pdf'))).toBe('timeout');
    await hasty.close();
  }, 120_000);

  it('stops the process of a document over its time limit, and a fresh process reads the next file', async () => {
    // Twelve full scanned pages take over 35 s; a label 0.5-1.5 s on a warm process (a process's start and
    // warm-up are not counted: the limit starts when the job is handed over). The limit leaves the label
    // room on a loaded machine, and is all the CPU the abandoned document burns (it was 20 s: half of this
    // file's time).
    const limited = createOcrService({ timeoutMs: 10_000, maxPages: 12 });
    await limited.recognize(png, 'image/png'); // a warm process, so the limit counts reading only
    const [first] = limited.processIds();
    const twelveLetters = scannedPdf(12, drawFullPage());
    expect(await reasonOf(limited.recognize(twelveLetters, 'application/pdf'))).toBe('timeout');
    // Nothing of the abandoned document is still being read: its process was killed, not left to finish.
    expect(limited.processIds()).not.toContain(first);
    const next = await limited.recognize(png, 'image/png');
    expectKeyWords(next.text);
    expect(limited.processIds()).not.toContain(first);
    await limited.close();
    expect(limited.processIds()).toEqual([]);
  }, 120_000);
});
