import {
  acceptedUnit,
  editDistance,
  findAnalyte,
  findAnalyteNear,
  unitKey,
  type Analyte,
} from './lab-analytes';
import { USUAL_RANGE_FACTOR, USUAL_RANGES } from './lab-analytes-usual-ranges';
import type { LabExtraction, LabFlag } from './lab-results';
import type { PrintedFlag } from './lab-extraction-items';
import type { RawRow } from './lab-extraction-row';

// A row read from the page turned into a result, its value checked against its flag, its range and what is
// physiologically possible, so that what OCR may have misread is shown to the person for review.
//
// Choices:
// - The flag is computed from a numeric value and its range; a printed flag that says otherwise is a review
//   ('250 L' under 70-99). With no printed flag, a value outside the range gets the computed one.
// - A printed '*' or 'A' (abnormal, direction not printed) takes the computed direction; when the value
//   is inside its range, or there is no range to tell, the row is reviewed.
// - A value outside the analyte's plausible range is reviewed; when putting a decimal point back makes it
//   plausible (31 for an A1c of 3.1), the reason says so too.
// - OCR loses decimal points in ranges too ('35-53' for 3.5-5.3): such a range is mended when it can be
//   told for sure, and the row is reviewed either way (checkRange).
// - A unit the analyte is measured in is given as printed ('sec', 'mEq/L', 'Thousand/uL': the report's
//   words, which a person compares with the paper), but where OCR read it in a spelling the analyte table
//   does not list ('ulU/mL'), given as the table spells it. A unit the analyte is not measured in is
//   reviewed; when it is one character away from one it is measured in ('u/iL'), that unit is given,
//   still for review.
// - A range far from the one labs usually print for the analyte (a bound off by a factor of four or more,
//   lab-analytes-usual-ranges.ts) is reviewed: OCR dropped its points and the value's alike ('75' in
//   '40-105' for a WBC of 7.5 in 4.0-10.5), which agree with each other and pass every other check.
// - A number read by OCR with no unit, for a test that has one, is reviewed (the unit was lost, and often
//   more with it); a PDF's own text may leave units out, but not units and range both.
// - A value OCR read four times or more beyond its range's bound is reviewed as outside what is usual
//   (a digit lost or gained: a BUN of '1' under 7-25); a PDF's own text is believed.
// - Any word of the row read with a confidence under 70, or a character read as another to make sense of
//   the row ('1:18' for 1.18), makes the row a review ('low-confidence').

export type ExtractedResult = LabExtraction['lab_results'][number];
type Reason = NonNullable<ExtractedResult['review_reasons']>[number];

const LOW_CONFIDENCE = 70;
/** How far beyond its range an OCR'd value is doubted. */
const FAR_OUT = 4;

export type Bounds = {
  low: number | null;
  high: number | null;
  lowInclusive: boolean;
  highInclusive: boolean;
};

/** The numeric bounds of a printed range, or null when it has none ('Negative'). */
export function boundsOf(range: string): Bounds | null {
  const text = range.replace(/,(?=\d{3}\b)/g, '');
  const interval = /^(\d*\.?\d+)\s*(?:-|–|—|to)\s*(\d*\.?\d+)$/i.exec(text.trim());
  if (interval) {
    return { low: Number(interval[1]), high: Number(interval[2]), lowInclusive: true, highInclusive: true };
  }
  const bound = /^(<=|>=|≤|≥|<|>)\s*(\d*\.?\d+)$/.exec(text.trim());
  if (!bound) return null;
  const limit = Number(bound[2]);
  const sign = bound[1] ?? '';
  if (sign.startsWith('<') || sign === '≤') {
    return { low: null, high: limit, lowInclusive: true, highInclusive: sign !== '<' };
  }
  return { low: limit, high: null, lowInclusive: sign !== '>', highInclusive: true };
}

export const numberOf = (value: string): number | null =>
  /^\d*\.?\d+$/.test(value.trim()) ? Number(value.trim()) : null;

/** 'H', 'L' or '' for a value against its range, or null when that cannot be told. */
export function computeFlag(value: string, range: string): LabFlag | null {
  const number = numberOf(value);
  const bounds = boundsOf(range);
  if (number === null || bounds === null) return null;
  if (bounds.low !== null && (bounds.lowInclusive ? number < bounds.low : number <= bounds.low)) return 'L';
  if (bounds.high !== null && (bounds.highInclusive ? number > bounds.high : number >= bounds.high))
    return 'H';
  return '';
}

const inside = (number: number, [min, max]: readonly [number, number]) => number >= min && number <= max;

// The values a dropped decimal point could have hidden, as printed: '31' -> '3.1', '0.31'... and '40' -> '4.0'.
function withDecimalPoint(value: string): string[] {
  if (!/^\d{2,}$/.test(value)) return [];
  return Array.from(
    { length: value.length - 1 },
    (_, at) => `${value.slice(0, at + 1)}.${value.slice(at + 1)}`,
  );
}

