import zipcodes from 'zipcodes';
import type { Speciality } from '../../domain/directory';
import { doctorTaxonomy, isPharmacyTaxonomy, normaliseTaxonomyCode } from './taxonomy';

// One row of the NPPES "NPI Registry" data file (npidata_pfile_*.csv, one row per NPI, about 330 columns)
// turned into a directory row, or the reason it is not one. The column names are the file's own, spelled
// exactly as its header row does; the header decides where each one is.
//
// What becomes what: an individual (Entity Type Code 1) whose taxonomy maps to a speciality is a doctor;
// an organisation (2) with a pharmacy taxonomy (3336...) is a pharmacy; everything else (deactivated
// NPIs, other taxonomies, practices outside the US) is skipped, which is normal and not an error. A row
// that claims to be one of ours but lacks what a directory row needs is malformed.

export const NPPES_COLUMNS = {
  npi: 'NPI',
  entityType: 'Entity Type Code',
  organisationName: 'Provider Organization Name (Legal Business Name)',
  lastName: 'Provider Last Name (Legal Name)',
  firstName: 'Provider First Name',
  middleName: 'Provider Middle Name',
  // 'Provider Name Prefix Text' ("DR.", "MS.") is not read: the directory shows names without titles.
  nameSuffix: 'Provider Name Suffix Text',
  credential: 'Provider Credential Text',
  addressLine1: 'Provider First Line Business Practice Location Address',
  addressLine2: 'Provider Second Line Business Practice Location Address',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
  postalCode: 'Provider Business Practice Location Address Postal Code',
  countryCode: 'Provider Business Practice Location Address Country Code (If outside U.S.)',
  telephone: 'Provider Business Practice Location Address Telephone Number',
  deactivationDate: 'NPI Deactivation Date',
  reactivationDate: 'NPI Reactivation Date',
  /** Named "Provider Gender Code" in older files; either is read. */
  sex: 'Provider Sex Code',
} as const;
const OLD_SEX_COLUMN = 'Provider Gender Code';
/** The file has 15 taxonomy slots: Code_1 ... Code_15, each with a Primary Taxonomy Switch (Y, N or X). */
export const TAXONOMY_SLOTS = 15;
export const taxonomyCodeColumn = (slot: number) => `Healthcare Provider Taxonomy Code_${slot}`;
export const taxonomySwitchColumn = (slot: number) => `Healthcare Provider Primary Taxonomy Switch_${slot}`;

type ColumnKey = keyof typeof NPPES_COLUMNS;
/** Columns that may be absent: the row is still readable without them (the file has them all). */
const OPTIONAL_COLUMNS: ReadonlySet<ColumnKey> = new Set([
  'middleName',
  'nameSuffix',
  'credential',
  'addressLine2',
  'countryCode',
  'telephone',
  'reactivationDate',
  'sex',
]);

/** Where each column is in a row (-1: not in this file), and how many fields a row has. */
export type NppesColumnIndex = {
  fieldCount: number;
  at: Record<ColumnKey, number>;
  taxonomies: { code: number; primarySwitch: number }[];
};

export class NppesHeaderError extends Error {}

/** Reads the header row; throws NppesHeaderError naming every needed column it lacks. */
export function nppesColumnIndex(header: string[]): NppesColumnIndex {
  const position = new Map<string, number>();
  header.forEach((name, index) => {
    const trimmed = name.trim();
    if (!position.has(trimmed)) position.set(trimmed, index);
  });
  const missing: string[] = [];
  const at = {} as Record<ColumnKey, number>;
  for (const [key, name] of Object.entries(NPPES_COLUMNS) as [ColumnKey, string][]) {
    let index = position.get(name);
    if (index === undefined && key === 'sex') index = position.get(OLD_SEX_COLUMN);
    if (index === undefined && !OPTIONAL_COLUMNS.has(key)) missing.push(name);
    at[key] = index ?? -1;
  }
  const taxonomies: NppesColumnIndex['taxonomies'] = [];
  for (let slot = 1; slot <= TAXONOMY_SLOTS; slot += 1) {
    const code = position.get(taxonomyCodeColumn(slot));
    const primarySwitch = position.get(taxonomySwitchColumn(slot));
    // The first slot is needed; later ones are read when the file has them.
    if (slot === 1 && code === undefined) missing.push(taxonomyCodeColumn(slot));
    if (slot === 1 && primarySwitch === undefined) missing.push(taxonomySwitchColumn(slot));
    if (code !== undefined) taxonomies.push({ code, primarySwitch: primarySwitch ?? -1 });
  }
  if (missing.length > 0) {
    throw new NppesHeaderError(
      `The NPPES header row lacks ${missing.length === 1 ? 'the column' : 'the columns'} ${missing
        .map((name) => `"${name}"`)
        .join(', ')} (is this the npidata_pfile CSV?).`,
    );
  }
  return { fieldCount: header.length, at, taxonomies };
}

