import type { OcrPageLayout } from '../../domain/ocr-layout';
import { createSandbox, SandboxFailure, type Sandbox } from '../sandbox/sandbox';
import type { PdfCaps } from '../sandbox/protocol';
import { detectFileType, imageSizeProblem } from '../services/file-type';

// The server's one OCR service: prescription labels and lab reports. It reads the text of an image or PDF
// fully offline. Nothing is decoded in the server's own process: every document is read in a sandbox
// process under a memory ceiling (src/server/sandbox), so a hostile file fails alone, and a FairQueue
// decides whose document is read next, so one account cannot take the readers from everyone else.
// Here only the cheap checks run (size, the real type from the first bytes, an image header's pixel
// count) and the sandbox's refusals become plain-English OcrErrors. See README.md beside this file.

export type OcrContentType = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

export type OcrOptions = {
  /** Sandbox processes reading at once, each holding ~300 MB once it has read its first page. */
  workers: number;
  maxBytes: number;
  /** A PDF with more pages is refused as a whole rather than silently read in part. */
  maxPages: number;
  /** Per document, counted from when it starts being read (not while it waits in the queue). */
  timeoutMs: number;
  /** Documents allowed to wait in all; one more is refused as 'busy'. */
  maxQueue: number;
  /** Documents one account may have waiting (besides the one it has running); one more is 'busy' for it. */
  maxQueuePerAccount: number;
  /** The memory ceiling of each reading process. */
  memoryMb: number;
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
  /** `account`: whose document it is, for the fair queue (one running document per account). */
  recognize(bytes: Buffer, contentType: OcrContentType, account?: string): Promise<OcrResult>;
  /** The reading processes alive now (for tests and the benchmark). */
  processIds(): number[];
  /** Documents being read and waiting now. */
  queueLoad(): { running: number; waiting: number };
  /** Stops every reading process; documents still being read or waiting fail with 'busy'. */
  close(): Promise<void>;
};

export type OcrErrorReason =
  'too-large' | 'too-many-pages' | 'too-complex' | 'timeout' | 'unreadable' | 'busy';

