import type { GreyImage } from './grey-image';

// Ruled lines erased from a page's image before tesseract reads it (read-document.ts, a rendered page of a
// scan). A table's border drawn just above or below a line of text made tesseract (one block of text,
// PSM 6) drop that line whole: a report printed by Chromium lost its 'Patient / Ordered by / Collected'
// line under a box's top border, doctor and date with it.
//
// Choices:
// - A rule is a horizontal run of dark pixels (gaps of one pixel bridged, JPEG's and grain's) at least an
//   eighth of the page wide: no word is that long without a gap.
// - Only thin runs go: at most of five points along it, the dark is no thicker than a rule (about 1/250 of
//   the page's width, 10 px at 300 dpi). A letter's stroke is thicker, a shaded band is not dark, and a
//   solid bar (white type on black) is thick: those stay.
// - Each row's run is judged on its own, so a rule turned a little (a scan fed askew) goes too.
// - Everything is measured first and erased after, so one rule's erasing does not change the next's.

const DARK = 150;
const SAMPLES = 5;

export function eraseRules(image: GreyImage): number {
  const { width, height, pixels } = image;
  const minRun = Math.max(60, Math.round(width / 8));
  const maxThick = Math.max(4, Math.round(width / 250));
  const dark = (x: number, y: number) => (pixels[y * width + x] ?? 255) < DARK;
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
      while (end + 1 < width && (dark(end + 1, y) || (end + 2 < width && dark(end + 2, y)))) end++;
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
  for (const run of runs) pixels.fill(255, run.y * width + run.x0, run.y * width + run.x1 + 1);
  return runs.length;
}