/** A doctor as the directory_doctors table holds it (the column names, for jsonb_to_recordset). */
export type DoctorRow = {
  npi: string;
  name: string;
  speciality: Speciality;
  qualifications: string;
  gender: 'Male' | 'Female' | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
};

export type PharmacyRow = {
  npi: string;
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
  open_24_hours: true | null;
};

export type NppesOutcome =
  | { kind: 'doctor'; row: DoctorRow }
  | { kind: 'pharmacy'; row: PharmacyRow }
  | { kind: 'skipped'; reason: string }
  | { kind: 'malformed'; reason: string };

const malformed = (reason: string): NppesOutcome => ({ kind: 'malformed', reason });
const skipped = (reason: string): NppesOutcome => ({ kind: 'skipped', reason });

/** Classifies one data row of the file, read with the header's column index. */
export function nppesRecordToRow(fields: string[], columns: NppesColumnIndex): NppesOutcome {
  if (fields.length !== columns.fieldCount) {
    return malformed(`has ${fields.length} fields, the header has ${columns.fieldCount}`);
  }
  const value = (key: ColumnKey): string => {
    const index = columns.at[key];
    return index < 0 ? '' : (fields[index] ?? '').trim();
  };

  const npi = value('npi');
  if (!/^\d{10}$/.test(npi)) return malformed(`NPI "${npi.slice(0, 20)}" is not 10 digits`);
  // A deactivated NPI's row is blank but for the NPI and the date: look at it before anything else.
  if (isDeactivated(value('deactivationDate'), value('reactivationDate'))) return skipped('deactivated');

  const entityType = value('entityType');
  if (entityType !== '1' && entityType !== '2') {
    return malformed(`Entity Type Code "${entityType.slice(0, 10)}" is neither 1 nor 2`);
  }
  const country = value('countryCode').toUpperCase();
  if (country !== '' && country !== 'US') return skipped('practice outside the US');

  const taxonomies = readTaxonomies(fields, columns);
  if (entityType === '1') {
    const chosen = chooseDoctorTaxonomy(taxonomies);
    if (!chosen) return skipped('no directory speciality among the taxonomies');
    const location = readLocation(value);
    if ('problem' in location) return malformed(location.problem);
    const lastName = value('lastName');
    const firstName = value('firstName');
    if (!lastName || !firstName) return malformed('the provider has no first or last name');
    const name = [firstName, value('middleName'), lastName].filter(Boolean).map(personNameCase).join(' ');
    const suffix = value('nameSuffix');
    const row: DoctorRow = {
      npi,
      name: suffix ? `${name} ${suffixCase(suffix)}` : name,
      speciality: chosen.speciality,
      qualifications: qualificationsOf(value('credential'), chosen.descriptions),
      gender: genderOf(value('sex')),
      ...location,
    };
    return { kind: 'doctor', row };
  }

  if (!taxonomies.some((taxonomy) => isPharmacyTaxonomy(taxonomy.code))) {
    return skipped('an organisation that is not a pharmacy');
  }
  const location = readLocation(value);
  if ('problem' in location) return malformed(location.problem);
  const organisationName = value('organisationName');
  if (!organisationName) return malformed('the organisation has no name');
  const row: PharmacyRow = {
    npi,
    name: organisationNameCase(organisationName),
    ...location,
    open_24_hours: OPEN_24_HOURS.test(organisationName) ? true : null,
  };
  return { kind: 'pharmacy', row };
}

/** "24 HOUR", "24 Hours", "24-hr", "24HR": the name says so. Otherwise the file cannot tell. */
const OPEN_24_HOURS = /\b24[\s-]*(?:hours?|hrs?)\b/i;

