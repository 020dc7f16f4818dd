// A grey image (one byte a pixel) and what the photo and scan paths do with it: made from a canvas's RGBA,
// handed to tesseract as a PGM, made smaller, split by Otsu's threshold, and a quadrilateral of it drawn as
// a rectangle (photo-page.ts, page-finder.ts).

import { homography, type Quad } from './homography';

/** A grey image, one byte a pixel, row after row. */
export type GreyImage = { width: number; height: number; pixels: Uint8ClampedArray };

/** RGBA (as a canvas gives it) to grey, by the eye's weights. */
export function greyOf(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): GreyImage {
  const pixels = new Uint8ClampedArray(width * height);
  for (let index = 0, at = 0; index < pixels.length; index += 1, at += 4)
    pixels[index] = (rgba[at]! * 77 + rgba[at + 1]! * 150 + rgba[at + 2]! * 29) >> 8;
  return { width, height, pixels };
}

/**
 * A binary PGM of the image: a short header, then one byte a pixel. Nothing to compress, and tesseract's
 * image library reads it.
 */
export function pgmOf(image: GreyImage): Uint8Array {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  const pgm = new Uint8Array(header.length + image.pixels.length);
  pgm.set(header, 0);
  pgm.set(image.pixels, header.length);
  return pgm;
}

/** Grey to RGBA, opaque (for a canvas to encode). */
export function rgbaOf(image: GreyImage): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let index = 0, at = 0; index < image.pixels.length; index += 1, at += 4) {
    const value = image.pixels[index]!;
    rgba[at] = value;
    rgba[at + 1] = value;
    rgba[at + 2] = value;
    rgba[at + 3] = 255;
  }
  return rgba;
}

/** The image `factor` times smaller each way, each pixel the mean of the block it covers. */
export function shrink(image: GreyImage, factor: number): GreyImage {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const pixels = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let sum = 0;
      let count = 0;
      const top = Math.floor(y * factor);
      const left = Math.floor(x * factor);
      const bottom = Math.min(image.height, Math.floor((y + 1) * factor));
      const right = Math.min(image.width, Math.floor((x + 1) * factor));
      for (let row = top; row < bottom; row += 1)
        for (let column = left; column < right; column += 1) {
          sum += image.pixels[row * image.width + column]!;
          count += 1;
        }
      pixels[y * width + x] = count > 0 ? sum / count : 0;
    }
  }
  return { width, height, pixels };
}

/** Otsu's threshold: the grey level that best splits the image's histogram into two classes. */
export function otsuThreshold(pixels: Uint8ClampedArray): number {
  const histogram = new Float64Array(256);
  for (const value of pixels) histogram[value] = histogram[value]! + 1;
  const total = pixels.length;
  let sumAll = 0;
  for (let level = 0; level < 256; level += 1) sumAll += level * histogram[level]!;
  let sumBelow = 0;
  let countBelow = 0;
  let best = 0;
  let threshold = 127;
  for (let level = 0; level < 256; level += 1) {
    countBelow += histogram[level]!;
    if (countBelow === 0) continue;
    const countAbove = total - countBelow;
    if (countAbove === 0) break;
    sumBelow += level * histogram[level]!;
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const between = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}

/**
 * A `width` x `height` image of what `quad` encloses in `source`: each output pixel is mapped into the
 * source and read between its four neighbours. Outside the source reads as white (paper).
 */
export function warpQuad(source: GreyImage, quad: Quad, width: number, height: number): GreyImage | null {
  const rectangle: Quad = [
    { x: 0, y: 0 },
    { x: width - 1, y: 0 },
    { x: width - 1, y: height - 1 },
    { x: 0, y: height - 1 },
  ];
  const matrix = homography(rectangle, quad);
  if (!matrix) return null;
  const [a, b, c, d, e, f, g, h, i] = matrix as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const pixels = new Uint8ClampedArray(width * height);
  const { width: sourceWidth, height: sourceHeight, pixels: sourcePixels } = source;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const w = g * x + h * y + i;
      const sx = (a * x + b * y + c) / w;
      const sy = (d * x + e * y + f) / w;
      const left = Math.floor(sx);
      const top = Math.floor(sy);
      if (left < 0 || top < 0 || left >= sourceWidth - 1 || top >= sourceHeight - 1) {
        pixels[y * width + x] = 255;
        continue;
      }
      const across = sx - left;
      const down = sy - top;
      const at = top * sourceWidth + left;
      const upper = sourcePixels[at]! + (sourcePixels[at + 1]! - sourcePixels[at]!) * across;
      const lower =
        sourcePixels[at + sourceWidth]! +
        (sourcePixels[at + sourceWidth + 1]! - sourcePixels[at + sourceWidth]!) * across;
      pixels[y * width + x] = upper + (lower - upper) * down;
    }
  }
  return { width, height, pixels };
}
