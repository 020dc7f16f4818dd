import { ANALYTES, LAB_PANELS, type Analyte, type LabPanel } from './lab-analytes-table';

// Looking up an analyte by the name a lab printed, and the unit it printed, through OCR's usual confusions.
//
// Choices:
// - Names are compared by a key that ignores case, punctuation and spacing and folds the characters OCR
//   mixes up (l, I, i, 1 and | are one character; O and 0 another), so 'HbAlc', 'HBA1C' and 'Hb A1c' are one
//   key. Folding both sides the same way can only merge two names that differ by those characters alone.
// - A printed name that is not found as is is tried again without what labs add around a name: a
//   parenthesis ('(Calc)', '(NIH)'), a specimen word ('Serum'), with 'Bilirubin, Total' turned around, and
//   last as the parenthesis alone ('Glycated (HbA1c)').
// - A name shared by two analytes (Neutrophils as a percentage and as a count, Glucose in blood and in urine)
//   resolves by the unit printed beside it, then by whether the value is a word (a urine dipstick reads
//   'Negative'), then by the table's order.
// - Units are compared by a key too ('x10E3/uL', '10^3/µL' and 'K/uL' are one unit), and 'ulU' reads 'uIU'.

export { ANALYTES, LAB_PANELS, type Analyte, type LabPanel };