type Taxonomy = { code: string; primary: boolean };

function readTaxonomies(fields: string[], columns: NppesColumnIndex): Taxonomy[] {
  const taxonomies: Taxonomy[] = [];
  for (const slot of columns.taxonomies) {
    const code = normaliseTaxonomyCode(fields[slot.code] ?? '');
    if (!code) continue;
    const primarySwitch = slot.primarySwitch < 0 ? '' : (fields[slot.primarySwitch] ?? '');
    taxonomies.push({ code, primary: primarySwitch.trim().toUpperCase() === 'Y' });
  }
  return taxonomies;
}

/**
 * The primary taxonomy (switch Y) decides the speciality when the directory knows it; otherwise the
 * first one it knows (a hospitalist who is also an internist is listed as an internist). The NUCC
 * wording of every known taxonomy held goes into the qualifications, the chosen one first.
 */
function chooseDoctorTaxonomy(
  taxonomies: Taxonomy[],
): { speciality: Speciality; descriptions: string[] } | undefined {
  const known = taxonomies.flatMap((taxonomy) => {
    const mapped = doctorTaxonomy(taxonomy.code);
    return mapped ? [{ ...mapped, primary: taxonomy.primary }] : [];
  });
  const chosen = known.find((taxonomy) => taxonomy.primary) ?? known[0];
  if (!chosen) return undefined;
  const descriptions = [chosen.description];
  for (const taxonomy of known) {
    if (!descriptions.includes(taxonomy.description)) descriptions.push(taxonomy.description);
  }
  return { speciality: chosen.speciality, descriptions };
}

/** "MD; Internal Medicine, Cardiovascular Disease" (as the schema describes the column). */
function qualificationsOf(credential: string, descriptions: string[]): string {
  const credentialText = credential.replace(/\s+/g, ' ');
  return [credentialText, descriptions.join(', ')].filter(Boolean).join('; ');
}

function genderOf(code: string): DoctorRow['gender'] {
  const upper = code.toUpperCase();
  if (upper === 'M') return 'Male';
  if (upper === 'F') return 'Female';
  return null; // blank, or "X" (unspecified) in newer files
}

type Location = Pick<DoctorRow, 'address' | 'city' | 'state' | 'zip' | 'phone' | 'latitude' | 'longitude'>;

function readLocation(value: (key: ColumnKey) => string): Location | { problem: string } {
  const line1 = value('addressLine1');
  const city = value('city');
  const state = value('state').toUpperCase();
  const postalCode = value('postalCode');
  if (!line1) return { problem: 'no practice address' };
  if (!city) return { problem: 'no practice city' };
  if (!state) return { problem: 'no practice state' };
  if (!postalCode) return { problem: 'no practice zip code' };
  if (!/^(\d{5}|\d{9})$/.test(postalCode)) {
    return { problem: `zip code "${postalCode.slice(0, 20)}" is not 5 or 9 digits` };
  }
  const zip = postalCode.slice(0, 5);
  const line2 = value('addressLine2');
  const place = zipcodes.lookup(zip);
  return {
    address: addressCase(line2 ? `${line1}, ${line2}` : line1),
    city: placeNameCase(city),
    state,
    zip,
    phone: formatPhone(value('telephone')),
    latitude: place?.latitude ?? null,
    longitude: place?.longitude ?? null,
  };
}

/** Ten digits as (555) 123-4567; a leading 1 is dropped; anything else is not a phone we can show. */
export function formatPhone(text: string): string | null {
  let digits = text.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10) return null;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** An NPPES deactivation stands unless a reactivation date after it says the NPI is back. */
function isDeactivated(deactivation: string, reactivation: string): boolean {
  if (!deactivation) return false;
  const deactivatedOn = parseNppesDate(deactivation);
  const reactivatedOn = parseNppesDate(reactivation);
  if (deactivatedOn === null || reactivatedOn === null) return true;
  return reactivatedOn <= deactivatedOn;
}

/** The file writes dates as MM/DD/YYYY; YYYY-MM-DD is read too. A number to compare, or null. */
function parseNppesDate(text: string): number | null {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (us) return Number(us[3]) * 10_000 + Number(us[1]) * 100 + Number(us[2]);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return Number(iso[1]) * 10_000 + Number(iso[2]) * 100 + Number(iso[3]);
  return null;
}

