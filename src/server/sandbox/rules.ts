import type { GreyImage } from './grey-image';

// Ruled lines erased from a page's image before tesseract reads it (read-document.ts, a rendered page of a
// scan). A table's border drawn just above or below a line of text made tesseract (one block of text,
// PSM 6) drop that line whole: a report printed by Chromium lost its 'Patient / Ordered by / Collected'
// line under a box's top border, doctor and date with it.
//
// Choices:
// - A rule is a horizontal run of pixels darker than paper (a faint grey rule too: erasing only its
//   darker stretches left a dotted line, worse than the rule; gaps of one pixel bridged, JPEG's and
//   grain's, and once it is long, gaps of a few) at least a sixteenth of the page wide: a rule turned a
//   little (a scan fed askew) stays on one row of pixels only that long, and no word is that long
//   without a gap along one row.
// - Only thin runs go: at most of five points along it, the dark is no thicker than a rule (about 1/250 of
//   the page's width, 10 px at 300 dpi). A letter's stroke is thicker, a shaded band is not dark, and a
//   solid bar (white type on black) is thick: those stay.
// - Each row's run is judged on its own, so a turned rule goes piece by piece.
// - Everything is measured first and erased after, so one rule's erasing does not change the next's. The
//   grey edge a rule has two pixels either side goes too; dark print touching it stays.

/** Darker than paper: a faint grey rule is one too. */
const RULE = 200;
/** Print's dark, which erasing a rule's edge never touches. */
const PRINT = 150;
const SAMPLES = 5;
const LONG_GAP = 12;

export function eraseRules(image: GreyImage): number {
  const { width, height, pixels } = image;
  const minRun = Math.max(60, Math.round(width / 16));
  const maxThick = Math.max(4, Math.round(width / 250));
  const dark = (x: number, y: number) => (pixels[y * width + x] ?? 255) < RULE;
  const print = (x: number, y: number) => (pixels[y * width + x] ?? 255) < PRINT;
  const thickness = (x: number, y: number) => {
    let top = y;
    while (top > 0 && y - top <= maxThick && dark(x, top - 1)) top--;
    let bottom = y;
    while (bottom < height - 1 && bottom - y <= maxThick && dark(x, bottom + 1)) bottom++;
    return bottom - top + 1;
  };
  const runs: { y: number; x0: number; x1: number }[] = [];
  for (let y = 0; y < height; y++) {
    let x = 0;
    while (x < width) {
      if (!dark(x, y)) {
        x++;
        continue;
      }
      const start = x;
      let end = x;
      // Gaps of a pixel bridged; once the run is a rule's length, gaps of a few (its faint end's dashes).
      const bridged = () => {
        const reach = end - start + 1 >= minRun ? LONG_GAP : 2;
        for (let step = 1; step <= reach && end + step < width; step++) if (dark(end + step, y)) return step;
        return 0;
      };
      for (let step = bridged(); step > 0; step = bridged()) end += step;
      x = end + 1;
      if (end - start + 1 < minRun) continue;
      let thin = 0;
      for (let sample = 0; sample < SAMPLES; sample++) {
        const at = start + Math.round(((end - start) * (sample + 0.5)) / SAMPLES);
        if (!dark(at, y) || thickness(at, y) <= maxThick) thin++;
      }
      if (thin >= SAMPLES - 1) runs.push({ y, x0: start, x1: end });
    }
  }
  for (const run of runs) {
    pixels.fill(255, run.y * width + run.x0, run.y * width + run.x1 + 1);
    // The rule's grey edge goes with it (left, grain made it a dotted line that tesseract read as print);
    // dark pixels beside it are print touching the rule, and stay.
    for (const y of [run.y - 2, run.y - 1, run.y + 1, run.y + 2]) {
      if (y < 0 || y >= height) continue;
      for (let x = run.x0; x <= run.x1; x++) if (!print(x, y)) pixels[y * width + x] = 255;
    }
  }
  return runs.length;
}