/** A refusal the caller can show: `message` is plain English for a person, `reason` picks the HTTP status. */
export class OcrError extends Error {
  readonly reason: OcrErrorReason;
  /** For 'busy': when a retry is likely to be let in. */
  readonly retryAfterSeconds: number | undefined;
  /** `cause` carries the technical detail (for logs), never shown to the person. */
  constructor(
    reason: OcrErrorReason,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'OcrError';
    this.reason = reason;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export const DEFAULT_OCR_OPTIONS: OcrOptions = {
  workers: 1,
  maxBytes: 10 * 1024 * 1024,
  maxPages: 5,
  timeoutMs: 60_000,
  maxQueue: 40,
  maxQueuePerAccount: 2,
  memoryMb: 1024,
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
/**
 * A PDF page's own text is used when it has at least this many letters and digits; below it the page is
 * taken to be a scan (a scanner's stamp such as "Scanned with CamScanner" has 20) and OCR'd.
 */
export const MIN_TEXT_LAYER_CHARACTERS = 40;

/** The caps a PDF is read under (see README.md beside this file). */
export const PDF_CAPS: Omit<PdfCaps, 'maxPages'> = {
  dpi: RENDER_DPI,
  maxPagePixels: MAX_RENDERED_PAGE_PIXELS,
  /** Whatever the area, no side over this (a hostile 1 x 200 inch page). */
  maxPageSide: 8_000,
  /** Images embedded in a PDF are not decoded above this many pixels (pdf.js's maxImageSize). */
  maxImagePixels: 40_000_000,
  minTextCharacters: MIN_TEXT_LAYER_CHARACTERS,
  /** A page's drawing and text: a dense lab report page is tens of kilobytes. */
  maxStreamBytes: 8 * 1024 * 1024,
  /** A 40 MP image's pixels fit. */
  maxImageStreamBytes: 160 * 1024 * 1024,
  /** An embedded font (a large CJK font is 10-20 MB). */
  maxFontStreamBytes: 32 * 1024 * 1024,
  maxInflatedBytes: 256 * 1024 * 1024,
  /** A dense page of a lab report is a few thousand; a hundred thousand is a file built to exhaust. */
  maxOperatorsPerPage: 100_000,
};

/** Sandbox processes are renewed after this many documents, so nothing one file left behind lives long. */
const DOCUMENTS_PER_PROCESS = 50;

/** Between pages in `OcrResult.text`; a blank line cannot be used, as OCR'd text has blank lines of its own. */
export const PAGE_SEPARATOR = '\f';

/** What a refused reading says, in words a person reads (tests tell a clean refusal from a failure by it). */
export const OCR_MESSAGES = {
  unreadable: 'The file could not be read as an image or PDF.',
  wrongType: (claimed: string) => `The file is not a ${claimed} as it claims to be, so it could not be read.`,
  passwordProtected: 'The PDF is protected by a password, so it could not be read.',
  tooLarge: (maxBytes: number) =>
    `The file is too large to read: the limit is ${(maxBytes / (1024 * 1024)).toFixed(0)} MB.`,
  tooManyPixels: `The image is too large to read: the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
  tooManyPages: (pages: number, maxPages: number) =>
    `The PDF has ${pages} pages; at most ${maxPages} can be read at once.`,
  tooComplex:
    'The file holds more than a document may (its compressed parts unpack to too much, or a page is too ' +
    'complex), so it was not read. Please try a simpler or smaller copy.',
  tooMuchMemory:
    'Reading the file needed more memory than one document may use, so it was stopped. Please try a ' +
    'simpler or smaller copy.',
  timeout: 'Reading the file took too long, so it was stopped. Please try a clearer or smaller file.',
  busy: 'Too many files are being read right now. Please try again in a minute.',
  yourQueueFull: (seconds: number) =>
    `Your earlier files are still being read. Please try again in about ${seconds} seconds.`,
  closed: 'The text reader is shutting down. Please try again in a minute.',
} as const;
const MESSAGES = OCR_MESSAGES;

const LABELS: Record<OcrContentType, string> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF',
};

/** The OcrError a sandbox failure becomes. */
function ocrErrorOf(failure: SandboxFailure, settings: OcrOptions): OcrError {
  const cause = failure.detail;
  switch (failure.reason) {
    case 'too-many-pages':
      return new OcrError(
        'too-many-pages',
        MESSAGES.tooManyPages(failure.extra.pages ?? 0, settings.maxPages),
        {
          cause,
        },
      );
    case 'password':
      return new OcrError('unreadable', MESSAGES.passwordProtected, { cause });
    case 'too-complex':
      return new OcrError('too-complex', MESSAGES.tooComplex, { cause });
    case 'memory':
      return new OcrError('too-complex', MESSAGES.tooMuchMemory, { cause });
    case 'timeout':
      return new OcrError('timeout', MESSAGES.timeout, { cause });
    case 'busy': {
      const retryAfterSeconds = failure.extra.retryAfterSeconds ?? 60;
      const message =
        failure.extra.scope === 'account' ? MESSAGES.yourQueueFull(retryAfterSeconds) : MESSAGES.busy;
      return new OcrError('busy', message, { cause, retryAfterSeconds });
    }
    case 'closed':
      return new OcrError('busy', MESSAGES.closed, { cause, retryAfterSeconds: 60 });
    case 'unreadable':
    case 'crashed':
      return new OcrError('unreadable', MESSAGES.unreadable, { cause });
  }
}

export function createOcrService(options: Partial<OcrOptions> = {}): OcrService {
  const settings: OcrOptions = { ...DEFAULT_OCR_OPTIONS, ...options };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`OCR option ${name} must be a positive whole number, got ${value}`);
    }
  }
  // Created on the first document: a server that never reads a file never starts a process.
  let sandbox: Sandbox | null = null;
  let closed = false;
  const sandboxOf = () =>
    (sandbox ??= createSandbox({
      name: 'OCR',
      processes: settings.workers,
      memoryMb: settings.memoryMb,
      jobsPerProcess: DOCUMENTS_PER_PROCESS,
      perAccountWaiting: settings.maxQueuePerAccount,
      totalWaiting: settings.maxQueue,
      warmUp: ['read-document'],
    }));

  return {
    async recognize(bytes, contentType, account = 'server') {
      if (closed) throw new OcrError('busy', MESSAGES.closed, { retryAfterSeconds: 60 });
      // Cheapest checks first, before any queueing or decoding.
      if (bytes.length > settings.maxBytes)
        throw new OcrError('too-large', MESSAGES.tooLarge(settings.maxBytes));
      const detected = detectFileType(bytes);
      if (detected === null) throw new OcrError('unreadable', MESSAGES.unreadable);
      if (detected !== contentType) throw new OcrError('unreadable', MESSAGES.wrongType(LABELS[contentType]));
      const sizeProblem = imageSizeProblem(bytes, detected, MAX_IMAGE_PIXELS);
      if (sizeProblem === 'too-many-pixels') throw new OcrError('too-large', MESSAGES.tooManyPixels);
      if (sizeProblem === 'unreadable') throw new OcrError('unreadable', MESSAGES.unreadable);
      try {
        const answer = await sandboxOf().run(
          account,
          'read-document',
          // A copy: the caller's Buffer may be a slice of a larger pool.
          { bytes: new Uint8Array(bytes), contentType, pdf: { ...PDF_CAPS, maxPages: settings.maxPages } },
          { timeoutMs: settings.timeoutMs },
        );
        return answer;
      } catch (error) {
        if (error instanceof SandboxFailure) throw ocrErrorOf(error, settings);
        throw error;
      }
    },
    processIds() {
      return sandbox?.pids() ?? [];
    },
    queueLoad() {
      return sandbox?.load() ?? { running: 0, waiting: 0 };
    },
    async close() {
      closed = true;
      await sandbox?.close();
    },
  };
}