// ---- Readable case: the file is upper case ("JANE A SMITH", "123 MAIN ST STE 200") ----

/** A lower-case letter, ASCII or not ("ñ"): what starts upper case at the beginning of a run. */
function isLetter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code >= 97 && code <= 122) return true;
  if (code < 128) return false;
  const character = text.charAt(at);
  return character !== character.toUpperCase();
}

/**
 * Each letter run starts upper case ("SMITH-JONES" -> "Smith-Jones", "1ST" -> "1st"); after an
 * apostrophe only when one letter comes before it ("O'BRIEN" -> "O'Brien", but "WOMEN'S" -> "Women's").
 * A loop, not regular expressions with callbacks: it runs for millions of names and addresses.
 */
function wordCase(word: string): string {
  const lower = word.toLowerCase();
  let result = '';
  let runStart = true; // the next letter starts a run
  let lettersInRun = 0;
  for (let at = 0; at < lower.length; at += 1) {
    const character = lower.charAt(at);
    if (isLetter(lower, at)) {
      result += runStart ? character.toUpperCase() : character;
      runStart = false;
      lettersInRun += 1;
      continue;
    }
    result += character;
    const code = lower.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      runStart = false; // "1st", "4th"
      lettersInRun = 0;
    } else if (character === "'") {
      runStart = lettersInRun === 1;
    } else {
      runStart = true;
      lettersInRun = 0;
    }
  }
  return result;
}

const ROMAN_NUMERAL = /^(?:I{1,3}|IV|V|VI{1,3}|IX|X)$/i;

/** A person's name: "MCDONALD" -> "McDonald", "DE LA CRUZ" -> "De La Cruz", "II" stays. */
function personNameCase(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => {
      if (word.length > 1 && ROMAN_NUMERAL.test(word)) return word.toUpperCase();
      const cased = wordCase(word);
      return cased.length > 3 && cased.startsWith('Mc') ? `Mc${wordCase(cased.slice(2))}` : cased;
    })
    .join(' ');
}

/** "JR." -> "Jr.", "III" stays. */
function suffixCase(suffix: string): string {
  return ROMAN_NUMERAL.test(suffix.replace(/\.$/, '')) ? suffix.toUpperCase() : wordCase(suffix);
}

/** Words kept as written: compass points, and the acronyms of business names. */
const KEEP_UPPER = new Set([
  'N',
  'S',
  'E',
  'W',
  'NE',
  'NW',
  'SE',
  'SW',
  'PO',
  'US',
  'USA',
  'LLC',
  'PLLC',
  'LLP',
  'LP',
  'PC',
  'PA',
  'DBA',
  'CVS',
  'HEB',
  'UCLA',
  'UCSF',
  'NYU',
  'II',
  'III',
  'IV',
]);

/** Short words that read lower case inside a name: "Rite Aid of Ohio", "Center for Eye Care". */
const SMALL_WORDS = new Set(['OF', 'AND', 'THE', 'FOR', 'AT', 'IN', 'ON']);

/** The letters of a word, upper case: what the acronym lists are checked against ("L.L.C." -> "LLC"). */
const lettersOf = (word: string) => word.replace(/[^A-Za-z]/g, '').toUpperCase();

function casedWords(text: string, keep: (letters: string) => boolean): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words
    .map((word, index) => {
      const upper = word.toUpperCase();
      if (keep(lettersOf(word))) return upper;
      if (index > 0 && SMALL_WORDS.has(upper)) return word.toLowerCase();
      return wordCase(word);
    })
    .join(' ');
}

/** "123 MAIN ST NW, STE 200" -> "123 Main St NW, Ste 200"; "PO BOX 12" keeps "PO". */
function addressCase(address: string): string {
  return casedWords(address, (letters) => KEEP_UPPER.has(letters));
}

function placeNameCase(city: string): string {
  return casedWords(city, () => false);
}

/** "CVS PHARMACY #1234" -> "CVS Pharmacy #1234"; "RX" -> "Rx". */
function organisationNameCase(name: string): string {
  // A word with no vowel of three letters or more ("LLC", "HCPS") is an acronym.
  return casedWords(name, (letters) => KEEP_UPPER.has(letters) || /^[^AEIOUY]{3,}$/.test(letters));
}
