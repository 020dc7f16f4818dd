// The projective map between two quadrilaterals: how a page photographed at an angle relates to the page
// itself (photo-page.ts straightens photos with it; the lab-report corpus draws its photos with it).

export type Point = { x: number; y: number };
/** Corners in order: top left, top right, bottom right, bottom left. */
export type Quad = readonly [Point, Point, Point, Point];

/**
 * The 3 x 3 matrix (row major, last entry 1) of the projective map that takes each corner of `from` to the
 * same corner of `to`: eight equations in eight unknowns, solved by Gaussian elimination. Null when the
 * corners are degenerate (three on a line).
 */
export function homography(from: Quad, to: Quad): number[] | null {
  const rows: number[][] = [];
  for (let corner = 0; corner < 4; corner += 1) {
    const { x, y } = from[corner]!;
    const { x: u, y: v } = to[corner]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let column = 0; column < 8; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < 8; row += 1)
      if (Math.abs(rows[row]![column]!) > Math.abs(rows[pivot]![column]!)) pivot = row;
    if (Math.abs(rows[pivot]![column]!) < 1e-12) return null;
    [rows[column], rows[pivot]] = [rows[pivot]!, rows[column]!];
    const lead = rows[column]!;
    for (let row = 0; row < 8; row += 1) {
      if (row === column) continue;
      const current = rows[row]!;
      const factor = current[column]! / lead[column]!;
      if (factor === 0) continue;
      for (let entry = column; entry < 9; entry += 1)
        current[entry] = current[entry]! - factor * lead[entry]!;
    }
  }
  const solution = rows.map((row, index) => row[8]! / row[index]!);
  return [...solution, 1];
}

/** Where the projective map `matrix` takes the point (x, y). */
export function project(matrix: readonly number[], x: number, y: number): Point {
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
  const w = g * x + h * y + i;
  return { x: (a * x + b * y + c) / w, y: (d * x + e * y + f) / w };
}
