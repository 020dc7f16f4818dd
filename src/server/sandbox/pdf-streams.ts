import { constants, inflateSync } from 'node:zlib';

// How much a PDF's compressed streams inflate to, found before pdf.js reads the file. A FlateDecode stream
// shrinks a thousand to one: a 2 MB upload held a content stream of gigabytes, and pdf.js, which inflates
// a stream whole when a page is read, took the server's memory from 1.2 GB to 5.4 GB. Here every stream of
// the file is inflated once, into a buffer that may not grow past the cap (zlib's maxOutputLength), and the
// file is refused when one stream or all of them together pass their caps. It reads streams by their
// keywords, as pdf.js itself does when a /Length is wrong; a file built to hide a stream from this scan is
// still read inside the sandbox's memory ceiling, which is the hard bound (sandbox.ts).

export type InflateFinding =
  { ok: true; streams: number; inflatedBytes: number } | { ok: false; why: string };

const STREAM_KEYWORD = Buffer.from('stream');
const END_KEYWORD = Buffer.from('endstream');
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 4_096;

/** Where a stream's data starts: after `stream` and its end of line (CRLF or LF; a lone CR is tolerated). */
function dataStart(bytes: Buffer, keywordAt: number): number {
  let at = keywordAt + STREAM_KEYWORD.length;
  if (bytes[at] === 0x0d) at += 1;
  if (bytes[at] === 0x0a) at += 1;
  return at;
}

/** Whether the `stream` at `at` is the keyword (not part of `endstream` or of a name like /Substream). */
function isStreamKeyword(bytes: Buffer, at: number): boolean {
  const before = bytes[at - 1];
  const after = bytes[at + STREAM_KEYWORD.length];
  const startsWord = before === undefined || !/[A-Za-z0-9/]/.test(String.fromCharCode(before));
  return startsWord && (after === 0x0d || after === 0x0a);
}

/** The dictionary before a stream, as text: enough to see its /Filter. */
function dictionaryBefore(bytes: Buffer, keywordAt: number): string {
  return bytes.toString('latin1', Math.max(0, keywordAt - DICTIONARY_WINDOW), keywordAt);
}

/** The stream's own dictionary: from its object's `obj` keyword (the last before `stream`) on. */
function ownDictionary(before: string): string {
  const start = before.lastIndexOf('obj');
  return start >= 0 ? before.slice(start) : before;
}

/** The filters the stream's dictionary names. */
function filtersOf(own: string): string[] {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(own);
  if (!filter?.[1]) return [];
  return [...filter[1].matchAll(/\/([A-Za-z0-9]+)/g)].map((match) => match[1] ?? '');
}

/** What one stream's data inflates to, at most `cap` bytes; null when the cap is passed. */
function inflatedSize(data: Buffer, cap: number): number | null {
  try {
    // A truncated or padded stream is inflated as far as it goes (pdf.js reads such files too).
    return inflateSync(data, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return null;
    return 0; // not zlib data after all: pdf.js will find it unreadable, and nothing was inflated
  }
}

/**
 * Inflates every Flate-compressed stream of the PDF, refusing the file when one stream passes its cap
 * (capOf) or all of them pass `maxInflatedBytes` together.
 */
/**
 * The cap of one stream by what it holds: an image's pixels may be large (a 40 MP scan), an embedded font
 * a few megabytes; anything else (a page's drawing and text, an object stream) is far smaller, and a
 * content stream of millions of operators is a file built to exhaust the reader.
 */
function capOf(own: string, caps: StreamCaps): number {
  if (/\/Subtype\s*\/Image\b/.test(own)) return caps.maxImageStreamBytes;
  if (/\/Length[123]\b|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)\b/.test(own))
    return caps.maxFontStreamBytes;
  return caps.maxStreamBytes;
}

export type StreamCaps = {
  /** A page's content, an object stream, anything but an image or a font. */
  maxStreamBytes: number;
  maxImageStreamBytes: number;
  maxFontStreamBytes: number;
  /** All streams of the file together. */
  maxInflatedBytes: number;
};

export function checkInflatedSizes(bytes: Buffer, caps: StreamCaps): InflateFinding {
  let total = 0;
  let streams = 0;
  let from = 0;
  for (;;) {
    const keywordAt = bytes.indexOf(STREAM_KEYWORD, from);
    if (keywordAt < 0) break;
    from = keywordAt + STREAM_KEYWORD.length;
    if (!isStreamKeyword(bytes, keywordAt)) continue;
    const start = dataStart(bytes, keywordAt);
    const endAt = bytes.indexOf(END_KEYWORD, start);
    const end = endAt < 0 ? bytes.length : endAt;
    from = end;
    const own = ownDictionary(dictionaryBefore(bytes, keywordAt));
    if (!filtersOf(own).some((filter) => filter === 'FlateDecode' || filter === 'Fl')) continue;
    streams += 1;
    const cap = capOf(own, caps);
    const left = Math.min(cap, caps.maxInflatedBytes - total);
    const size = inflatedSize(bytes.subarray(start, end), left + 1);
    if (size === null || size > left) {
      return {
        ok: false,
        why:
          left < cap
            ? `the streams inflate to more than ${caps.maxInflatedBytes} bytes together`
            : `a stream inflates to more than ${cap} bytes`,
      };
    }
    total += size;
  }
  return { ok: true, streams, inflatedBytes: total };
}
