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
// - Each row's run is judged on its own, so a turned rule goes piece by piece. Vertical rules (a grid's
//   cell borders, which tesseract read as letters or let run two columns' text together) go the same way,
//   when longer than a thirtieth of the page's height: two lines of print, longer than any letter.
// - Everything is measured first and erased after, so one rule's erasing does not change the next's. The
//   grey edge a rule has two pixels either side goes too; dark print touching it stays.

/** Darker than paper: a faint grey rule is one too. */
const RULE = 200;
/** Print's dark, which erasing a rule's edge never touches. */
const PRINT = 150;
const SAMPLES = 5;
const LONG_GAP = 12;

type Run = { line: number; from: number; to: number; across: boolean };

/**
 * The thin runs along one direction: rows (`across`, horizontal rules) or columns (vertical ones). `line`
 * is the row or column, `from` and `to` the run's ends along it.
 */
function runsOf(image: GreyImage, across: boolean, minRun: number, maxThick: number): Run[] {
  const { width, height, pixels } = image;
  const [lines, length] = across ? [height, width] : [width, height];
  // Pixel `at` of line `line` is pixels[line * lineStep + at * step]: written out, as this runs for every
  // pixel of a page twice.
  const [lineStep, step] = across ? [width, 1] : [1, width];
  // How thick the dark is at a point, measured across the run's direction.
  const thickness = (line: number, at: number) => {
    const along = at * step;
    let low = line;
    while (low > 0 && line - low <= maxThick && pixels[(low - 1) * lineStep + along]! < RULE) low--;
    let high = line;
    while (high < lines - 1 && high - line <= maxThick && pixels[(high + 1) * lineStep + along]! < RULE)
      high++;
    return high - low + 1;
  };
  const runs: Run[] = [];
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    let at = 0;
    while (at < length) {
      if (pixels[base + at * step]! >= RULE) {
        at++;
        continue;
      }
      const start = at;
      let end = at;
      // Gaps of a pixel bridged; once the run is a rule's length, gaps of a few (its faint end's dashes).
      for (;;) {
        const reach = Math.min(end - start + 1 >= minRun ? LONG_GAP : 2, length - 1 - end);
        let next = 0;
        for (let gap = 1; gap <= reach; gap++)
          if (pixels[base + (end + gap) * step]! < RULE) {
            next = gap;
            break;
          }
        if (next === 0) break;
        end += next;
      }
      at = end + 1;
      if (end - start + 1 < minRun) continue;
      let thin = 0;
      for (let sample = 0; sample < SAMPLES; sample++) {
        const point = start + Math.round(((end - start) * (sample + 0.5)) / SAMPLES);
        if (pixels[base + point * step]! >= RULE || thickness(line, point) <= maxThick) thin++;
      }
      if (thin >= SAMPLES - 1) runs.push({ line, from: start, to: end, across });
    }
  }
  return runs;
}

export function eraseRules(image: GreyImage): number {
  const { width, height, pixels } = image;
  const maxThick = Math.max(4, Math.round(width / 250));
  const runs = [
    ...runsOf(image, true, Math.max(60, Math.round(width / 16)), maxThick),
    // A vertical rule (a grid's cell borders) is found longer than two lines of print, a letter's stem never.
    ...runsOf(image, false, Math.max(60, Math.round(height / 30)), maxThick),
  ];
  for (const run of runs) {
    const index = (line: number, at: number) => (run.across ? line * width + at : at * width + line);
    const lines = run.across ? height : width;
    for (let at = run.from; at <= run.to; at++) pixels[index(run.line, at)] = 255;
    // The rule's grey edge goes with it (left, grain made it a dotted line that tesseract read as print);
    // dark pixels beside it are print touching the rule, and stay.
    for (const line of [run.line - 2, run.line - 1, run.line + 1, run.line + 2]) {
      if (line < 0 || line >= lines) continue;
      for (let at = run.from; at <= run.to; at++)
        if ((pixels[index(line, at)] ?? 255) >= PRINT) pixels[index(line, at)] = 255;
    }
  }
  return runs.length;
}
