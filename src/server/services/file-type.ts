import { imageSize } from 'image-size';

// The real type of an uploaded file, read from its first bytes: the type a browser declares is only
// the file name's extension, and a renamed text file must not be stored or served as an image.

export const DETECTABLE_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;
export type DetectedFileType = (typeof DETECTABLE_FILE_TYPES)[number];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

function startsWith(bytes: Buffer, signature: readonly number[], offset = 0): boolean {
  return (
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte)
  );
}

function startsWithText(bytes: Buffer, text: string, offset = 0): boolean {
  return bytes.subarray(offset, offset + text.length).toString('latin1') === text;
}

export function detectFileType(bytes: Buffer): DetectedFileType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  if (startsWithText(bytes, 'RIFF') && startsWithText(bytes, 'WEBP', 8)) return 'image/webp';
  if (startsWithText(bytes, '%PDF-')) return 'application/pdf';
  return null;
}

/** HEIF brands of photos (iPhones write 'heic'; 'mif1' and 'msf1' are the generic image and sequence brands). */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/** Whether the bytes are a HEIC/HEIF photo: an ISO media file whose `ftyp` box names a HEIF brand. */
export function isHeic(bytes: Buffer): boolean {
  return startsWithText(bytes, 'ftyp', 4) && HEIC_BRANDS.has(bytes.subarray(8, 12).toString('latin1'));
}

/**
 * Why an image may not be stored: its header claims more than `maxPixels` pixels (a small file can claim
 * 100,000 x 100,000, and every device that shows it would try to decode that), or no size can be read
 * from it. Null when it is fine, or not an image. Only the header is read; nothing is decoded.
 */
export function imageSizeProblem(
  bytes: Buffer,
  type: DetectedFileType,
  maxPixels: number,
): 'too-many-pixels' | 'unreadable' | null {
  if (!type.startsWith('image/')) return null;
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return 'unreadable';
  }
  const { width, height } = size;
  if (!width || !height) return 'unreadable';
  return width * height > maxPixels ? 'too-many-pixels' : null;
}
