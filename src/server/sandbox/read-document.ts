import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { imageSize } from 'image-size';
import Tesseract from 'tesseract.js';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type * as CanvasModule from '@napi-rs/canvas';
import type { OcrPageLayout, OcrWord } from '../../domain/ocr-layout';
import { checkInflatedSizes } from './pdf-streams';
import { greyOf, pgmOf } from './grey-image';
import { isWholeImage } from './image-files';
import { preparePhoto } from './photo-page';
import { eraseRules } from './rules';
import type { PdfCaps, ReadDocumentAnswer, ReadDocumentInput } from './protocol';
import { TaskRefusal } from './task-refusal';

// Reading a document's text, inside a sandbox process (see README.md beside this file): a PDF's own text
// layer through pdf.js, and pixels (a photo, a scanned page rendered at 300 dpi) through tesseract.js.
// Fully offline: tesseract's model and pdf.js's fonts, CMaps and WebAssembly decoders are read from
// node_modules. pdf.js and a tesseract worker are loaded on the first document and kept for the next,
// since the process is kept warm between jobs.

// Paths inside installed packages, resolved once. Nothing is ever fetched: tesseract.js would download its
// model from a CDN (and write it into the working directory) if langPath were missing or wrong.
const requireFromHere = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(requireFromHere.resolve(`${name}/package.json`));
const TESSERACT_LANG_DIR = join(packageDir('@tesseract.js-data/eng'), '4.0.0_best_int');
const TESSERACT_MODEL_FILE = join(TESSERACT_LANG_DIR, 'eng.traineddata.gz');
const PDFJS_DIR = packageDir('pdfjs-dist');
const PDFJS_MODULE = join(PDFJS_DIR, 'legacy/build/pdf.mjs');

// ---------------------------------------------------------------------------------------------------------
// Tesseract

let tesseract: Promise<Tesseract.Worker> | null = null;

function tesseractWorker(): Promise<Tesseract.Worker> {
  tesseract ??= (async () => {
    if (!existsSync(TESSERACT_MODEL_FILE)) {
      throw new Error(
        `OCR language data is missing at ${TESSERACT_MODEL_FILE}. Install @tesseract.js-data/eng; ` +
          'the OCR service never downloads it.',
      );
    }
    const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: TESSERACT_LANG_DIR,
      gzip: true,
      cacheMethod: 'none', // read the model from the package, never write a copy into the working directory
      // Without a handler tesseract.js rethrows a failed job inside its message listener (an uncaught
      // exception); the failure reaches us through the job's own promise instead.
      errorHandler: () => {},
    }).catch((failure: unknown) => {
      throw new Error(`The OCR worker failed to start: ${String(failure)}`);
    });
    await worker.setParameters({
      // One block of text (PSM 6) read best on labels and tables.
      tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK,
      // Tesseract's diagnostics ("Estimating resolution as 397") would go to stdout, once a page.
      debug_file: '/dev/null',
    });
    return worker;
  })();
  return tesseract;
}

/** Tesseract's words, in reading order, each with the number of the line it stands on. */
function wordsOf(page: Tesseract.Page): OcrWord[] {
  const words: OcrWord[] = [];
  let line = 0;
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const read of paragraph.lines) {
        for (const word of read.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({ text, x0, y0, x1, y1, confidence: word.confidence, line });
        }
        line += 1;
      }
    }
  }
  return words;
}

/** `dpi` when it is known (a rendered PDF page); for a photo or scan tesseract estimates it. */
async function ocrPage(
  image: Uint8Array,
  dpi?: number,
): Promise<{ text: string; confidence: number; words: OcrWord[] }> {
  const worker = await tesseractWorker();
  // Tesseract parameters ride along with the page; the typings only know tesseract.js's own options.
  const pageOptions: Partial<Tesseract.RecognizeOptions> & { user_defined_dpi?: string } = {
    rotateAuto: true, // photos of labels are rarely straight
    ...(dpi ? { user_defined_dpi: String(dpi) } : {}),
  };
  const result = await worker
    .recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), pageOptions, {
      text: true,
      blocks: true, // each word's box, to rebuild tables by position
    })
    .catch((error: unknown) => {
      // Leptonica could not decode it (a truncated or corrupt image that passed the header checks), or
      // tesseract's WebAssembly memory could not grow under the ceiling.
      const said = String(error);
      throw new TaskRefusal(/memory|OOM|abort/i.test(said) ? 'memory' : 'unreadable', said);
    });
  return { text: result.data.text, confidence: result.data.confidence, words: wordsOf(result.data) };
}

