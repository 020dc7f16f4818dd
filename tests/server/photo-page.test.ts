import { describe, expect, it } from 'vitest';
import { homography, project, type Point, type Quad } from '../../src/server/sandbox/homography';
import { warpQuad, type GreyImage } from '../../src/server/sandbox/grey-image';
import { findPage } from '../../src/server/sandbox/page-finder';
import { evenLight, preparePhoto } from '../../src/server/sandbox/photo-page';
import { eraseRules } from '../../src/server/sandbox/rules';

// A phone photo's page found, straightened and evenly lit (src/server/sandbox/page-finder.ts and
// photo-page.ts), on images drawn here pixel by pixel: a page as a quadrilateral on a darker surface,
// print as dark bars.

/** Whether p is inside the convex quadrilateral (corners in order). */
function inside(quad: Quad, p: Point): boolean {
  let sign = 0;
  for (let corner = 0; corner < 4; corner += 1) {
    const a = quad[corner]!;
    const b = quad[(corner + 1) % 4]!;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

const PAGE_SIZE = { width: 400, height: 520 };
const PAGE_RECTANGLE: Quad = [
  { x: 0, y: 0 },
  { x: PAGE_SIZE.width, y: 0 },
  { x: PAGE_SIZE.width, y: PAGE_SIZE.height },
  { x: 0, y: PAGE_SIZE.height },
];

/** Print on the page, in the page's own coordinates: a bar every 40 units down, the left 60% of a line. */
const isPrint = (page: Point) =>
  page.y % 40 >= 18 && page.y % 40 < 28 && page.x > 40 && page.x < PAGE_SIZE.width * 0.6;

/** A photo: `corners` is where the page lies; `light(x, y)` scales the brightness (1 = full). */
function photo(
  width: number,
  height: number,
  corners: Quad,
  light: (x: number, y: number) => number = () => 1,
  surface = 90,
): GreyImage {
  const toPage = homography(corners, PAGE_RECTANGLE)!;
  const pixels = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      let value = surface;
      if (inside(corners, { x, y })) value = isPrint(project(toPage, x, y)) ? 30 : 235;
      pixels[y * width + x] = value * light(x, y);
    }
  return { width, height, pixels };
}

const SEEN_AT_AN_ANGLE: Quad = [
  { x: 170, y: 110 },
  { x: 610, y: 130 },
  { x: 660, y: 760 },
  { x: 110, y: 730 },
];

describe('the page in a phone photo', () => {
  it('maps each corner of one quadrilateral onto the other', () => {
    const matrix = homography(SEEN_AT_AN_ANGLE, PAGE_RECTANGLE)!;
    SEEN_AT_AN_ANGLE.forEach((corner, index) => {
      const mapped = project(matrix, corner.x, corner.y);
      expect(mapped.x).toBeCloseTo(PAGE_RECTANGLE[index]!.x, 6);
      expect(mapped.y).toBeCloseTo(PAGE_RECTANGLE[index]!.y, 6);
    });
    const collinear: Quad = [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: 2, y: 2 },
      { x: 3, y: 3 },
    ];
    expect(homography(collinear, PAGE_RECTANGLE)).toBeNull();
  });

  it('finds the corners of a page seen at an angle on a darker surface', () => {
    const found = findPage(photo(780, 860, SEEN_AT_AN_ANGLE));
    expect(found).not.toBeNull();
    found!.forEach((corner, index) => {
      expect(Math.abs(corner.x - SEEN_AT_AN_ANGLE[index]!.x)).toBeLessThan(8);
      expect(Math.abs(corner.y - SEEN_AT_AN_ANGLE[index]!.y)).toBeLessThan(8);
    });
  });

  it('keeps the part of the page under a shadow, even where it is darker than the table beside the page', () => {
    // A light table (170); the right side of the photo in shadow (45% of the light), its edge soft.
    const shadow = (x: number) => (x < 420 ? 1 : x > 480 ? 0.45 : 1 - (0.55 * (x - 420)) / 60);
    const found = findPage(photo(780, 860, SEEN_AT_AN_ANGLE, shadow, 170));
    expect(found).not.toBeNull();
    found!.forEach((corner, index) => {
      expect(Math.abs(corner.x - SEEN_AT_AN_ANGLE[index]!.x)).toBeLessThan(10);
      expect(Math.abs(corner.y - SEEN_AT_AN_ANGLE[index]!.y)).toBeLessThan(10);
    });
  });

  it('finds no page in a photo that is all page, nor in one where the bright part is small', () => {
    const wholeFrame: Quad = [
      { x: 0, y: 0 },
      { x: 599, y: 0 },
      { x: 599, y: 799 },
      { x: 0, y: 799 },
    ];
    expect(findPage(photo(600, 800, wholeFrame))).toBeNull();
    const small: Quad = [
      { x: 250, y: 300 },
      { x: 350, y: 300 },
      { x: 350, y: 420 },
      { x: 250, y: 420 },
    ];
    expect(findPage(photo(600, 800, small))).toBeNull();
    expect(preparePhoto(photo(600, 800, small))).toBeNull();
  });

  it('draws the page straight: each line of print lands on one row band again', () => {
    const image = photo(780, 860, SEEN_AT_AN_ANGLE);
    const straight = warpQuad(image, SEEN_AT_AN_ANGLE, PAGE_SIZE.width, PAGE_SIZE.height)!;
    let agree = 0;
    let total = 0;
    for (let y = 2; y < PAGE_SIZE.height - 2; y += 1)
      for (let x = 2; x < PAGE_SIZE.width - 2; x += 1) {
        // Pixels right at a bar's edge are a mix of both; judge the others.
        if ([-2, 2].some((d) => isPrint({ x, y: y + d }) !== isPrint({ x, y }))) continue;
        total += 1;
        const dark = straight.pixels[y * PAGE_SIZE.width + x]! < 128;
        if (dark === isPrint({ x, y })) agree += 1;
      }
    expect(agree / total).toBeGreaterThan(0.99);
  });

  it('evens out the light: shadowed paper becomes as white as lit paper, print stays dark', () => {
    // Lit from the left: the right edge gets 45% of the light.
    const shade = (x: number) => 1 - 0.55 * (x / 780);
    const image = photo(780, 860, SEEN_AT_AN_ANGLE, shade);
    const even = evenLight(image);
    const at = (source: GreyImage, x: number, y: number) => source.pixels[y * source.width + x]!;
    // Paper near the left and near the right edge of the page, on a row between lines of print.
    const toPhoto = homography(PAGE_RECTANGLE, SEEN_AT_AN_ANGLE)!;
    const paperLeft = project(toPhoto, 30, 8);
    const paperRight = project(toPhoto, 370, 8);
    const printLeft = project(toPhoto, 60, 23);
    const [leftX, leftY, rightX, rightY] = [paperLeft.x, paperLeft.y, paperRight.x, paperRight.y].map(
      Math.round,
    );
    expect(at(image, leftX!, leftY!) - at(image, rightX!, rightY!)).toBeGreaterThan(60);
    expect(Math.abs(at(even, leftX!, leftY!) - at(even, rightX!, rightY!))).toBeLessThan(20);
    expect(at(even, Math.round(printLeft.x), Math.round(printLeft.y))).toBeLessThan(80);
  });

  it('prepares a photo of a page as the page alone, larger, on white paper', () => {
    const prepared = preparePhoto(photo(780, 860, SEEN_AT_AN_ANGLE))!;
    expect(prepared).not.toBeNull();
    // The page is drawn about twice its size in the photo (a small page is enlarged for OCR).
    expect(prepared.width).toBeGreaterThan(800);
    // Its shape is the quadrilateral's longer sides: perspective shortens the far edge, which is not
    // undone (text a little narrower or wider than printed reads the same).
    expect(prepared.height / prepared.width).toBeGreaterThan(1);
    // No surface left around it: the corners are paper.
    for (const [x, y] of [
      [6, 6],
      [prepared.width - 7, 6],
      [6, prepared.height - 7],
      [prepared.width - 7, prepared.height - 7],
    ] as const)
      expect(prepared.pixels[y * prepared.width + x]).toBeGreaterThan(200);
  });
});

