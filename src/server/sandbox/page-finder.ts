// Where the page lies in a phone photo: its four corners on the surface around it (photo-page.ts
// straightens what they enclose).

import type { Point, Quad } from './homography';
import { otsuThreshold, shrink, type GreyImage } from './grey-image';

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
