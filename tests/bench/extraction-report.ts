import type { DocumentScore, Totals } from '../fixtures/lab-reports/score';

// How the extraction benchmark prints what it measured, for either corpus (extraction.ts, the first
// corpus; extraction-foreign.ts, the foreign producer's): each reading's misses, for tuning, and the
// totals of a group of readings beside their targets (tests/bench/README.md).

export type Reading = { label: string; score: DocumentScore; error: string | null };

export const F1_TARGETS = { text: 0.98, scan: 0.95, photo: 0.85 } as const;
export const AUTO_ACCEPTED_TARGET = 0.99;
export const FOUND_TARGET = 0.95;
const MISSES_SHOWN = 8;

export const percent = (share: number) => (Number.isNaN(share) ? '-' : `${(share * 100).toFixed(1)}%`);
export const fixed = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(3));
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

export function printMisses(readings: Reading[]): void {
  console.log('\nMisses by document (field: expected -> got):');
  let clean = 0;
  for (const reading of readings) {
    const { misses } = reading.score;
    if (misses.length === 0 && !reading.error) {
      clean += 1;
      continue;
    }
    const header: string[] = [];
    if (reading.error) header.push(`ERROR ${reading.error}`);
    if (!reading.score.doctorFound) header.push('doctor not found');
    if (!reading.score.dateFound)
      header.push(reading.score.otherDateGiven ? 'date: gave the report date' : 'date not found');
    console.log(
      `  ${reading.label}: ${misses.length} field misses${header.length ? `; ${header.join('; ')}` : ''}`,
    );
    for (const miss of misses.slice(0, MISSES_SHOWN)) {
      console.log(
        `      ${miss.row} ${miss.field}: ${JSON.stringify(miss.expected)} -> ${JSON.stringify(miss.got)}`,
      );
    }
    if (misses.length > MISSES_SHOWN) console.log(`      ... and ${misses.length - MISSES_SHOWN} more`);
    // What confidence must catch: wrong rows a person would not be asked to look at.
    for (const row of reading.score.acceptedWrong)
      console.log(
        `      accepted without review, wrong: ${row.name} ${JSON.stringify(row.value)} ${JSON.stringify(row.unit)} ` +
          `${JSON.stringify(row.flag)} ${JSON.stringify(row.reference_range)}`,
      );
  }
  console.log(`  (${clean} of ${readings.length} readings without a miss)`);
}

/** One group's totals on two lines; `targeted` marks each figure met or not. */
export function printTotals(
  kind: keyof typeof F1_TARGETS,
  group: string,
  totals: Totals,
  targeted: boolean,
): void {
  if (totals.documents === 0) return;
  const target = F1_TARGETS[kind];
  const mark = (met: boolean) => (targeted ? ` (${verdict(met)})` : '');
  console.log(
    `  ${kind.padEnd(5)} ${group.padEnd(8)} ${String(totals.documents).padStart(2)} docs  ` +
      `P ${fixed(totals.precision)}  R ${fixed(totals.recall)}  F1 ${fixed(totals.f1)} [target >= ${target}${mark(totals.f1 >= target)}]`,
  );
  console.log(
    `${' '.repeat(18)}auto-accepted ${totals.autoAccepted} rows, precision ${fixed(totals.autoAcceptedPrecision)}` +
      ` [>= ${AUTO_ACCEPTED_TARGET}${mark(!(totals.autoAcceptedPrecision < AUTO_ACCEPTED_TARGET))}]` +
      `  doctor ${percent(totals.doctorFound)}${mark(totals.doctorFound >= FOUND_TARGET)}` +
      `  date ${percent(totals.dateFound)}${mark(totals.dateFound >= FOUND_TARGET)} [>= ${percent(FOUND_TARGET)}]`,
  );
}
