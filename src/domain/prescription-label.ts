// The text OCR gives for a pharmacy label or a paper prescription, read into the fields of the
// prescription form so the person only has to check them. OCR text is noisy (wrong case, lines broken in two,
// O for 0 and l for 1 in numbers, stray punctuation), so each field is read by a rule that tolerates it, and a
// field that is not found stays null for the person to fill in. Nothing here throws.
//
// Choices:
// - The medicine is the drug line: the first line with a strength ('500 MG'), else the first with a form word
//   ('TABLETS'), that is not the directions or a labelled field. Its name is the text before the strength
//   without form words, in title case, with chemical and release abbreviations as pharmacists write them
//   ('METFORMIN HCL ER 500 MG TAB' -> 'Metformin HCl ER'). When the strength and form are on a line of their
//   own, the name is the line before.
// - The form is the drug line's form word, else the one the directions name ('Take 1 capsule').
// - The directions are the line that starts with 'Sig:', 'Directions:' or a verb (Take, Apply, Inhale...) and
//   the lines that continue it, joined, in sentence case.
// - The prescriber keeps 'Dr.' only when the text says Dr, Doctor, MD or DO: 'Prescriber: Jane Smith, NP' is
//   'Jane Smith, NP', 'DR. JANE SMITH' and 'Jane Smith MD' are 'Dr. Jane Smith'; 'SMITH, JANE' is 'Jane Smith'.
// - The pharmacy is a known chain's name ('CVS/PHARMACY #1234' -> 'CVS Pharmacy') or a line with the word
//   pharmacy, cut after that word ('SUNRISE PHARMACY 12 MAIN ST' -> 'Sunrise Pharmacy').

export const MEDICINE_FORMS = [
  'tablet',
  'capsule',
  'liquid',
  'injection',
  'inhaler',
  'cream',
  'drops',
  'patch',
  'other',
] as const;
export type MedicineForm = (typeof MEDICINE_FORMS)[number];

export type LabelReading = {
  medicine_name: string | null;
  /** As written for people: '500 mg', '0.5 mg', '10 mg/5 mL', '5-325 mg', '1%'. */
  strength: string | null;
  form: MedicineForm | null;
  /** The directions (sig), its lines joined, in sentence case. */
  directions: string | null;
  quantity: number | null;
  /** 'NO REFILLS' is 0. */
  refills: number | null;
  prescriber: string | null;
  pharmacy: string | null;
  rx_number: string | null;
  /** How many of the fields above were found. */
  fields_found: number;
};

export const LABEL_MAX_LENGTH = 20_000;

// Form words, the more specific first ('ophthalmic solution' is drops, not a liquid).
const FORM_WORDS: [MedicineForm, RegExp][] = [
  ['drops', /\b(?:drops?|gtts?|ophthalmic|ophth|otic|eye drops|ear drops)\b/i],
  ['injection', /\b(?:injections?|injectable|inj|vials?|pens?|syringes?|prefilled|auto-?injector)\b/i],
  ['inhaler', /\b(?:inhalers?|inhalation aerosol|aerosol|inh|hfa|mdi|diskus|respimat|ellipta)\b/i],
  ['patch', /\b(?:patch|patches|transdermal)\b/i],
  ['cream', /\b(?:creams?|ointments?|oint|gel|lotion|crm)\b/i],
  ['capsule', /\b(?:capsules?|caps?|cap)\b/i],
  ['tablet', /\b(?:tablets?|tabs?|tab|caplets?|tb|chewable|odt)\b/i],
  ['liquid', /\b(?:liquid|solution|soln|sol|suspension|susp|syrup|elixir|oral solution)\b/i],
  ['other', /\b(?:suppositor(?:y|ies)|spray|nasal spray|powder|lozenges?|films?|granules|kit)\b/i],
];
const ANY_FORM_WORD = new RegExp(FORM_WORDS.map(([, pattern]) => pattern.source).join('|'), 'gi');
// Words that say how a form is given: taken out of the name with the form word.
const ROUTE_WORDS =
  /\b(?:oral|by mouth|po|for oral use|for injection|for inhalation|nasal|vaginal|rectal)\b/gi;