function flagChecks(printed: PrintedFlag, computed: LabFlag | null): { flag: LabFlag; disagrees: boolean } {
  if (printed === 'H' || printed === 'L')
    return { flag: printed, disagrees: computed !== null && computed !== printed };
  if (printed === 'A') return { flag: computed ?? '', disagrees: computed === null || computed === '' };
  return { flag: computed ?? '', disagrees: false };
}

// A whole number outside a range printed with decimals, that a decimal point would put inside it: '54'
// under 4.0-13.0 was 5.4 more often than a patient's value ten times the limit.
function lostPoint(value: string, range: string): boolean {
  const bounds = range.match(/\d*\.?\d+/g) ?? [];
  if (bounds.length === 0 || !bounds.every((bound) => bound.includes('.'))) return false;
  if (computeFlag(value, range) === '' || computeFlag(value, range) === null) return false;
  return withDecimalPoint(value).some((candidate) => computeFlag(candidate, range) === '');
}

type RangeCheck = { range: string; suspect: boolean };

// OCR drops a range's decimal points ('3.5-5.3' read '35-53'): a range with a bound no patient could have,
// or one that a value printed with decimals misses by a factor of five or more while the range has none, is
// suspect. It is mended when putting the points back makes it plausible and holds the value; either way
// the row is reviewed, and a range that cannot be mended computes no flag.
function checkRange(range: string, value: string, belowMax: (n: number) => boolean): RangeCheck {
  const bounds = boundsOf(range);
  const number = numberOf(value);
  if (bounds === null || number === null) return { range, suspect: false };
  const limits = [bounds.low, bounds.high].filter((limit): limit is number => limit !== null);
  // A lost point makes a bound too big; a range may well start at 0, below what a patient can have.
  const implausible = limits.some((limit) => !belowMax(limit));
  // Missing the bound it misses by a factor of five.
  const farOut =
    (bounds.low !== null && number > 0 && bounds.low / number >= 5) ||
    (bounds.high !== null && bounds.high > 0 && number / bounds.high >= 5);
  const valueHasDecimals = value.includes('.');
  const plainRange = range.replace(/,(?=\d{3}\b)/g, '');
  const printedBounds = plainRange.match(/\d*\.?\d+/g) ?? [];
  // '0.0-15', '23-4.2', '00-15': bounds of one range printed to different precision, or with a leading zero.
  const uneven =
    new Set(printedBounds.map((bound) => bound.includes('.'))).size > 1 ||
    printedBounds.some((bound) => /^0\d/.test(bound));
  if (!implausible && !uneven && !(farOut && valueHasDecimals && computeFlag(value, range) !== '')) {
    return { range, suspect: false };
  }
  const options = printedBounds.map((bound) =>
    bound.includes('.') || !valueHasDecimals ? [bound] : withDecimalPoint(bound),
  );
  const combinations = options.reduce<string[][]>(
    (sofar, choices) => sofar.flatMap((prefix) => choices.map((choice) => [...prefix, choice])),
    [[]],
  );
  for (const combination of combinations) {
    let at = 0;
    const mended = plainRange.replace(/\d*\.?\d+/g, () => combination[at++] ?? '');
    const mendedBounds = boundsOf(mended);
    if (!mendedBounds || mended === plainRange) continue;
    const ordered =
      mendedBounds.low === null || mendedBounds.high === null || mendedBounds.low < mendedBounds.high;
    if (
      ordered &&
      combination.every((bound) => belowMax(Number(bound))) &&
      computeFlag(value, mended) === ''
    ) {
      return { range: mended, suspect: true };
    }
  }
  return { range, suspect: true };
}

// A printed range with a bound a factor of USUAL_RANGE_FACTOR or more from the analyte's usual one, both
// in the analyte's usual unit (`factor` converts the printed unit). Bounds of 0 say nothing.
function unusualRange(code: string, range: string, factor: number): boolean {
  const usual = USUAL_RANGES[code];
  const bounds = boundsOf(range);
  if (!usual || !bounds) return false;
  const far = (printed: number | null, typical: number | null) => {
    if (printed === null || typical === null || printed <= 0 || typical <= 0) return false;
    const ratio = (printed * factor) / typical;
    return ratio >= USUAL_RANGE_FACTOR || ratio <= 1 / USUAL_RANGE_FACTOR;
  };
  return far(bounds.low, usual[0]) || far(bounds.high, usual[1]);
}

const spelling = (unit: string) => unit.toLowerCase().replace(/[µμ]/g, 'u').replace(/^x/, '');

// The analyte table's own spelling of a unit OCR read as one of the analyte's units written some way the
// table writes it ('sec', 'mEq/L', 'u/L' for 'U/L'): the report's word, in the table's letters.
function listedSpelling(analyte: Analyte, printed: string): string | null {
  const key = spelling(printed);
  const listed = [analyte.unit, ...analyte.otherUnits.map(([unit]) => unit)].find(
    (unit) => spelling(unit) === key,
  );
  return listed === undefined ? null : `${/^x/i.test(printed) && !/^x/i.test(listed) ? 'x' : ''}${listed}`;
}

