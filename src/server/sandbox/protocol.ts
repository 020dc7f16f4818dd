// The messages between the server and a sandbox process (see README.md beside this file). Both sides
// import this file, so a task's input and answer are one type on each side.

import type { OcrPageLayout } from '../../domain/ocr-layout';
import type { PreviewFound } from '../services/record-import/fhir-to-kincare';
import type { RecordFileRefusalStatus } from '../services/record-import/refusal';

/** Caps a PDF is read under; every one is checked in the sandbox while the file is read. */
export type PdfCaps = {
  maxPages: number;
  /** Rendered pages (scans) at this resolution... */
  dpi: number;
  /** ...but never over this many pixels nor this long a side. */
  maxPagePixels: number;
  maxPageSide: number;
  /** Images inside the PDF are not decoded over this many pixels (pdf.js's maxImageSize). */
  maxImagePixels: number;
  /** A page's own text is used when it has at least this many letters and digits. */
  minTextCharacters: number;
  /** What one compressed stream may inflate to by what it holds, and all of a file's streams (bytes). */
  maxStreamBytes: number;
  maxImageStreamBytes: number;
  maxFontStreamBytes: number;
  maxInflatedBytes: number;
  /** Drawing operators (rendered page) or text runs (text page) one page may have. */
  maxOperatorsPerPage: number;
};

export type ReadDocumentInput = {
  bytes: Uint8Array;
  contentType: 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';
  pdf: PdfCaps;
};

export type ReadDocumentAnswer = {
  text: string;
  pages: number;
  source: 'text-layer' | 'ocr';
  confidence: number | null;
  layout: OcrPageLayout[];
};

export type HeicToJpegInput = { bytes: Uint8Array; quality: number };
export type HeicToJpegAnswer = { jpeg: Uint8Array };

export type ReadRecordFileInput = { bytes: Uint8Array; zone?: string | undefined };
/** What the file holds, or why it was refused (a sentence for the person: the file's fault, not the sandbox's). */
export type ReadRecordFileAnswer =
  { found: PreviewFound } | { refused: { status: RecordFileRefusalStatus; message: string } };

export type SandboxTasks = {
  'read-document': { input: ReadDocumentInput; answer: ReadDocumentAnswer };
  'heic-to-jpeg': { input: HeicToJpegInput; answer: HeicToJpegAnswer };
  'read-record-file': { input: ReadRecordFileInput; answer: ReadRecordFileAnswer };
};
export type SandboxTaskName = keyof SandboxTasks;

/** Sent to a new process before its first job: load these tasks' modules and start their engines. */
export type WarmUpInput = { tasks: SandboxTaskName[] };

/**
 * Why a task refused its file, decided inside the sandbox. `too-complex` is a cap of PdfCaps reached;
 * `memory` an allocation the memory ceiling refused (the process may be unusable afterwards).
 */
export type TaskRefusalReason = 'unreadable' | 'password' | 'too-many-pages' | 'too-complex' | 'memory';

export type TaskRequest = { id: number; task: SandboxTaskName | 'warm-up'; input: unknown };
export type TaskReply =
  | { id: number; ok: true; answer: unknown }
  | { id: number; ok: false; reason: TaskRefusalReason; detail: string; pages?: number };