const UNIT = String.raw`(?:mcg|µg|ug|mg|meq|g|gm|ml|l|units?|iu|%)`;
const NUMBER = String.raw`(?:\d+(?:[.,]\d+)?|[.,]\d+)`;
// '500 MG', '0.5mg', '10 MG/5 ML', '5-325 MG', '1%', '100 units/mL', '0.1 mg/24 hr'.
const STRENGTH = new RegExp(
  String.raw`(?<![\w.])(${NUMBER}(?:\s*[-/]\s*${NUMBER}){0,3})\s*(${UNIT})(?:\s*\/\s*(${NUMBER})?\s*(${UNIT}|hr|h|actuation|spray|dose))?(?![a-z])`,
  'i',
);

const DIRECTION_VERBS =
  /^(?:take|taking|give|apply|use|inhale|instill|place|insert|inject|chew|dissolve|spray|put|rub|swallow|mix|gargle|rinse|shake|dissolve|drink|sig|directions?|instructions?)\b/i;
const DIRECTION_WORDS =
  /\b(?:daily|day|times|hours?|hrs?|morning|evening|night|bedtime|meals?|food|needed|prn|with|before|after|until|then|mouth|water|pain|bid|tid|qid|qd|qhs|hs|po|every|each|twice|once|as|for|weekly|affected|area|eyes?|ears?)\b/i;
// Lines that name another field or that no field comes from.
const OTHER_KEYS =
  /^(?:qty|quantity|disp|dispense|refills?|no refills|date|filled|fill date|ndc|mfg|mfr|manufacturer|made by|exp|expires|expiration|discard|use by|use before|patient|pt|name|dob|date of birth|pharmacist|rph|prescriber|prescribed|physician|doctor|provider|dr|phone|ph|tel|fax|address|warning|caution|keep|store|generic for|substituted|sub for|original|orig|npi|dea|lot|price|copay|insurance|ins)\b/i;
const ADDRESS =
  /\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|suite|ste|lane|ln|highway|hwy|nw|ne|sw|se|p\.?o\.? box)\b|\b\d{5}(?:-\d{4})?$/i;
const WARNING = /\b(?:may cause|do not|caution|warning|drowsiness|alcohol|keep out|federal law)\b/i;

// Known chains, as they write their own names.
const PHARMACY_CHAINS: [RegExp, string][] = [
  [/\bcvs\b/i, 'CVS Pharmacy'],
  [/\bwalgreens?\b/i, 'Walgreens'],
  [/\brite\s*aid\b/i, 'Rite Aid'],
  [/\bwal-?mart\b/i, 'Walmart Pharmacy'],
  [/\bcostco\b/i, 'Costco Pharmacy'],
  [/\bkroger\b/i, 'Kroger Pharmacy'],
  [/\bsafeway\b/i, 'Safeway Pharmacy'],
  [/\bpublix\b/i, 'Publix Pharmacy'],
  [/\bduane\s*reade\b/i, 'Duane Reade'],
  [/\bh-?e-?b\b/i, 'H-E-B Pharmacy'],
  [/\bmeijer\b/i, 'Meijer Pharmacy'],
  [/\bhy-?vee\b/i, 'Hy-Vee Pharmacy'],
  [/\bexpress\s*scripts\b/i, 'Express Scripts'],
  [/\boptum\s*rx\b/i, 'Optum Rx'],
  [/\bshoppers\s*drug\s*mart\b/i, 'Shoppers Drug Mart'],
  [/\bboots\b/i, 'Boots'],
  [/\blloyds\s*pharmacy\b/i, 'LloydsPharmacy'],
];
const PHARMACY_WORD = /\b(?:pharmacy|pharmacies|chemists?|drug\s*store|drugstore|apothecary)\b/i;

// Abbreviations kept as pharmacists write them in a medicine's name.
const NAME_ABBREVIATIONS: Record<string, string> = {
  hcl: 'HCl',
  hbr: 'HBr',
  er: 'ER',
  xr: 'XR',
  sr: 'SR',
  xl: 'XL',
  cr: 'CR',
  dr: 'DR',
  ir: 'IR',
  la: 'LA',
  cd: 'CD',
  ec: 'EC',
  odt: 'ODT',
  hctz: 'HCTZ',
  hfa: 'HFA',
  dm: 'DM',
  ds: 'DS',
  pf: 'PF',
  ii: 'II',
};
const RELEASE_WORDS =
  /\b(?:er|xr|sr|xl|cr|dr|ir|la|ec|odt|extended[- ]release|delayed[- ]release|24\s*hr)\b/i;

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  none: 0,
  no: 0,
  nr: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

