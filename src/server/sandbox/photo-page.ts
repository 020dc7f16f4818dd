// A phone photo of a printed page, made readable before OCR: the page found on the surface around it, its
// perspective undone (the page drawn as the rectangle it is), and its light evened out (a shadow or a lamp
// on one side made the same white as the rest). Tesseract binarises with one threshold a page; on a photo
// lit from one side that turns the dark half black or the light half blank, and its lines, drawn at an
// angle by the perspective, are no longer lines. Pure arithmetic on one byte a pixel, so that it runs in
// the sandbox process on what the canvas library decoded (see README.md beside this file).

import { pageSize, findPage } from './page-finder';
import { warpQuad, type GreyImage } from './grey-image';

/** At and above this level (of 245 for paper) a pixel is paper, drawn white. */
const PAPER_LEVEL = 200;

/** The side, in pixels, of the blocks in which the paper's brightness is measured. */
const LIGHT_BLOCK = 32;

/**
 * The image with its light evened out: the paper's brightness is estimated in blocks (the mean of the
 * brighter half of each block, so that print does not darken it), smoothed with its neighbours, and every
 * pixel divided by the paper's brightness where it stands. Print stays dark; a shadowed corner's paper
 * becomes as white as the lit one's.
 */
export function evenLight(image: GreyImage): GreyImage {
  const { width, height, pixels } = image;
  const columns = Math.ceil(width / LIGHT_BLOCK);
  const rows = Math.ceil(height / LIGHT_BLOCK);
  const paper = new Float64Array(columns * rows);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const top = row * LIGHT_BLOCK;
      const left = column * LIGHT_BLOCK;
      const bottom = Math.min(height, top + LIGHT_BLOCK);
      const right = Math.min(width, left + LIGHT_BLOCK);
      let sum = 0;
      let count = 0;
      for (let y = top; y < bottom; y += 1)
        for (let x = left; x < right; x += 1) {
          sum += pixels[y * width + x]!;
          count += 1;
        }
      const mean = count > 0 ? sum / count : 255;
      let brightSum = 0;
      let brightCount = 0;
      for (let y = top; y < bottom; y += 1)
        for (let x = left; x < right; x += 1) {
          const value = pixels[y * width + x]!;
          if (value >= mean) {
            brightSum += value;
            brightCount += 1;
          }
        }
      paper[row * columns + column] = brightCount > 0 ? brightSum / brightCount : mean;
    }
  }
  // A block that is mostly print (a bold heading, a logo) reads darker than its paper: each block takes the
  // brightest of its neighbourhood, then the mean of that, so that the estimate is the paper's and smooth.
  const brightest = new Float64Array(paper.length);
  const smooth = new Float64Array(paper.length);
  const around = (source: Float64Array, row: number, column: number, pick: (values: number[]) => number) => {
    const values: number[] = [];
    for (let dy = -1; dy <= 1; dy += 1)
      for (let dx = -1; dx <= 1; dx += 1) {
        const y = row + dy;
        const x = column + dx;
        if (y >= 0 && y < rows && x >= 0 && x < columns) values.push(source[y * columns + x]!);
      }
    return pick(values);
  };
  for (let row = 0; row < rows; row += 1)
    for (let column = 0; column < columns; column += 1)
      brightest[row * columns + column] = around(paper, row, column, (values) => Math.max(...values));
  for (let row = 0; row < rows; row += 1)
    for (let column = 0; column < columns; column += 1)
      smooth[row * columns + column] = around(
        brightest,
        row,
        column,
        (values) => values.reduce((sum, value) => sum + value, 0) / values.length,
      );
  const out = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y += 1) {
    // Between the centres of the blocks above and below, and left and right: bilinear.
    const gridY = Math.min(rows - 1, Math.max(0, (y + 0.5) / LIGHT_BLOCK - 0.5));
    const row0 = Math.floor(gridY);
    const row1 = Math.min(rows - 1, row0 + 1);
    const down = gridY - row0;
    for (let x = 0; x < width; x += 1) {
      const gridX = Math.min(columns - 1, Math.max(0, (x + 0.5) / LIGHT_BLOCK - 0.5));
      const column0 = Math.floor(gridX);
      const column1 = Math.min(columns - 1, column0 + 1);
      const across = gridX - column0;
      const upper =
        smooth[row0 * columns + column0]! +
        (smooth[row0 * columns + column1]! - smooth[row0 * columns + column0]!) * across;
      const lower =
        smooth[row1 * columns + column0]! +
        (smooth[row1 * columns + column1]! - smooth[row1 * columns + column0]!) * across;
      const light = Math.max(24, upper + (lower - upper) * down);
      const even = (pixels[y * width + x]! * 245) / light;
      // Paper's grain, made larger by the division where the light was dim, would reach tesseract as
      // thousands of specks (one blank, noisy page took it minutes): what is near the paper's white is white.
      out[y * width + x] = even >= PAPER_LEVEL ? 255 : even;
    }
  }
  return { width, height, pixels: out };
}

/**
 * The width a straightened page is drawn at, when its photo had fewer pixels: about 400 dpi across a letter
 * page. Tesseract drops the decimal point of a small blurred "7.5" (it reads "75"); drawn larger, with the
 * light evened, the point survives. Never more than twice the photo's own resolution (nothing to gain).
 */
const PAGE_WIDTH_FOR_OCR = 3400;
const MAX_UPSCALE = 2;

/**
 * A photo of a page made ready for OCR: the page cut out, straightened, drawn at a resolution tesseract
 * reads well, its light evened out. Null when no page with a surface around it is found (a label, a crop,
 * a scan): such a photo is read as it is.
 */
export function preparePhoto(image: GreyImage): GreyImage | null {
  const quad = findPage(image);
  if (!quad) return null;
  const size = pageSize(quad);
  const enlarge = Math.min(MAX_UPSCALE, Math.max(1, PAGE_WIDTH_FOR_OCR / size.width));
  const warped = warpQuad(
    image,
    quad,
    Math.max(1, Math.round(size.width * enlarge)),
    Math.max(1, Math.round(size.height * enlarge)),
  );
  return warped ? evenLight(warped) : null;
}