/** The key two printed names share when they name the same thing, through OCR's confusions. */
export function nameKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[µμ]/g, 'u')
    .replace(/[il1|!]/g, '1')
    .replace(/[o0]/g, '0')
    .replace(/[^a-z0-9%#]/g, '');
}

/** The key two printed units share when they are the same unit. */
export function unitKey(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[µμ]/g, 'u')
      .replace(/mcg/g, 'ug')
      .replace(/(^|[um/])lu/g, '$1iu')
      .replace(/\s+/g, '')
      .replace(/^x/, '')
      // OCR reads the caret of '10^3' as 7, 2, 5, a dash, a slash, a quote or a degree sign, or loses it,
      // and the litre's L after it as 1 ('x1029/1' is x10^9/L).
      .replace(/^(10[7"'°*^25~/-]?(?:12|[369])\/)[1|]\.?$/, '$1l')
      .replace(/^(10[7"'°*^25~/-]?(?:12|[369])\/l)\.$/, '$1')
      .replace(/^10[7"'°*^25~/-]?(12|[369])\//, '10^$1/')
      .replace(/(?:10[*^e]?3|thou(?:sand)?s?)\//g, 'k/')
      .replace(/(?:10[*^e]?6|mil(?:lion)?s?)\//g, 'm/')
      .replace(/(?:10[*^e]?9)\/l$/, 'k/ul')
      .replace(/(?:10[*^e]?12)\/l$/, 'm/ul')
      .replace(/(?:cumm|mm3|cmm)$/, 'ul')
      .replace(/\/hr$/, '/h')
      .replace(/^(?:sec|secs|seconds)$/, 's')
  );
}

// What labs print around an analyte's name: the specimen, the method, how it was worked out.
const DECORATIONS =
  /\b(?:(?:serum|plasma|whole blood|blood)(?:\s+or\s+(?:serum|plasma))?|calc|calculated|measured|automated(?: count)?|auto|manual|level|quant|quantitative|s|p)\b/gi;
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bhgb\b/gi, 'Hemoglobin'],
  [/\bconc\b/gi, 'Concentration'],
  [/\bchol\b/gi, 'Cholesterol'],
  [/\babs\b/gi, 'Absolute'],
  [/\bpercent(?:\s+of\s+(?:leukocytes|wbcs?|white blood cells))?\b/gi, '%'],
  [/\babsolute\s+count\b/gi, 'Absolute'],
];

function expanded(text: string): string {
  return ABBREVIATIONS.reduce((result, [pattern, full]) => result.replace(pattern, full), text);
}

const byName = new Map<string, Analyte[]>();
const byCode = new Map<string, Analyte>();
for (const entry of ANALYTES) {
  byCode.set(entry.code, entry);
  for (const printed of [entry.name, ...entry.synonyms]) {
    for (const key of [nameKey(printed), nameKey(expanded(printed))]) {
      const list = byName.get(key) ?? [];
      if (!list.includes(entry)) list.push(entry);
      byName.set(key, list);
    }
  }
}

// The printed name and the forms labs add around a name, most faithful first.
function nameVariants(printed: string): string[] {
  const trimmed = printed.replace(/[.:*]+$/, '').trim();
  const withoutParenthesis = trimmed.replace(/\([^)]*\)?/g, ' ');
  const bare = (text: string) => expanded(text).replace(DECORATIONS, ' ');
  const variants: string[] = [];
  const shortened: string[] = [];
  for (const text of [trimmed, withoutParenthesis, bare(withoutParenthesis), bare(trimmed)]) {
    // 'Bilirubin, Total' is 'Total Bilirubin'; 'Glucose, Fasting' is 'Glucose Fasting'.
    const parts = text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    variants.push(parts.join(' '), [...parts].reverse().join(' '));
    // 'Thyroxine, Free, Direct' is 'Thyroxine Free': a last part of a few words may be a method or specimen.
    for (let keep = parts.length - 1; keep >= 1; keep--) {
      if (parts.slice(keep).join(' ').split(/\s+/).length > 3) break;
      shortened.push(parts.slice(0, keep).join(' '), parts.slice(0, keep).reverse().join(' '));
    }
  }
  // 'Glycated Hemoglobin (HbA1c)': the abbreviation in the parenthesis may be the name the table knows.
  for (const match of trimmed.matchAll(/\(([^)]+)\)/g)) variants.push(match[1] ?? '');
  // Last, the name with its last parts dropped ('Sodium, Serum or Plasma'), once every whole form failed.
  variants.push(...shortened);
  return variants;
}

export type AnalyteHint = {
  /** The unit printed beside the name. */
  unit?: string;
  /** The value is a word ('Negative', 'Yellow'), not a number. */
  qualitative?: boolean;
};

/** The analyte a printed name (and, when given, its unit) means, or null. */
export function findAnalyte(printedName: string, hint: AnalyteHint = {}): Analyte | null {
  for (const variant of nameVariants(printedName)) {
    const key = nameKey(variant);
    const candidates = key.length > 0 ? byName.get(key) : undefined;
    if (candidates) return chooseCandidate(candidates, hint);
  }
  return null;
}

function chooseCandidate(candidates: Analyte[], hint: AnalyteHint): Analyte {
  let chosen = candidates;
  const narrow = (keep: (entry: Analyte) => boolean) => {
    const kept = chosen.filter(keep);
    if (kept.length > 0) chosen = kept;
  };
  const unit = hint.unit?.trim();
  if (unit) narrow((entry) => acceptedUnit(entry, unit) !== null);
  if (hint.qualitative !== undefined) narrow((entry) => Boolean(entry.qualitative) === hint.qualitative);
  return chosen[0] as Analyte;
}

/**
 * The analyte whose name is one or two characters away from the printed one ('COo2' for CO2), when exactly
 * one is: OCR's misreading, for the person to confirm. Short names must match closer than long ones.
 */
export function findAnalyteNear(printedName: string, hint: AnalyteHint = {}): Analyte | null {
  const key = nameKey(printedName.replace(/\([^)]*\)?/g, ' '));
  if (key.length < 4) return null;
  const allowed = key.length >= 8 ? 2 : 1;
  let best: { distance: number; entries: Analyte[] } = { distance: allowed + 1, entries: [] };
  for (const [candidate, entries] of byName) {
    if (Math.abs(candidate.length - key.length) > allowed) continue;
    const distance = editDistance(key, candidate);
    if (distance < best.distance) best = { distance, entries: [...entries] };
    else if (distance === best.distance)
      best.entries.push(...entries.filter((entry) => !best.entries.includes(entry)));
  }
  const codes = new Set(best.entries.map((entry) => entry.code));
  if (best.entries.length === 0) return null;
  const chosen = chooseCandidate(best.entries, hint);
  // Two analytes equally near ('Lymphs' and 'Monos' are both far from 'Lymos'): no guess.
  return codes.size === 1 ||
    best.entries.every((entry) => entry.name.split(' ')[0] === chosen.name.split(' ')[0])
    ? chosen
    : null;
}

/** Levenshtein's distance: the fewest characters inserted, deleted or replaced to turn one text into the other. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export function analyteByCode(code: string): Analyte | null {
  return byCode.get(code) ?? null;
}

/** The table's spelling of a printed unit and its factor to the analyte's usual unit, or null when not accepted. */
export function acceptedUnit(entry: Analyte, printedUnit: string): { unit: string; factor: number } | null {
  const key = unitKey(printedUnit);
  if (key === unitKey(entry.unit)) return { unit: entry.unit, factor: 1 };
  for (const [unit, factor] of entry.otherUnits) {
    if (unitKey(unit) === key) return { unit: factor === 1 ? entry.unit : unit, factor };
  }
  return null;
}

const ALL_UNIT_KEYS = new Set(
  ANALYTES.flatMap((entry) => [entry.unit, ...entry.otherUnits.map(([unit]) => unit)])
    .filter((unit) => unit.length > 0)
    .map(unitKey),
);
const UNIT_SHAPE =
  /^(?:%|[a-zµμ]{1,5}\/[a-zµμ0-9.^*]{1,8}(?:\/[a-z0-9.]+)?|x?10[\^*eE]?\d{1,2}\/[a-zµμ]{1,3}|[a-z]{1,3}\/(?:hpf|lpf)|\/(?:hpf|lpf|ul|µl)|fl|pg|mm\/hr?|sec|s|ratio|index)$/i;

/** Whether a printed word is a unit (one the table knows, or one shaped like a unit). */
export function looksLikeUnit(text: string): boolean {
  const trimmed = text.trim();
  return ALL_UNIT_KEYS.has(unitKey(trimmed)) || UNIT_SHAPE.test(trimmed);
}

/** The report's type from the analytes found: the smallest panel holding (nearly) all of them. */
export function suggestReportType(codes: readonly string[]): string | null {
  const known = [...new Set(codes)].filter((code) => byCode.has(code));
  if (known.length === 0) return null;
  const members = (panel: LabPanel) => ANALYTES.filter((entry) => entry.panels.includes(panel)).length;
  let best: { panel: LabPanel; size: number } | null = null;
  for (const panel of LAB_PANELS) {
    const inPanel = known.filter((code) => byCode.get(code)?.panels.includes(panel)).length;
    // One stray result in ten does not make a panel a mixed report.
    if (inPanel < known.length * 0.9) continue;
    const size = members(panel);
    if (!best || size < best.size) best = { panel, size };
  }
  return best?.panel ?? 'Blood Test';
}
