import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker as ThreadWorker } from 'node:worker_threads';
import { imageSize } from 'image-size';
import Tesseract from 'tesseract.js';
import type { OcrPageLayout, OcrWord } from '../../domain/ocr-layout';
import { detectFileType, imageSizeProblem } from '../services/file-type';

// The server's one OCR service: prescription labels today, lab reports later. It reads the text of an
// image or PDF fully offline. Everything heavy runs off the main thread, so a slow or hostile file cannot
// stall the API: tesseract.js runs its WebAssembly engine in a worker thread, and PDFs are parsed and
// rendered by pdf.js in a short-lived worker thread of their own. A document that takes longer than
// `timeoutMs` is abandoned: the threads working on it are terminated (and replaced on the next job).
// See README.md beside this file for the caps and the settings.

export type OcrContentType = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

export type OcrOptions = {
  /** Tesseract workers, each a thread holding ~230 MB once it has read its first page. */
  workers: number;
  maxBytes: number;
  /** A PDF with more pages is refused as a whole rather than silently read in part. */
  maxPages: number;
  /** Per document, counted from when it starts being read (not while it waits in the queue). */
  timeoutMs: number;
  /** Documents allowed to wait for a free worker; one more is refused as 'busy'. */
  maxQueue: number;
};

export type OcrResult = {
  /** The pages' text in order, separated by a form feed ('\f', as tesseract's own text output does). */
  text: string;
  pages: number;
  /** 'text-layer' when every page's text came from the PDF itself; 'ocr' when any page was read from pixels. */
  source: 'text-layer' | 'ocr';
  /** Tesseract's mean word confidence (0-100) over the pages it read; null when nothing was OCR'd. */
  confidence: number | null;
  /** Each page's words with their boxes, in page order (a table is rebuilt from where its words stand). */
  layout: OcrPageLayout[];
};

export type OcrService = {
  recognize(bytes: Buffer, contentType: OcrContentType): Promise<OcrResult>;
  /** Stops every worker; jobs still running or waiting fail with 'busy'. */
  close(): Promise<void>;
};

export type OcrErrorReason = 'too-large' | 'too-many-pages' | 'timeout' | 'unreadable' | 'busy';

/** A refusal the caller can show: `message` is plain English for a person, `reason` picks the HTTP status. */
export class OcrError extends Error {
  readonly reason: OcrErrorReason;
  /** `cause` carries the technical detail (for logs), never shown to the person. */
  constructor(reason: OcrErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcrError';
    this.reason = reason;
  }
}

export const DEFAULT_OCR_OPTIONS: OcrOptions = {
  workers: 1,
  maxBytes: 10 * 1024 * 1024,
  maxPages: 5,
  timeoutMs: 60_000,
  maxQueue: 20,
};

/**
 * Images are refused above this many pixels (read from the header; nothing is decoded first): a small
 * file can claim a huge canvas, and tesseract would decode all of it. 25 MP covers 12 and 24 MP photos.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;
/** PDF pages are rendered at 300 dpi, the resolution tesseract is trained for... */
export const RENDER_DPI = 300;
/** ...unless that exceeds this many pixels (US legal at 300 dpi is 10.7 MP); then the page is scaled down. */
export const MAX_RENDERED_PAGE_PIXELS = 12_000_000;
/** Nor may one side exceed this, whatever the area (a hostile 1 x 200 inch page). */
const MAX_RENDERED_PAGE_SIDE = 8_000;
/** Images embedded in a PDF are not decoded above this many pixels (pdf.js's maxImageSize). */
const MAX_PDF_IMAGE_PIXELS = 40_000_000;
/**
 * A PDF page's own text is used when it has at least this many letters and digits; below it the page is
 * taken to be a scan (a scanner's stamp such as "Scanned with CamScanner" has 20) and OCR'd.
 */
export const MIN_TEXT_LAYER_CHARACTERS = 40;
/** The JavaScript heap a PDF thread may use; a PDF that needs more is unreadable, not a crashed server. */
const PDF_THREAD_HEAP_MB = 512;
/** A warm PDF thread is renewed after this many documents, so nothing one file left behind lives long. */
const PDF_THREAD_MAX_DOCUMENTS = 50;

