// Photos of lab reports are resized on the device before they are uploaded: a phone's camera
// takes 4000-6000 px pictures of 4-10 MB, more than reading a printed page needs and more than a slow
// connection or the upload limit likes. The longest side is brought down to REPORT_PHOTO_MAX_SIDE and the
// picture saved as JPEG; smaller images and PDFs go as they are (a PDF's text is read from its text layer).

/** The longest side a report photo keeps: enough for 10-point print on a letter page at ~300 dpi. */
export const REPORT_PHOTO_MAX_SIDE = 3000;
/** JPEG quality of a resized photo: text stays sharp, the file is a fraction of the original. */
export const REPORT_PHOTO_QUALITY = 0.88;

/** Types the server takes as they are; any other image the browser can decode (HEIC, AVIF) is redrawn as JPEG. */
const UPLOADABLE_IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];

/** The size to draw an image of `width` x `height` at so that its longest side is at most `maxSide`. */
export function fitWithin(
  width: number,
  height: number,
  maxSide = REPORT_PHOTO_MAX_SIDE,
): { width: number; height: number; scaled: boolean } {
  const longest = Math.max(width, height);
  if (longest <= maxSide || longest <= 0) return { width, height, scaled: false };
  const scale = maxSide / longest;
  // Never 0 px: a 1 x 10000 strip stays at least one pixel wide.
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    scaled: true,
  };
}

/** The name of the JPEG made from `name` ('scan.png' -> 'scan.jpg'). */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '');
  return `${base || 'report'}.jpg`;
}

/**
 * `file` ready to upload: an image larger than REPORT_PHOTO_MAX_SIDE (or of a type the server does not take)
 * redrawn at most that size as JPEG; anything else (a PDF, a small image, a browser that cannot decode it)
 * unchanged.
 */
export async function resizeReportPhoto(file: File, maxSide = REPORT_PHOTO_MAX_SIDE): Promise<File> {
  if (!file.type.startsWith('image/') || typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    // from-image: a phone photo taken sideways is stored sideways with an EXIF turn; draw it upright.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file; // the server checks what it receives and says why it refuses it
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height, maxSide);
    if (!size.scaled && UPLOADABLE_IMAGE_TYPES.includes(file.type)) return file;
    const blob = await drawAsJpeg(bitmap, size.width, size.height);
    return blob ? new File([blob], jpegName(file.name), { type: 'image/jpeg' }) : file;
  } finally {
    bitmap.close();
  }
}

async function drawAsJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    paint(context, bitmap, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: REPORT_PHOTO_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  paint(context, bitmap, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', REPORT_PHOTO_QUALITY));
}

function paint(
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  bitmap: ImageBitmap,
  width: number,
  height: number,
) {
  // JPEG has no transparency: a transparent PNG would turn black without a white page under it.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
}