// ---------------------------------------------------------------------------------------------------------
// PDF

type PdfJs = typeof PdfJsModule;
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
let pdfjs: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    // Loading the worker module first makes pdf.js parse in this process instead of fetching a worker script.
    await import(pathToFileURL(join(PDFJS_DIR, 'legacy/build/pdf.worker.mjs')).href);
    return (await import(pathToFileURL(PDFJS_MODULE).href)) as PdfJs;
  })();
  return pdfjs;
}

/** The canvas library pdf.js itself loads: drawing one copy's canvas with another's crashes the process. */
function createPageCanvas(width: number, height: number) {
  const canvasLibrary = createRequire(PDFJS_MODULE)('@napi-rs/canvas') as typeof CanvasModule;
  return canvasLibrary.createCanvas(width, height);
}

/** A run of text from a page's text layer, boxed in the page's points with a top-left origin. */
type PdfTextRun = { str: string; x: number; baseline: number; width: number; height: number };

/**
 * A text layer's runs split into words. A run is boxed as a whole; its words' boxes are estimated from
 * their share of its characters (exact enough to tell columns apart, which is all a layout is used for).
 */
function wordsOfRuns(runs: PdfTextRun[]): OcrWord[] {
  const words: OcrWord[] = [];
  for (const run of runs) {
    const characterWidth = run.str.length > 0 ? run.width / run.str.length : 0;
    const y0 = run.baseline - run.height;
    for (const match of run.str.matchAll(/\S+/g)) {
      const start = run.x + match.index * characterWidth;
      words.push({
        text: match[0],
        x0: start,
        y0,
        x1: start + match[0].length * characterWidth,
        y1: run.baseline,
        confidence: null,
      });
    }
  }
  return words;
}

function pageLayout(
  page: number,
  source: OcrPageLayout['source'],
  words: OcrWord[],
  width: number | undefined,
  height: number | undefined,
): OcrPageLayout {
  return {
    page,
    source,
    width: width ?? Math.max(0, ...words.map((word) => word.x1)),
    height: height ?? Math.max(0, ...words.map((word) => word.y1)),
    words,
  };
}

async function readPdf(bytes: Uint8Array, caps: PdfCaps): Promise<ReadDocumentAnswer> {
  const inflation = checkInflatedSizes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), caps);
  if (!inflation.ok) throw new TaskRefusal('too-complex', inflation.why);
  const pdf = await loadPdfJs();
  const loading = pdf.getDocument({
    data: bytes,
    isEvalSupported: false, // CVE-2024-4367: fonts must not compile code from the file
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    maxImageSize: caps.maxImagePixels,
    isOffscreenCanvasSupported: false,
    standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
    cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
    cMapPacked: true,
    wasmUrl: `${join(PDFJS_DIR, 'wasm')}/`,
    verbosity: 0,
  });
  let document: PdfDocument;
  try {
    document = await loading.promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException')
      throw new TaskRefusal('password', error.message);
    throw new TaskRefusal('unreadable', String(error));
  }
  try {
    return await readPages(pdf, document, caps);
  } finally {
    // Whatever was refused on the way, pdf.js lets go of the document: the process reads the next one.
    await document.destroy();
  }
}

