// What an uploaded image file must be before it is decoded (read-document.ts).

import type { ReadDocumentInput } from './protocol';

/**
 * Whether an image file ends where its format says it does: a PNG with its IEND chunk, a JPEG with its
 * end-of-image marker, a WebP as long as its RIFF header says. The canvas library draws a cut-off file
 * as far as it goes without complaint; a truncated upload is refused instead, as tesseract refuses it.
 */
export function isWholeImage(bytes: Uint8Array, contentType: ReadDocumentInput['contentType']): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (contentType) {
    case 'image/png':
      // The IEND chunk's type, then its checksum: the file's last 8 bytes (or close, after padding).
      return tail.subarray(-64).includes('IEND', 0, 'latin1');
    case 'image/jpeg': {
      // The marker is the last two bytes, or close to them (some cameras pad the file after it).
      const end = tail.subarray(-64);
      for (let at = end.length - 2; at >= 0; at -= 1)
        if (end[at] === 0xff && end[at + 1] === 0xd9) return true;
      return false;
    }
    case 'image/webp':
      return tail.length >= 12 && tail.readUInt32LE(4) + 8 <= tail.length;
    default:
      return true;
  }
}