const DOCTOR_CREDENTIALS = /^(?:md|m\.d\.?|do|d\.o\.?|dds|dmd|dpm|mbbs|mbchb)$/i;
const OTHER_CREDENTIALS = /^(?:np|pa|pa-c|fnp|fnp-c|fnp-bc|aprn|cnp|crnp|rn|pharmd|od|dnp|anp|acnp)$/i;

// eslint-disable-next-line no-control-regex -- OCR output can hold control characters; they become spaces
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/g;

/** Fixes what OCR does to numbers and words: 5OO -> 500, 6O -> 60, l0 -> 10, METFORMlN -> METFORMIN. */
function fixOcr(line: string): string {
  return (
    line
      // A run of digits and look-alike letters with at least one digit is a number.
      .replace(/(?<![A-Za-z0-9])[0-9OoIl|]*[0-9][0-9OoIl|]*(?:[.,][0-9OoIl|]+)?(?![A-Za-z0-9])/g, toDigits)
      .replace(
        /(?<![A-Za-z0-9])[0-9OoIl|]*[0-9][0-9OoIl|]*(?:[.,][0-9OoIl|]+)?(?=\s*(?:mcg|mg|ml|g|units?|%))/gi,
        toDigits,
      )
      // A lone l, I or O before a unit or a form word is a count: 'Take l tablet', 'QTY: O'.
      .replace(/(?<![A-Za-z0-9])[lI|](?=\s+(?:tablets?|tabs?|capsules?|caps?|puffs?|drops?|mg|ml)\b)/gi, '1')
      // In a word of capitals, a lower-case l inside is an I, and 0 and 1 between letters are O and I.
      .replace(/\b[A-Z][A-Za-z01]*[A-Za-z]\b/g, (word) => {
        const capitals = word.replace(/[^A-Z]/g, '').length;
        if (capitals < 3 || /[a-km-z]/.test(word)) return word;
        return word
          .replace(/(?<=[A-Z])l(?=[A-Z])/g, 'I')
          .replace(/(?<=[A-Z])0(?=[A-Z])/g, 'O')
          .replace(/(?<=[A-Z])1(?=[A-Z])/g, 'I');
      })
  );
}

function toDigits(token: string): string {
  return token.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1');
}