// An accepted unit one character away from the printed one ('u/iL' for 'U/L'): OCR's misreading.
function nearUnit(analyte: Analyte, printed: string): string | null {
  const key = unitKey(printed);
  for (const unit of [analyte.unit, ...analyte.otherUnits.map(([other]) => other)]) {
    const target = unitKey(unit);
    if (target.length >= 2 && editDistance(key, target) <= 1)
      return acceptedUnit(analyte, unit)?.unit ?? unit;
  }
  return null;
}

/** The result a row makes, its name and unit as the analyte table spells them, with why it needs review. */
export function resultOf(row: RawRow): ExtractedResult {
  const value = row.value.trim();
  const number = numberOf(value);
  const readByOcr = row.words.some((word) => word.confidence !== null);
  const hint = { unit: row.unit, qualitative: number === null && !/^[<>]/.test(value) };
  const exact = findAnalyte(row.name, hint);
  const analyte = exact ?? findAnalyteNear(row.name, hint);
  const reasons: Reason[] = [];
  // A name read one or two characters off ('COo2') is the analyte's, for the person to confirm.
  if (!exact && analyte) reasons.push('low-confidence');
  if (row.mended || row.words.some((word) => word.confidence !== null && word.confidence < LOW_CONFIDENCE)) {
    reasons.push('low-confidence');
  }
  let unit = row.unit.trim();
  let range = row.range.replace(/\s+/g, ' ').trim();
  let rangeSuspect = false;
  if (!analyte) {
    reasons.push('name-unknown');
  } else {
    const accepted = unit ? acceptedUnit(analyte, unit) : { unit: analyte.unit, factor: 1 };
    // A number with no unit, for a test measured in one, read by OCR: the unit was on the page and was lost
    // with whatever else of the row (a photo's '2.07' with no unit nor range was 1.07 ng/dL).
    // In a PDF's own text a unit may be left out, but not with the range too: a row read with neither
    // lost the line or column that held them (a reference printed under the result, not found).
    if (!unit && analyte.unit && number !== null && (readByOcr || !range)) reasons.push('unit-unexpected');
    if (accepted === null) {
      reasons.push('unit-unexpected');
      unit = nearUnit(analyte, unit) ?? unit;
    } else if (unit && readByOcr) {
      unit = listedSpelling(analyte, unit) ?? accepted.unit;
    }
    const factor = (accepted ?? acceptedUnit(analyte, unit))?.factor ?? 1;
    const plausible = (n: number) => analyte.qualitative === true || inside(n * factor, analyte.plausible);
    if (number !== null && !plausible(number)) {
      reasons.push('value-outside-plausible');
      if (withDecimalPoint(value).map(Number).some(plausible)) reasons.push('decimal-suspect');
    } else if (number !== null && (/^0\d/.test(value) || lostPoint(value, range))) {
      reasons.push('decimal-suspect');
    } else if (accepted !== null) {
      const belowMax = (n: number) => analyte.qualitative === true || n * factor <= analyte.plausible[1];
      ({ range, suspect: rangeSuspect } = checkRange(range, value, belowMax));
      if (rangeSuspect) reasons.push('decimal-suspect');
    }
    if (accepted !== null && unusualRange(analyte.code, range, accepted.factor))
      reasons.push('range-unusual');
  }
  // A number OCR read four times or more beyond its range (a BUN of '1' under 7-25) lost or gained a digit
  // more often than a patient's value is that far out: the person checks the digits.
  const bounds = boundsOf(range);
  if (
    readByOcr &&
    number !== null &&
    bounds !== null &&
    // A range already doubted (its points lost, or far from the usual one) says nothing of the value.
    !reasons.some((reason) =>
      ['value-outside-plausible', 'decimal-suspect', 'range-unusual'].includes(reason),
    ) &&
    ((bounds.low !== null && number * FAR_OUT <= bounds.low) ||
      (bounds.high !== null && number >= bounds.high * FAR_OUT))
  )
    reasons.push('value-outside-plausible');
  // A suspect range that could not be mended tells nothing about the value.
  const mended = range !== row.range.replace(/\s+/g, ' ').trim();
  const computed = rangeSuspect && !mended ? null : computeFlag(value, range);
  const { flag, disagrees } = flagChecks(row.printedFlag, computed);
  if (disagrees) reasons.push('flag-disagrees');
  const result: ExtractedResult = {
    name: analyte
      ? analyte.name
      : row.name
          .replace(/\s+/g, ' ')
          .replace(/[:.]+$/, '')
          .trim(),
    value,
    unit,
    flag,
    reference_range: range,
  };
  if (analyte) result.code = analyte.code;
  result.needs_review = reasons.length > 0;
  if (reasons.length > 0) result.review_reasons = reasons;
  return result;
}