describe('ruled lines on a scanned page', () => {
  // A page 1000 px wide: 'words' as dark blocks with gaps, a 3 px rule just above them, a rule
  // turned a little, a vertical one, and a solid bar 30 px thick (white type on black), drawn pixel by pixel.
  function page(): GreyImage {
    const width = 1000;
    const height = 200;
    const pixels = new Uint8ClampedArray(width * height).fill(245);
    const fill = (x0: number, y0: number, x1: number, y1: number, value = 20) => {
      for (let y = y0; y < y1; y++) pixels.fill(value, y * width + x0, y * width + x1);
    };
    for (let x = 100; x < 900; x += 40) fill(x, 42, x + 30, 62); // a line of print
    fill(80, 37, 920, 40); // the rule just above it
    for (let x = 80; x < 920; x++)
      fill(x, 100 + Math.floor((x - 80) / 300), x + 1, 102 + Math.floor((x - 80) / 300));
    fill(80, 140, 920, 170); // a solid bar
    fill(950, 65, 953, 136); // a vertical rule (a grid's border)
    return { width, height, pixels };
  }
  const darkIn = (image: GreyImage, y0: number, y1: number) => {
    let count = 0;
    for (let y = y0; y < y1; y++)
      for (let x = 0; x < image.width; x++) if ((image.pixels[y * image.width + x] ?? 255) < 150) count++;
    return count;
  };

  it('erases thin rules, straight, turned a little or vertical, and keeps print and solid bars', () => {
    const image = page();
    const print = darkIn(image, 42, 62);
    const bar = darkIn(image, 140, 170);
    expect(eraseRules(image)).toBeGreaterThan(0);
    expect(darkIn(image, 37, 40)).toBe(0);
    expect(darkIn(image, 98, 106)).toBe(0);
    expect(darkIn(image, 42, 62)).toBe(print);
    expect(darkIn(image, 140, 170)).toBe(bar);
    expect(image.pixels[100 * image.width + 951]).toBe(255);
  });
});