function titleCaseWord(word: string): string {
  const known = NAME_ABBREVIATIONS[word.toLowerCase()];
  if (known) return known;
  if (/\d/.test(word)) return word.toUpperCase(); // B12, D3
  return word
    .toLowerCase()
    .replace(/(^|[-'/])([a-z])/g, (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}

function titleCase(text: string): string {
  return text.split(/\s+/).filter(Boolean).map(titleCaseWord).join(' ');
}

function personName(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) =>
      word
        .toLowerCase()
        .replace(
          /(^|[-'])([a-z])/g,
          (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
        )
        .replace(/^Mc([a-z])/, (_, letter: string) => `Mc${letter.toUpperCase()}`),
    )
    .join(' ');
}

function sentenceCase(text: string): string {
  const lower = text.toLowerCase().replace(/\s+/g, ' ').trim();
  return lower
    .replace(
      /(^|[.!?]\s+)([a-z])/g,
      (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
    )
    .replace(/\bml\b/g, 'mL');
}

function parseCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const word = NUMBER_WORDS[value.toLowerCase()];
  if (word !== undefined) return word;
  const number = Number(toDigits(value).replace(',', '.'));
  return Number.isFinite(number) && number >= 0 && number <= 100_000 ? number : null;
}

/** The strength as people write it, and where it is on the line. */
function readStrength(line: string): { strength: string; index: number; length: number } | null {
  const match = STRENGTH.exec(line);
  if (!match) return null;
  const [whole, amount = '', unit = '', perAmount, perUnit] = match;
  // '1,000 units' is a thousand; '0,5 mg' (a decimal comma) is a half.
  const number = (value: string) =>
    value
      .replace(/\s+/g, '')
      .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
      .replace(/,/g, '.')
      .replace(/(^|[-/])\./g, '$10.');
  const unitText = (value: string) => {
    const lower = value.toLowerCase();
    if (lower === 'ml') return 'mL';
    if (lower === 'l') return 'L';
    if (lower === 'ug' || lower === 'µg') return 'mcg';
    if (lower === 'gm') return 'g';
    if (lower === 'unit') return 'units';
    if (lower === 'iu') return 'IU';
    if (lower === 'meq') return 'mEq';
    return lower;
  };
  const first = unitText(unit);
  let strength = first === '%' ? `${number(amount)}%` : `${number(amount)} ${first}`;
  if (perUnit) strength += `/${perAmount ? `${number(perAmount)} ` : ''}${unitText(perUnit)}`;
  return { strength, index: match.index, length: whole.length };
}

function formOf(text: string): MedicineForm | null {
  for (const [form, pattern] of FORM_WORDS) if (pattern.test(text)) return form;
  return null;
}

function isDirectionsStart(line: string): boolean {
  if (OTHER_KEYS.test(line)) return false; // 'USE BY 01/01/27' is a date
  if (DIRECTION_VERBS.test(line)) return true;
  // '1 TAB PO BID': a count, a form word and how often.
  return (
    /^\d+(?:[.,]\d+)?\s*(?:-\s*\d+\s*)?[a-z]+/i.test(line) &&
    formOf(line) !== null &&
    DIRECTION_WORDS.test(line) &&
    !STRENGTH.test(line)
  );
}

function isPharmacyLine(line: string): boolean {
  if (DIRECTION_VERBS.test(line) || /\b(?:your|call|ask|pharmacist)\b/i.test(line)) return false;
  return PHARMACY_WORD.test(line) || PHARMACY_CHAINS.some(([pattern]) => pattern.test(line));
}

function readPharmacy(line: string): string | null {
  const labelled = /^pharmacy\s*[:-]\s*(.+)$/i.exec(line);
  const text = labelled?.[1] ?? line;
  for (const [pattern, name] of PHARMACY_CHAINS) if (pattern.test(text)) return name;
  // Up to the first number, '#', comma or phone, and after the word pharmacy when it is not the first word.
  let name = text.split(/[#,|(]|\d|\s-\s|\btel\b|\bph\b|\bphone\b/i)[0] ?? '';
  const word = /\b(?:pharmacy|pharmacies|chemists?|drug\s*store|drugstore|apothecary)\b/i.exec(name);
  if (word && word.index > 0) name = name.slice(0, word.index + word[0].length);
  name = name.replace(/[^A-Za-z'&.\-\s]/g, ' ').trim();
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 6) return null;
  return titleCase(name.replace(/\//g, ' '));
}

function readPrescriber(line: string): string | null {
  const labelled =
    /^(?:prescriber|prescribed by|prescribing (?:doctor|physician|provider)|physician|doctor|provider|md)\s*[:.\-#]?\s*(.+)$/i.exec(
      line,
    );
  const titled = /(?:^|\bby\s+)(dr\.?|doctor)\s+([a-z][a-z.'\-\s,]*)/i.exec(line);
  const signed = /^([A-Za-z][A-Za-z.'\-\s]+?),?\s+(m\.?d\.?|d\.?o\.?)$/i.exec(line);
  let text: string | undefined;
  let doctor = false;
  if (labelled?.[1]) text = labelled[1];
  else if (titled?.[2]) {
    text = titled[2];
    doctor = true;
  } else if (signed?.[1]) {
    text = `${signed[1]} ${signed[2]}`;
  }
  if (!text) return null;
  if (/^(?:dr\.?|doctor)\s+/i.test(text)) {
    doctor = true;
    text = text.replace(/^(?:dr\.?|doctor)\s+/i, '');
  }
  // The name ends where numbers and other labels begin ('DR. LEE 555-1234', 'DR SMITH NPI 123').
  text = text.split(/\d|\b(?:npi|dea|phone|ph|tel|fax|date|license|lic)\b|[:#(]/i)[0] ?? '';
  const words = text.replace(/[,]/g, ' , ').split(/\s+/).filter(Boolean);
  const credentials: string[] = [];
  const nameWords: string[] = [];
  let comma = -1;
  for (const word of words) {
    if (word === ',') {
      if (comma < 0 && nameWords.length > 0) comma = nameWords.length;
      continue;
    }
    const bare = word.replace(/\.$/, '');
    if (DOCTOR_CREDENTIALS.test(word) || DOCTOR_CREDENTIALS.test(bare)) {
      doctor = true;
      continue;
    }
    if (OTHER_CREDENTIALS.test(bare)) {
      credentials.push(bare.toUpperCase().replace('PHARMD', 'PharmD'));
      continue;
    }
    if (!/^[A-Za-z][A-Za-z.'-]*$/.test(word)) break;
    nameWords.push(word);
  }
  // 'SMITH, JANE' is Jane Smith.
  let ordered = nameWords;
  if (comma > 0 && comma < nameWords.length)
    ordered = [...nameWords.slice(comma), ...nameWords.slice(0, comma)];
  ordered = ordered.slice(0, 4);
  if (ordered.length === 0) return null;
  const name = personName(ordered.join(' '));
  if (doctor) return `Dr. ${name}`;
  return credentials.length > 0 ? `${name}, ${credentials.join(', ')}` : name;
}

function readQuantity(line: string): number | null {
  const match =
    /\b(?:qty|quantity|disp|dispense|dispensed)\b\.?\s*[:.#=]?\s*#?\s*([0-9OoIl|]+(?:[.,]\d+)?)(?![0-9]|\s*[/-]\s*\d)/i.exec(
      line,
    ) ?? /^#\s*([0-9OoIl|]+)\b/.exec(line);
  return parseCount(match?.[1]);
}

function readRefills(line: string): number | null {
  if (
    /\bno\s+(?:more\s+)?refills?\b|\brefills?\s*[:-]?\s*(?:none|nr|no|zero)\b|\bnon-?refillable\b/i.test(line)
  )
    return 0;
  const after =
    /\brefills?(?:\s+(?:left|remaining|authorized|allowed|available))?\s*[:\-#=]?\s*(?:x\s*)?([0-9OoIl|]{1,2}|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?![A-Za-z0-9])/i.exec(
      line,
    );
  if (after) return parseCount(after[1]);
  const before =
    /\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+refills?\b/i.exec(line) ??
    /\bmay refill\s*(?:x\s*)?(\d{1,2})\b/i.exec(line);
  return parseCount(before?.[1]);
}

function readRxNumber(line: string): string | null {
  const match =
    /(?:\b(?:rx|prescription)|℞)\s*(?:#|no\.?|num(?:ber)?\.?)?\s*[:#]?\s*#?\s*([0-9][0-9-]{3,}[0-9])(?![0-9])/i.exec(
      line,
    );
  return match?.[1] ?? null;
}

const EMPTY: LabelReading = {
  medicine_name: null,
  strength: null,
  form: null,
  directions: null,
  quantity: null,
  refills: null,
  prescriber: null,
  pharmacy: null,
  rx_number: null,
  fields_found: 0,
};

/** Reads OCR text of a pharmacy label or a paper prescription into the fields of the prescription form. */
export function readPrescriptionLabel(text: string): LabelReading {
  if (typeof text !== 'string') return { ...EMPTY };
  const lines = text
    .slice(0, LABEL_MAX_LENGTH)
    .replace(CONTROL_CHARACTERS, ' ')
    .split(/\r\n|\r|\n/)
    .map((line) =>
      fixOcr(line)
        .replace(/[^\S\n]+/g, ' ')
        .replace(/^[\s,;:*_~`'"|•·-]+|[\s,;*_~`'"|•·-]+$/g, '')
        .trim(),
    )
    .filter((line) => /[A-Za-z0-9]/.test(line));

  const reading: LabelReading = { ...EMPTY };
  const used = new Set<number>();

  lines.forEach((line) => {
    reading.rx_number ??= readRxNumber(line);
    reading.quantity ??= readQuantity(line);
    reading.refills ??= readRefills(line);
  });

  // The directions: the first line that starts them and the lines that continue them.
  const start = lines.findIndex(isDirectionsStart);
  if (start >= 0) {
    const parts = [lines[start]?.replace(/^(?:sig|directions?|instructions?)\s*[:.-]?\s*/i, '') ?? ''];
    used.add(start);
    for (let index = start + 1; index < lines.length && index <= start + 3; index += 1) {
      const line = lines[index] ?? '';
      const continues =
        !OTHER_KEYS.test(line) &&
        !WARNING.test(line) &&
        !isDirectionsStart(line) &&
        !isPharmacyLine(line) &&
        !readStrength(line) &&
        readRxNumber(line) === null &&
        (DIRECTION_WORDS.test(line) || /^[a-z]/.test(line));
      if (!continues) break;
      parts.push(line);
      used.add(index);
    }
    const joined = parts.join(' ').replace(/\s+/g, ' ').trim();
    if (/[A-Za-z]/.test(joined)) reading.directions = sentenceCase(joined);
  }

  for (const [index, line] of lines.entries()) {
    if (used.has(index)) continue;
    if (reading.pharmacy === null && isPharmacyLine(line) && !readStrength(line)) {
      reading.pharmacy = readPharmacy(line);
      if (reading.pharmacy) used.add(index);
    }
    reading.prescriber ??= readPrescriber(line);
  }

  readMedicine(lines, used, reading);
  if (reading.form === null && reading.directions)
    reading.form = formOf(reading.directions.replace(/\bpo\b/gi, ''));

  reading.fields_found = (Object.keys(EMPTY) as (keyof LabelReading)[]).filter(
    (key) => key !== 'fields_found' && reading[key] !== null,
  ).length;
  return reading;
}

/** The drug line: its name, strength and form. */
function readMedicine(lines: string[], used: Set<number>, reading: LabelReading): void {
  const candidates = lines
    .map((line, index) => ({ index, line: line.replace(/^(?:rx|℞)\s*[:.]?\s*(?=[A-Za-z0-9])/i, '') }))
    .filter(
      ({ index, line }) =>
        !used.has(index) &&
        !OTHER_KEYS.test(line) &&
        !WARNING.test(line) &&
        !isPharmacyLine(line) &&
        !ADDRESS.test(line) &&
        readRxNumber(lines[index] ?? '') === null,
    );
  // A strength and a form word, else a strength, else a form word: '100 G STREET' is not a medicine.
  const drug =
    candidates.find(({ line }) => readStrength(line) !== null && formOf(line) !== null) ??
    candidates.find(({ line }) => readStrength(line) !== null) ??
    candidates.find(({ line }) => formOf(line) !== null);
  if (!drug) return;

  const strength = readStrength(drug.line);
  reading.strength = strength?.strength ?? null;
  reading.form = formOf(drug.line);

  const before = strength ? drug.line.slice(0, strength.index) : drug.line;
  const after = strength ? drug.line.slice(strength.index + strength.length) : '';
  const cleanName = (value: string) =>
    value
      .replace(/(?:\bqty\b|\bquantity\b|#).*$/i, '')
      .replace(/\([^)]*\)/g, ' ')
      .replace(ANY_FORM_WORD, ' ')
      .replace(ROUTE_WORDS, ' ')
      .replace(/[^A-Za-z0-9\-/'\s]/g, ' ')
      .replace(/(?<![A-Za-z])\d+(?![A-Za-z])/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  let name = cleanName(before);
  if (name && strength) {
    // Release words written after the strength belong to the name: 'METFORMIN 500 MG ER TAB'.
    const release = after.match(new RegExp(RELEASE_WORDS.source, 'gi')) ?? [];
    if (release.length > 0 && !RELEASE_WORDS.test(name)) name = `${name} ${release.join(' ')}`;
  }
  if (!name) name = cleanName(after);
  if (!name) {
    // The strength on a line of its own: the name is on the line before.
    const previous = lines[drug.index - 1];
    if (
      previous !== undefined &&
      !used.has(drug.index - 1) &&
      !OTHER_KEYS.test(previous) &&
      !isPharmacyLine(previous)
    ) {
      name = cleanName(previous);
      if (reading.form === null) reading.form = formOf(previous);
    }
  }
  reading.medicine_name = /[A-Za-z]{2}/.test(name) ? titleCase(name) : null;
}