async function readPages(pdf: PdfJs, document: PdfDocument, caps: PdfCaps): Promise<ReadDocumentAnswer> {
  if (document.numPages > caps.maxPages)
    throw new TaskRefusal('too-many-pages', `${document.numPages} pages`, document.numPages);
  const texts: string[] = [];
  const confidences: number[] = [];
  const layout: OcrPageLayout[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    if (content.items.length > caps.maxOperatorsPerPage)
      throw new TaskRefusal('too-complex', `page ${number} has ${content.items.length} text runs`);
    let text = '';
    for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
    const characters = (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
    const base = page.getViewport({ scale: 1 });
    if (characters >= caps.minTextCharacters) {
      // Each run's box in the page as shown (rotation applied, origin top left), for rebuilding tables.
      const runs: PdfTextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = pdf.Util.transform(base.transform, item.transform);
        const height = Math.hypot(c, d) || item.height || 1;
        const scale = Math.hypot(a, b) / (Math.hypot(item.transform[0], item.transform[1]) || 1);
        runs.push({ str: item.str, x: e, baseline: f, width: item.width * scale, height });
      }
      texts.push(text.trim());
      layout.push(pageLayout(number, 'text-layer', wordsOfRuns(runs), base.width, base.height));
    } else {
      // A scan: count what drawing it takes before drawing it (the list is kept for the render).
      const operators = await page.getOperatorList();
      if (operators.fnArray.length > caps.maxOperatorsPerPage)
        throw new TaskRefusal(
          'too-complex',
          `page ${number} has ${operators.fnArray.length} drawing operators`,
        );
      let scale = caps.dpi / 72;
      const pixelsAt = (s: number) => base.width * s * base.height * s;
      if (pixelsAt(scale) > caps.maxPagePixels)
        scale = Math.sqrt(caps.maxPagePixels / (base.width * base.height));
      const longest = Math.max(base.width, base.height) * scale;
      if (longest > caps.maxPageSide) scale = scale * (caps.maxPageSide / longest);
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.floor(viewport.width));
      const height = Math.max(1, Math.floor(viewport.height));
      const canvas = createPageCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff'; // a transparent background would read as black
      context.fillRect(0, 0, width, height);
      await page.render({
        canvas: canvas as unknown as HTMLCanvasElement,
        canvasContext: context as unknown as CanvasRenderingContext2D,
        viewport,
        background: '#ffffff',
      }).promise;
      // Handed over grey and uncompressed: encoding the page as a PNG (and tesseract decoding it) was a
      // fifth of a scanned page's time.
      const grey = greyOf(context.getImageData(0, 0, width, height).data, width, height);
      // A table's border beside a line of text made tesseract drop the line (rules.ts).
      eraseRules(grey);
      const dpi = Math.round(scale * 72);
      const read = await ocrPage(pgmOf(grey), dpi);
      texts.push(read.text.trim());
      confidences.push(read.confidence);
      layout.push(pageLayout(number, 'ocr', read.words, width, height));
    }
    page.cleanup();
  }
  if (document.numPages === 0) throw new TaskRefusal('unreadable', 'the PDF has no pages');
  return {
    text: texts.join('\f'),
    pages: document.numPages,
    source: confidences.length > 0 ? 'ocr' : 'text-layer',
    confidence:
      confidences.length > 0 ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length : null,
    layout,
  };
}

/** Loads pdf.js and starts tesseract, so that a document's time limit counts only its reading. */
export async function warmUp(): Promise<void> {
  await Promise.all([loadPdfJs(), tesseractWorker()]);
}

// ---------------------------------------------------------------------------------------------------------
// Photos

/**
 * A photo of a page, straightened with its light evened out (photo-page.ts), as a binary PGM (one byte a
 * pixel after a short header: nothing to compress, and tesseract's image library reads it). Null when
 * the photo shows no page on a surface.
 */
async function straightenedPhoto(
  bytes: Uint8Array,
): Promise<{ pgm: Uint8Array; width: number; height: number } | null> {
  const canvasLibrary = createRequire(PDFJS_MODULE)('@napi-rs/canvas') as typeof CanvasModule;
  let decoded: Awaited<ReturnType<typeof canvasLibrary.loadImage>>;
  try {
    decoded = await canvasLibrary.loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new TaskRefusal('unreadable', String(error));
  }
  const canvas = canvasLibrary.createCanvas(decoded.width, decoded.height);
  const context = canvas.getContext('2d');
  context.drawImage(decoded, 0, 0);
  const page = preparePhoto(
    greyOf(context.getImageData(0, 0, decoded.width, decoded.height).data, decoded.width, decoded.height),
  );
  if (!page) return null;
  // The straightened page's ruled lines, as a scanned page's (rules.ts).
  eraseRules(page);
  return { pgm: pgmOf(page), width: page.width, height: page.height };
}

/** The document's text and words: a PDF page by page, an image through tesseract. */
export async function readDocument(input: ReadDocumentInput): Promise<ReadDocumentAnswer> {
  if (input.contentType === 'application/pdf') return readPdf(input.bytes, input.pdf);
  if (!isWholeImage(input.bytes, input.contentType))
    throw new TaskRefusal('unreadable', 'the image file is cut off before its end');
  const straightened = await straightenedPhoto(input.bytes);
  const page = await ocrPage(straightened?.pgm ?? input.bytes);
  const size = straightened ?? imageSize(input.bytes);
  return {
    text: page.text.trim(),
    pages: 1,
    source: 'ocr',
    confidence: page.confidence,
    layout: [pageLayout(1, 'ocr', page.words, size.width, size.height)],
  };
}
