// A phone photo of a printed page, made readable before OCR: the page found on the surface around it, its
// perspective undone (the page drawn as the rectangle it is), and its light evened out (a shadow or a lamp
// on one side made the same white as the rest). Tesseract binarises with one threshold a page; on a photo
// lit from one side that turns the dark half black or the light half blank, and its lines, drawn at an
// angle by the perspective, are no longer lines. Pure arithmetic on one byte a pixel, so that it runs in
// the sandbox process on what the canvas library decoded (see README.md beside this file).

import { homography, type Point, type Quad } from './homography';

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

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Twice the signed area of the triangle a, b, c: its sign says which way the corner turns. */
const turn = (a: Point, b: Point, c: Point) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);

/** The area of a quadrilateral (shoelace). */
function quadArea(quad: Quad): number {
  let twice = 0;
  for (let corner = 0; corner < 4; corner += 1) {
    const a = quad[corner]!;
    const b = quad[(corner + 1) % 4]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return Math.abs(twice) / 2;
}

/** The long side of the working copy the page is looked for in: enough for its corners, cheap to scan. */
const FIND_SIDE = 480;

/** Neighbouring pixels of the small copy that differ by at most this are the same surface. */
const SURFACE_STEP = 8;
/** A sharp change on the small copy (a step of 10 grey levels gives 40): the page's edge, or print. */
const EDGE_STRENGTH = 40;

/**
 * The page's corners in `image`, or null when there is no page to straighten: no region big enough to be
 * one, or one that fills the frame (a scan, a crop, a photo taken square on). On a small copy, the surface
 * is flooded from the frame's edge (from its pixels darker than Otsu's threshold) across every change
 * softer than SURFACE_STEP a pixel and never into a sharp edge: light falling off and a shadow's soft
 * edge are crossed, the page's edge is not. The page is the largest region the flood did not reach, so a shadow across part of
 * the page leaves that part on the page (a brightness threshold cut it away, and the words on it). Its
 * corners are its points furthest out along the four diagonals, which holds for a page turned by less
 * than about 30 degrees.
 */
export function findPage(image: GreyImage): Quad | null {
  const factor = Math.max(1, Math.max(image.width, image.height) / FIND_SIDE);
  const small = shrink(image, factor);
  const { width, height, pixels } = small;
  const threshold = otsuThreshold(pixels);
  const queue = new Int32Array(width * height);
  const neighboursOf = (at: number) => {
    const x = at % width;
    return [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width];
  };
  // Where the picture changes sharply (the page's edge, print): Sobel's |Gx| + |Gy| over EDGE_STRENGTH.
  // The flood never enters them: along a slanted edge the small copy's pixels, each a mix of page and
  // surface, climb from one to the other in steps soft enough to cross one by one.
  const edge = new Uint8Array(width * height);
  for (let y = 1; y < height - 1; y += 1)
    for (let x = 1; x < width - 1; x += 1) {
      const at = y * width + x;
      const p = (dx: number, dy: number) => pixels[at + dy * width + dx]!;
      const gx = p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1);
      const gy = p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1);
      if (Math.abs(gx) + Math.abs(gy) > EDGE_STRENGTH) edge[at] = 1;
    }
  // The surface: flooded from the frame's darker edge pixels across soft changes.
  const surface = new Uint8Array(width * height);
  let tail = 0;
  for (let at = 0; at < pixels.length; at += 1) {
    const x = at % width;
    const y = (at - x) / width;
    const onEdge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
    if (onEdge && pixels[at]! <= threshold && !edge[at]) {
      surface[at] = 1;
      queue[tail++] = at;
    }
  }
  for (let head = 0; head < tail; head += 1) {
    const at = queue[head]!;
    for (const neighbour of neighboursOf(at)) {
      if (neighbour < 0 || neighbour >= pixels.length || surface[neighbour] || edge[neighbour]) continue;
      if (Math.abs(pixels[neighbour]! - pixels[at]!) > SURFACE_STEP) continue;
      surface[neighbour] = 1;
      queue[tail++] = neighbour;
    }
  }
  // The largest 4-connected region the surface did not reach.
  const label = new Int32Array(width * height).fill(-1);
  let bestLabel = -1;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < pixels.length; start += 1) {
    if (label[start] !== -1 || surface[start]) continue;
    let head = 0;
    tail = 0;
    queue[tail++] = start;
    label[start] = next;
    while (head < tail) {
      const at = queue[head++]!;
      for (const neighbour of neighboursOf(at)) {
        if (neighbour < 0 || neighbour >= pixels.length) continue;
        if (label[neighbour] !== -1 || surface[neighbour]) continue;
        label[neighbour] = next;
        queue[tail++] = neighbour;
      }
    }
    if (tail > bestSize) {
      bestSize = tail;
      bestLabel = next;
    }
    next += 1;
  }
  if (bestLabel < 0 || bestSize < pixels.length * 0.2) return null;
  let topLeft = { x: 0, y: 0, score: Infinity };
  let topRight = { x: 0, y: 0, score: -Infinity };
  let bottomRight = { x: 0, y: 0, score: -Infinity };
  let bottomLeft = { x: 0, y: 0, score: Infinity };
  let minX = width;
  let maxX = 0;
  let minY = height;
  let maxY = 0;
  for (let at = 0; at < label.length; at += 1) {
    if (label[at] !== bestLabel) continue;
    const x = at % width;
    const y = (at - x) / width;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
    if (x + y < topLeft.score) topLeft = { x, y, score: x + y };
    if (x + y > bottomRight.score) bottomRight = { x, y, score: x + y };
    if (x - y > topRight.score) topRight = { x, y, score: x - y };
    if (x - y < bottomLeft.score) bottomLeft = { x, y, score: x - y };
  }
  // A region that reaches every edge of the frame is the page filling it: nothing around it to cut away.
  const margin = 2;
  if (minX < margin && minY < margin && maxX >= width - 1 - margin && maxY >= height - 1 - margin)
    return null;
  // Back to the full image, each corner drawn in by a pixel and a half of the small copy: a sliver of the
  // surface left along an edge reads as a column of '|' characters.
  const centre = {
    x: (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4,
    y: (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4,
  };
  const inset = (point: { x: number; y: number }): Point => {
    const dx = centre.x - point.x;
    const dy = centre.y - point.y;
    const length = Math.hypot(dx, dy) || 1;
    return {
      x: Math.min(image.width - 1, Math.max(0, (point.x + 0.5 + (1.5 * dx) / length) * factor)),
      y: Math.min(image.height - 1, Math.max(0, (point.y + 0.5 + (1.5 * dy) / length) * factor)),
    };
  };
  const quad: Quad = [inset(topLeft), inset(topRight), inset(bottomRight), inset(bottomLeft)];
  return plausiblePage(quad, image) ? quad : null;
}

/**
 * A quadrilateral that can be a photographed page: convex, turning one way, a fifth of the frame or more,
 * no side under a quarter of the opposite one, no corner sharper than 45 degrees.
 */
function plausiblePage(quad: Quad, image: GreyImage): boolean {
  const turns = quad.map((point, corner) => turn(point, quad[(corner + 1) % 4]!, quad[(corner + 2) % 4]!));
  if (!(turns.every((value) => value > 0) || turns.every((value) => value < 0))) return false;
  if (quadArea(quad) < image.width * image.height * 0.2) return false;
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  const top = distance(topLeft, topRight);
  const bottom = distance(bottomLeft, bottomRight);
  const left = distance(topLeft, bottomLeft);
  const right = distance(topRight, bottomRight);
  if (Math.min(top, bottom) < Math.max(top, bottom) / 4) return false;
  if (Math.min(left, right) < Math.max(left, right) / 4) return false;
  for (let corner = 0; corner < 4; corner += 1) {
    const previous = quad[(corner + 3) % 4]!;
    const point = quad[corner]!;
    const following = quad[(corner + 1) % 4]!;
    const angle = Math.abs(
      Math.atan2(previous.y - point.y, previous.x - point.x) -
        Math.atan2(following.y - point.y, following.x - point.x),
    );
    const inside = Math.min(angle, 2 * Math.PI - angle);
    if (inside < Math.PI / 4) return false;
  }
  return true;
}

/** The size of the rectangle a page with these corners was: its longer opposite sides. */
export function pageSize(quad: Quad): { width: number; height: number } {
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  return {
    width: Math.round(Math.max(distance(topLeft, topRight), distance(bottomLeft, bottomRight))),
    height: Math.round(Math.max(distance(topLeft, bottomLeft), distance(topRight, bottomRight))),
  };
}

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