/** Between pages in `OcrResult.text`; a blank line cannot be used, as OCR'd text has blank lines of its own. */
export const PAGE_SEPARATOR = '\f';

const MESSAGES = {
  unreadable: 'The file could not be read as an image or PDF.',
  wrongType: (claimed: string) => `The file is not a ${claimed} as it claims to be, so it could not be read.`,
  passwordProtected: 'The PDF is protected by a password, so it could not be read.',
  tooLarge: (maxBytes: number) =>
    `The file is too large to read: the limit is ${(maxBytes / (1024 * 1024)).toFixed(0)} MB.`,
  tooManyPixels: `The image is too large to read: the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
  tooManyPages: (pages: number, maxPages: number) =>
    `The PDF has ${pages} pages; at most ${maxPages} can be read at once.`,
  timeout: 'Reading the file took too long, so it was stopped. Please try a clearer or smaller file.',
  busy: 'Too many files are being read right now. Please try again in a minute.',
  closed: 'The text reader is shutting down. Please try again in a minute.',
} as const;

const LABELS: Record<OcrContentType, string> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF',
};

// Paths inside installed packages, resolved once. Nothing is ever fetched: tesseract.js would download its
// model from a CDN (and write it into the working directory) if langPath were missing or wrong.
const requireFromHere = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(requireFromHere.resolve(`${name}/package.json`));
const TESSERACT_LANG_DIR = join(packageDir('@tesseract.js-data/eng'), '4.0.0_best_int');
const TESSERACT_MODEL_FILE = join(TESSERACT_LANG_DIR, 'eng.traineddata.gz');
const PDFJS_DIR = packageDir('pdfjs-dist');

function assertModelInstalled(): void {
  if (!existsSync(TESSERACT_MODEL_FILE)) {
    throw new Error(
      `OCR language data is missing at ${TESSERACT_MODEL_FILE}. Install @tesseract.js-data/eng; ` +
        'the OCR service never downloads it.',
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Tesseract workers

type TesseractWorker = Tesseract.Worker;
type TesseractHandle = {
  worker: TesseractWorker;
  /** False once the thread has stopped: such a worker must never be handed another page. */
  alive: () => boolean;
  /** Rejects when the thread dies (a crash in the engine), so a job waiting on it fails at once. */
  died: Promise<never>;
};

/** tesseract.js exposes the thread it spawned as `worker`, though its typings do not say so. */
function threadOf(worker: TesseractWorker): ThreadWorker {
  const thread: unknown = (worker as TesseractWorker & { worker?: unknown }).worker;
  if (!(thread instanceof ThreadWorker)) {
    // The browser build (a Web Worker) or a future version that runs in the calling thread: refuse to
    // run OCR on the API's event loop.
    throw new Error('tesseract.js did not start a worker thread; OCR will not run on the main thread.');
  }
  return thread;
}

async function startTesseract(): Promise<TesseractHandle> {
  const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: TESSERACT_LANG_DIR,
    gzip: true,
    cacheMethod: 'none', // read the model from the package, never write a copy into the working directory
    // Without a handler tesseract.js rethrows a failed job inside its message listener, which would be an
    // uncaught exception in the server; the failure reaches us through the job's own promise instead.
    errorHandler: () => {},
  }).catch((failure: unknown) => {
    // tesseract.js rejects with a bare string; give the server's error log a real Error.
    throw new Error(`The OCR worker failed to start: ${String(failure)}`);
  });
  const thread = threadOf(worker);
  let running = true;
  const died = new Promise<never>((_, reject) => {
    thread.once('error', (error) => {
      running = false;
      reject(error);
    });
    thread.once('exit', (code) => {
      running = false;
      reject(new Error(`the OCR thread stopped (exit code ${code})`));
    });
  });
  died.catch(() => {}); // observed by whichever job races against it; never an unhandled rejection
  await worker.setParameters({
    // One block of text (PSM 6) read best on labels and tables.
    tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK,
    // Tesseract's diagnostics ("Estimating resolution as 397") would go to the server's stdout, once a page.
    debug_file: '/dev/null',
  });
  return { worker, died, alive: () => running };
}

async function stopTesseract(handle: Promise<TesseractHandle> | TesseractHandle): Promise<void> {
  try {
    await (await handle).worker.terminate();
  } catch {
    // It failed to start or is already gone: nothing left to stop.
  }
}

// ---------------------------------------------------------------------------------------------------------
// PDF thread: pdf.js parses the file, returns each page's text layer and, for pages without real text,
// a 300 dpi PNG of the page for tesseract. Plain JavaScript run with `eval: true`, because the server runs
// from TypeScript sources and a worker thread cannot load a .ts file.

/** A run of text from a page's text layer, boxed in the page's points with a top-left origin. */
type PdfTextRun = { str: string; x: number; baseline: number; width: number; height: number };
type PdfPage =
  | { text: string; width: number; height: number; runs: PdfTextRun[] }
  | { png: Uint8Array; dpi: number; width: number; height: number };
type PdfThreadAnswer =
  | { kind: 'pages'; pages: PdfPage[] }
  | { kind: 'too-many-pages'; pages: number }
  | { kind: 'password' }
  | { kind: 'unreadable'; detail: string };

type PdfThreadInput = {
  bytes: Uint8Array<ArrayBuffer>;
  pdfjsUrl: string;
  pdfjsWorkerUrl: string;
  standardFontDataUrl: string;
  cMapUrl: string;
  wasmUrl: string;
  maxPages: number;
  dpi: number;
  maxPagePixels: number;
  maxPageSide: number;
  maxImagePixels: number;
  minTextCharacters: number;
};

const PDF_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
let pdfjs = null;
let createCanvas = null;
// One document at a time: the service sends the next only after this one's answer. pdf.js and the canvas
// library are loaded on the first document and kept, so a warm thread reads a text PDF in tens of ms.
parentPort.on('message', (input) => {
  read(input).catch((error) => {
    parentPort.postMessage({ kind: 'unreadable', detail: String(error && error.stack || error) });
  });
});
async function read(input) {
  if (!pdfjs) {
    // Loading the worker module first makes pdf.js parse in this thread instead of fetching a worker script.
    await import(input.pdfjsWorkerUrl);
    pdfjs = await import(input.pdfjsUrl);
    createCanvas = require(input.canvasPath).createCanvas;
  }
  const loading = pdfjs.getDocument({
    data: input.bytes,
    isEvalSupported: false, // CVE-2024-4367: fonts must not compile code from the file
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    maxImageSize: input.maxImagePixels,
    isOffscreenCanvasSupported: false,
    standardFontDataUrl: input.standardFontDataUrl,
    cMapUrl: input.cMapUrl,
    cMapPacked: true,
    wasmUrl: input.wasmUrl,
    verbosity: 0,
  });
  let document;
  try {
    document = await loading.promise;
  } catch (error) {
    parentPort.postMessage(error && error.name === 'PasswordException'
      ? { kind: 'password' }
      : { kind: 'unreadable', detail: String(error && error.message) });
    return;
  }
  if (document.numPages > input.maxPages) {
    parentPort.postMessage({ kind: 'too-many-pages', pages: document.numPages });
    return;
  }
  const pages = [];
  const transfer = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('');
    const characters = (text.match(/[\\p{L}\\p{N}]/gu) || []).length;
    const base = page.getViewport({ scale: 1 });
    if (characters >= input.minTextCharacters) {
      // Each run's box in the page as shown (rotation applied, origin top left), for rebuilding tables.
      const runs = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const [a, b, c, d, e, f] = pdfjs.Util.transform(base.transform, item.transform);
        const height = Math.hypot(c, d) || item.height || 1;
        const scale = Math.hypot(a, b) / (Math.hypot(item.transform[0], item.transform[1]) || 1);
        runs.push({ str: item.str, x: e, baseline: f, width: item.width * scale, height });
      }
      pages.push({ text, width: base.width, height: base.height, runs });
    } else {
      let scale = input.dpi / 72;
      const pixelsAt = (s) => base.width * s * base.height * s;
      if (pixelsAt(scale) > input.maxPagePixels) scale = Math.sqrt(input.maxPagePixels / (base.width * base.height));
      const longest = Math.max(base.width, base.height) * scale;
      if (longest > input.maxPageSide) scale = scale * (input.maxPageSide / longest);
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.floor(viewport.width));
      const height = Math.max(1, Math.floor(viewport.height));
      const canvas = createCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff'; // a transparent background would read as black
      context.fillRect(0, 0, width, height);
      await page.render({ canvas, canvasContext: context, viewport, background: '#ffffff' }).promise;
      const png = new Uint8Array(await canvas.encode('png'));
      pages.push({ png, dpi: Math.round(scale * 72), width, height });
      transfer.push(png.buffer);
    }
    page.cleanup();
  }
  await document.destroy();
  parentPort.postMessage({ kind: 'pages', pages }, transfer);
}
`;

function pdfThreadInput(bytes: Buffer, maxPages: number): PdfThreadInput & { canvasPath: string } {
  const directoryUrl = (relative: string) => `${join(PDFJS_DIR, relative)}/`;
  return {
    bytes: new Uint8Array(bytes), // a copy: transferred to the thread, the caller's Buffer stays intact
    pdfjsUrl: pathToFileURL(join(PDFJS_DIR, 'legacy/build/pdf.mjs')).href,
    pdfjsWorkerUrl: pathToFileURL(join(PDFJS_DIR, 'legacy/build/pdf.worker.mjs')).href,
    // In Node pdf.js reads these with fs, so they are folder paths (with a trailing slash), not URLs.
    standardFontDataUrl: directoryUrl('standard_fonts'),
    cMapUrl: directoryUrl('cmaps'),
    wasmUrl: directoryUrl('wasm'),
    // The canvas library pdf.js itself loads (pdfjs-dist may carry its own copy, of another version):
    // drawing one copy's canvas onto another's crashes the process with a segmentation fault.
    canvasPath: createRequire(join(PDFJS_DIR, 'legacy/build/pdf.mjs')).resolve('@napi-rs/canvas'),
    maxPages,
    dpi: RENDER_DPI,
    maxPagePixels: MAX_RENDERED_PAGE_PIXELS,
    maxPageSide: MAX_RENDERED_PAGE_SIDE,
    maxImagePixels: MAX_PDF_IMAGE_PIXELS,
    minTextCharacters: MIN_TEXT_LAYER_CHARACTERS,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Layouts: every page's words with their boxes

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

// ---------------------------------------------------------------------------------------------------------
// The service

/** What one running document holds, so that a timeout can stop exactly its threads. */
type Job = {
  /** Set when the job ran out of time or the service closed: the error its caller gets. */
  abandoned: OcrError | null;
  pdfThread: ThreadWorker | null;
  tesseract: Promise<TesseractHandle> | null;
};

export function createOcrService(options: Partial<OcrOptions> = {}): OcrService {
  const settings: OcrOptions = { ...DEFAULT_OCR_OPTIONS, ...options };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isInteger(value) || value < (name === 'maxQueue' ? 0 : 1)) {
      throw new Error(`OCR option ${name} must be a positive whole number, got ${value}`);
    }
  }

  /** Started tesseract workers not in use. Created lazily: a server that never reads a file never pays. */
  const idle: TesseractHandle[] = [];
  /** PDF threads with pdf.js loaded, not in use, and how many documents each has read. */
  const idlePdfThreads: ThreadWorker[] = [];
  const pdfThreadReads = new WeakMap<ThreadWorker, number>();
  const running = new Set<Job>();
  /** Documents holding a slot; counted synchronously, so that two calls in one tick cannot both take the last. */
  let active = 0;
  const waiting: { start: () => void; refuse: (error: OcrError) => void }[] = [];
  let closed = false;
  let modelChecked = false;

  function takeTesseract(job: Job): Promise<TesseractHandle> {
    if (!job.tesseract) {
      const ready = idle.pop();
      job.tesseract = ready ? Promise.resolve(ready) : startTesseract();
    }
    return job.tesseract;
  }

  /** A slot is free when fewer documents run than there are workers; otherwise wait in line, or be refused. */
  function acquireSlot(): Promise<void> {
    if (active < settings.workers) {
      active += 1;
      return Promise.resolve();
    }
    if (waiting.length >= settings.maxQueue) return Promise.reject(new OcrError('busy', MESSAGES.busy));
    // The slot is handed over by releaseSlot, so `active` does not change.
    return new Promise<void>((start, refuse) => waiting.push({ start, refuse }));
  }

  function releaseSlot(): void {
    const next = waiting.shift();
    if (next) next.start();
    else active -= 1;
  }

  /** `dpi` when it is known (a rendered PDF page); for a photo or scan tesseract estimates it. */
  async function ocrPage(
    job: Job,
    image: Uint8Array | Buffer,
    dpi?: number,
  ): Promise<{ text: string; confidence: number; words: OcrWord[] }> {
    const handle = await takeTesseract(job);
    if (job.abandoned) throw job.abandoned;
    // Tesseract parameters ride along with the page and are restored after it; the typings only know
    // tesseract.js's own options, hence the wider type.
    const pageOptions: Partial<Tesseract.RecognizeOptions> & { user_defined_dpi?: string } = {
      rotateAuto: true, // photos of labels are rarely straight
      ...(dpi ? { user_defined_dpi: String(dpi) } : {}),
    };
    const result = await Promise.race([
      handle.worker.recognize(
        Buffer.from(image.buffer, image.byteOffset, image.byteLength),
        pageOptions,
        { text: true, blocks: true }, // blocks: each word's box, to rebuild tables by position
      ),
      handle.died,
    ]).catch((error: unknown) => {
      if (job.abandoned) throw job.abandoned;
      // Leptonica could not decode it (a truncated or corrupt image that passed the header checks).
      throw new OcrError('unreadable', MESSAGES.unreadable, { cause: error });
    });
    return { text: result.data.text, confidence: result.data.confidence, words: wordsOf(result.data) };
  }

  /** A warm PDF thread not in use, or a new one. */
  function takePdfThread(): ThreadWorker {
    const warm = idlePdfThreads.pop();
    warm?.ref(); // working: it keeps the process alive until it answers
    return (
      warm ??
      new ThreadWorker(PDF_THREAD_SOURCE, {
        eval: true,
        resourceLimits: { maxOldGenerationSizeMb: PDF_THREAD_HEAP_MB },
        stdout: false,
        stderr: false,
      })
    );
  }

  function readPdf(job: Job, bytes: Buffer): Promise<PdfThreadAnswer> {
    const input = pdfThreadInput(bytes, settings.maxPages);
    const thread = takePdfThread();
    job.pdfThread = thread;
    return new Promise<PdfThreadAnswer>((resolve, reject) => {
      let answered = false;
      const onMessage = (answer: PdfThreadAnswer) => {
        answered = true;
        detach();
        // A thread that read a document goes back for the next one, unless this one went wrong (whatever
        // it left behind is not kept) or it has read enough documents to be renewed.
        const reads = (pdfThreadReads.get(thread) ?? 0) + 1;
        if (answer.kind === 'unreadable' || closed || job.abandoned || reads >= PDF_THREAD_MAX_DOCUMENTS) {
          void thread.terminate();
        } else {
          pdfThreadReads.set(thread, reads);
          thread.unref(); // a waiting thread never keeps the process from exiting
          idlePdfThreads.push(thread);
        }
        job.pdfThread = null;
        resolve(answer);
      };
      const onError = (error: Error) => {
        // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or a crash inside pdf.js: the file is the problem.
        if (answered) return;
        answered = true;
        detach();
        void thread.terminate();
        resolve({ kind: 'unreadable', detail: String(error) });
      };
      const onExit = () => {
        job.pdfThread = null;
        if (answered) return;
        answered = true;
        detach();
        if (job.abandoned) reject(job.abandoned);
        else resolve({ kind: 'unreadable', detail: 'the PDF thread stopped without answering' });
      };
      const detach = () => {
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
      };
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      thread.postMessage(input, [input.bytes.buffer]);
    });
  }

  async function readDocument(job: Job, bytes: Buffer, contentType: OcrContentType): Promise<OcrResult> {
    if (contentType !== 'application/pdf') {
      const page = await ocrPage(job, bytes);
      const size = imageSize(bytes);
      return {
        text: page.text.trim(),
        pages: 1,
        source: 'ocr',
        confidence: page.confidence,
        layout: [pageLayout(1, 'ocr', page.words, size.width, size.height)],
      };
    }
    const answer = await readPdf(job, bytes);
    if (job.abandoned) throw job.abandoned;
    switch (answer.kind) {
      case 'too-many-pages':
        throw new OcrError('too-many-pages', MESSAGES.tooManyPages(answer.pages, settings.maxPages));
      case 'password':
        throw new OcrError('unreadable', MESSAGES.passwordProtected);
      case 'unreadable':
        throw new OcrError('unreadable', MESSAGES.unreadable, { cause: answer.detail });
      case 'pages':
        break;
    }
    if (answer.pages.length === 0) throw new OcrError('unreadable', MESSAGES.unreadable);
    const texts: string[] = [];
    const confidences: number[] = [];
    const layout: OcrPageLayout[] = [];
    for (const [index, page] of answer.pages.entries()) {
      if ('text' in page) {
        texts.push(page.text.trim());
        layout.push(pageLayout(index + 1, 'text-layer', wordsOfRuns(page.runs), page.width, page.height));
      } else {
        const read = await ocrPage(job, page.png, page.dpi);
        texts.push(read.text.trim());
        confidences.push(read.confidence);
        layout.push(pageLayout(index + 1, 'ocr', read.words, page.width, page.height));
      }
    }
    return {
      text: texts.join(PAGE_SEPARATOR),
      pages: answer.pages.length,
      source: confidences.length > 0 ? 'ocr' : 'text-layer',
      confidence:
        confidences.length > 0
          ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length
          : null,
      layout,
    };
  }

  /** Stops the threads of a job that ran out of time (or of a closing service); the next job starts fresh ones. */
  function abandon(job: Job, why: OcrError): void {
    job.abandoned = why;
    void job.pdfThread?.terminate();
    if (job.tesseract) void stopTesseract(job.tesseract);
  }

  async function runWithTimeout(job: Job, work: Promise<OcrResult>): Promise<OcrResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new OcrError('timeout', MESSAGES.timeout);
        abandon(job, error);
        reject(error);
      }, settings.timeoutMs);
    });
    work.catch(() => {}); // when the timeout wins, the abandoned work's later failure is expected
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async recognize(bytes, contentType) {
      if (closed) throw new OcrError('busy', MESSAGES.closed);
      // Cheapest checks first, before any queueing or decoding.
      if (bytes.length > settings.maxBytes)
        throw new OcrError('too-large', MESSAGES.tooLarge(settings.maxBytes));
      const detected = detectFileType(bytes);
      if (detected === null) throw new OcrError('unreadable', MESSAGES.unreadable);
      if (detected !== contentType) throw new OcrError('unreadable', MESSAGES.wrongType(LABELS[contentType]));
      const sizeProblem = imageSizeProblem(bytes, detected, MAX_IMAGE_PIXELS);
      if (sizeProblem === 'too-many-pixels') throw new OcrError('too-large', MESSAGES.tooManyPixels);
      if (sizeProblem === 'unreadable') throw new OcrError('unreadable', MESSAGES.unreadable);

      await acquireSlot();
      const job: Job = { abandoned: null, pdfThread: null, tesseract: null };
      running.add(job);
      try {
        if (closed) throw new OcrError('busy', MESSAGES.closed);
        if (!modelChecked) {
          assertModelInstalled();
          modelChecked = true;
        }
        const result = await runWithTimeout(job, readDocument(job, bytes, contentType));
        return result;
      } finally {
        // A worker that finished its job goes back for the next one; one whose job was abandoned is stopped.
        if (job.tesseract && !job.abandoned) {
          const handle = await job.tesseract.catch(() => null);
          if (handle && !closed && handle.alive()) idle.push(handle);
          else if (handle) void stopTesseract(handle);
        }
        running.delete(job);
        releaseSlot();
      }
    },

    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.refuse(new OcrError('busy', MESSAGES.closed));
      const stopping: Promise<void>[] = idle.splice(0).map((handle) => stopTesseract(handle));
      for (const thread of idlePdfThreads.splice(0)) stopping.push(thread.terminate().then(() => {}));
      for (const job of running) {
        abandon(job, new OcrError('busy', MESSAGES.closed));
        if (job.tesseract) stopping.push(stopTesseract(job.tesseract));
      }
      await Promise.all(stopping);
    },
  };
}
