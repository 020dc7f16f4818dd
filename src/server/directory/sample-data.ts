import zipcodes, { type ZipCode } from 'zipcodes';
import { MILITARY_MAIL_STATES, milesFrom, NEARBY_MILES } from '../../domain/directory';
import { TAXONOMY_SLOTS, taxonomyCodeColumn, taxonomySwitchColumn } from './nppes';

// The sample directory: a made-up file in the NPPES "NPI Registry" format (npidata_pfile), for a fresh
// install (sample.ts imports it at first start), the import's tests and its benchmark (generate-sample.ts
// writes it to a file). Every value is invented; the header names, the column order and the value formats
// (MM/DD/YYYY dates, 9-digit zips, NUCC taxonomy codes, Y/N switches, NPIs with a valid check digit) are
// the real file's. It carries the columns the import reads and their neighbours, not all 330 of the real
// file.
//
// Two parts:
// 1. Coverage: every place of the `zipcodes` table (every US zip of the states, DC, Puerto Rico and the
//    territories; military mail zips name no place) is within COVERAGE_MILES of a "hub" zip that
//    has COVERAGE_DOCTORS doctors and COVERAGE_PHARMACIES pharmacies, so a zip search anywhere finds some.
// 2. Variety: `rows` more rows over big cities and a few zips of every state: many pages of results in a
//    city, and rows the import must skip (deactivated NPIs, other taxonomies, other organisations).
//
// The same arguments give the same rows, byte for byte (a seeded generator, no clock), from the zipcodes
// package's table (its version is pinned in package.json). Rows are made as they are read, so a file of
// millions of rows takes no more memory than one of a thousand.

/** The variety rows of the shipped sample: about 3,000 providers and 400 pharmacies, plus rows to skip. */
export const SAMPLE_VARIETY_ROWS = 3_520;
export const SAMPLE_SEED = 20_240_601;
/** Every zip's hub is at most this far: under the search's radius, so a zip at the edge still finds it. */
export const COVERAGE_MILES = NEARBY_MILES - 5;
export const COVERAGE_DOCTORS = 5;
export const COVERAGE_PHARMACIES = 3;

const HEADER = [
  'NPI',
  'Entity Type Code',
  'Replacement NPI',
  'Employer Identification Number (EIN)',
  'Provider Organization Name (Legal Business Name)',
  'Provider Last Name (Legal Name)',
  'Provider First Name',
  'Provider Middle Name',
  'Provider Name Prefix Text',
  'Provider Name Suffix Text',
  'Provider Credential Text',
  'Provider First Line Business Practice Location Address',
  'Provider Second Line Business Practice Location Address',
  'Provider Business Practice Location Address City Name',
  'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code',
  'Provider Business Practice Location Address Country Code (If outside U.S.)',
  'Provider Business Practice Location Address Telephone Number',
  'Provider Business Practice Location Address Fax Number',
  'Provider Enumeration Date',
  'Last Update Date',
  'NPI Deactivation Reason Code',
  'NPI Deactivation Date',
  'NPI Reactivation Date',
  'Provider Sex Code',
  ...Array.from({ length: TAXONOMY_SLOTS }, (_, index) => [
    taxonomyCodeColumn(index + 1),
    `Provider License Number_${index + 1}`,
    `Provider License Number State Code_${index + 1}`,
    taxonomySwitchColumn(index + 1),
  ]).flat(),
];
const column = (name: string) => {
  const index = HEADER.indexOf(name);
  if (index < 0) throw new Error(`no column ${name}`);
  return index;
};
const COLUMN = {
  npi: column('NPI'),
  entityType: column('Entity Type Code'),
  ein: column('Employer Identification Number (EIN)'),
  organisation: column('Provider Organization Name (Legal Business Name)'),
  lastName: column('Provider Last Name (Legal Name)'),
  firstName: column('Provider First Name'),
  middleName: column('Provider Middle Name'),
  prefix: column('Provider Name Prefix Text'),
  suffix: column('Provider Name Suffix Text'),
  credential: column('Provider Credential Text'),
  line1: column('Provider First Line Business Practice Location Address'),
  line2: column('Provider Second Line Business Practice Location Address'),
  city: column('Provider Business Practice Location Address City Name'),
  state: column('Provider Business Practice Location Address State Name'),
  zip: column('Provider Business Practice Location Address Postal Code'),
  phone: column('Provider Business Practice Location Address Telephone Number'),
  fax: column('Provider Business Practice Location Address Fax Number'),
  enumerated: column('Provider Enumeration Date'),
  updated: column('Last Update Date'),
  deactivationReason: column('NPI Deactivation Reason Code'),
  deactivated: column('NPI Deactivation Date'),
  reactivated: column('NPI Reactivation Date'),
  sex: column('Provider Sex Code'),
  taxonomy: (slot: number) => column(taxonomyCodeColumn(slot)),
  license: (slot: number) => column(`Provider License Number_${slot}`),
  licenseState: (slot: number) => column(`Provider License Number State Code_${slot}`),
  primarySwitch: (slot: number) => column(taxonomySwitchColumn(slot)),
};

// ---- A seeded generator (mulberry32): the same seed, the same file ----

function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const digits = (count: number) => Array.from({ length: count }, () => int(10)).join('');
  return { next, int, pick, digits };
}
type Random = ReturnType<typeof seededRandom>;

/** An NPI: 9 digits and the Luhn check digit computed with the 80840 prefix, as CMS issues them. */
function npiFrom(nineDigits: string): string {
  let sum = 24; // the 80840 prefix's contribution
  for (let index = 0; index < 9; index += 1) {
    let digit = Number(nineDigits[8 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return nineDigits + String((10 - (sum % 10)) % 10);
}

// ---- Places: real zip codes of the `zipcodes` table ----

type Place = { zip: string; city: string; state: string };
const placeOf = (code: ZipCode): Place => ({ zip: code.zip, city: code.city, state: code.state });

/** A zip that names a place: a US zip of the table, except military mail zips (APO, FPO, DPO). */
export const isPlace = (code: ZipCode) => code.country === 'US' && !MILITARY_MAIL_STATES.includes(code.state);

/**
 * The hubs: zips such that every zip that names a place is within COVERAGE_MILES of one (as the search
 * measures it, from the searched zip). Greedy, in zip order: a zip no hub covers yet becomes one. A
 * one-degree grid finds the zips near a hub without comparing every pair: about 1,200 hubs in a tenth of
 * a second.
 */
export function coverageHubs(): ZipCode[] {
  const located = Object.values(zipcodes.codes)
    .filter(isPlace)
    .sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));
  const cellOf = (latitude: number, longitude: number) => `${Math.floor(latitude)},${Math.floor(longitude)}`;
  const grid = new Map<string, number[]>();
  located.forEach((code, index) => {
    const cell = cellOf(code.latitude, code.longitude);
    const members = grid.get(cell);
    if (members) members.push(index);
    else grid.set(cell, [index]);
  });
  const covered = new Uint8Array(located.length);
  const hubs: ZipCode[] = [];
  const latitudeCells = Math.ceil(COVERAGE_MILES / 69);
  located.forEach((hub, hubIndex) => {
    if (covered[hubIndex]) return;
    hubs.push(hub);
    // Near the poles a degree of longitude is short: look as many cells east and west as the radius needs
    // at the hub's latitude and the one nearer the pole.
    const nearerPole = Math.min(89, Math.abs(hub.latitude) + latitudeCells);
    const longitudeCells = Math.ceil(COVERAGE_MILES / (69 * Math.cos((nearerPole * Math.PI) / 180)));
    const row = Math.floor(hub.latitude);
    const column = Math.floor(hub.longitude);
    for (let latitude = row - latitudeCells; latitude <= row + latitudeCells; latitude += 1) {
      for (let longitude = column - longitudeCells; longitude <= column + longitudeCells; longitude += 1) {
        for (const index of grid.get(`${latitude},${longitude}`) ?? []) {
          if (!covered[index] && milesFrom(located[index] as ZipCode, hub) <= COVERAGE_MILES)
            covered[index] = 1;
        }
      }
    }
  });
  return hubs;
}

const BIG_CITY_ZIPS = [
  '10001', '90210', '60601', '94103', '02139', '77002', '85004', '19103', '98101', '80202', '20001',
  '30303', '33130', '55401', '97204', '89101', '48226', '63101', '70112', '96813', '99501', '37203',
  '02108', '78701', '64105', '46204', '43215', '53202', '84101', '87102', '73102', '68102', '50309',
  '28202', '23219', '35203', '40202', '21202', '06103', '04101',
]; // prettier-ignore

const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
]; // prettier-ignore

/** The variety rows' places: big cities first, then three zips of every state. */
function varietyPlaces(random: Random): Place[] {
  const places = new Map<string, Place>();
  const add = (zip: string) => {
    const found = zipcodes.lookup(zip);
    if (found && found.country === 'US') places.set(zip, placeOf(found));
  };
  BIG_CITY_ZIPS.forEach(add);
  for (const state of STATES) {
    const zips = zipcodes
      .lookupByState(state)
      .filter((code) => code.country === 'US')
      .map((code) => code.zip)
      .sort();
    for (let count = 0; count < 3 && zips.length > 0; count += 1) add(random.pick(zips));
  }
  return [...places.values()];
}

// ---- People and businesses ----

const FIRST_NAMES = {
  F: ['MARY', 'PATRICIA', 'JENNIFER', 'LINDA', 'ELIZABETH', 'SUSAN', 'JESSICA', 'SARAH', 'KAREN', 'NANCY',
    'LISA', 'BETTY', 'SANDRA', 'ASHLEY', 'EMILY', 'MICHELLE', 'AMANDA', 'MELISSA', 'REBECCA', 'LAURA',
    'PRIYA', 'MEI', 'FATIMA', 'ANA', 'GRACE', 'CHLOE', 'NGOZI', 'SOFIA', 'AISHA', 'YUKI'],
  M: ['JAMES', 'ROBERT', 'JOHN', 'MICHAEL', 'DAVID', 'WILLIAM', 'RICHARD', 'JOSEPH', 'THOMAS', 'CHARLES',
    'DANIEL', 'MATTHEW', 'ANTHONY', 'MARK', 'STEVEN', 'ANDREW', 'KEVIN', 'BRIAN', 'GEORGE', 'EDWARD',
    'RAJESH', 'WEI', 'AHMED', 'CARLOS', 'HIROSHI', 'OLUWASEUN', 'JOSE', 'DMITRI', 'SEAN', 'LUIS'],
}; // prettier-ignore

const LAST_NAMES = [
  'SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON',
  'MARTIN', 'LEE', 'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS',
  'ROBINSON', 'WALKER', 'YOUNG', 'ALLEN', 'KING', 'WRIGHT', 'SCOTT', 'TORRES', 'NGUYEN', 'HILL', 'FLORES',
  'GREEN', 'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA', 'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS',
  "O'BRIEN", 'MCDONALD', 'PATEL', 'SHAH', 'KIM', 'CHEN', 'WANG', 'SINGH', 'KOWALSKI', 'OKAFOR',
  'DE LA CRUZ', 'SMITH-JONES', 'MACKENZIE', 'FITZGERALD', 'VAN DYKE', 'ABERNATHY', 'NAKAMURA', 'COHEN',
  'ROSENBERG', 'MURPHY',
]; // prettier-ignore

const STREETS = ['MAIN', 'OAK', 'MAPLE', 'PARK', 'WASHINGTON', 'LAKE', 'HILL', 'ELM', 'PINE', 'CEDAR',
  'MEDICAL CENTER', 'BROADWAY', 'HOSPITAL', 'UNIVERSITY', '1ST', '2ND', '5TH', 'LINCOLN', 'JEFFERSON',
  'RIVERSIDE', 'SUNSET', 'MARKET', 'CHURCH', 'HIGHLAND', 'CENTRAL']; // prettier-ignore
const STREET_KINDS = ['ST', 'AVE', 'BLVD', 'DR', 'RD', 'WAY', 'PKWY', 'LN', 'CT'];
const DIRECTIONS = ['', '', '', '', 'N ', 'S ', 'E ', 'W ', 'NW ', 'SE '];

/** Taxonomy code, credentials that go with it, and how often (weight). */
type Kind = { codes: string[]; credentials: string[]; weight: number; secondary?: string[] };
const PROVIDER_KINDS: Kind[] = [
  { codes: ['207Q00000X'], credentials: ['MD', 'M.D.', 'DO'], weight: 14, secondary: ['207QS0010X', '207QG0300X'] },
  { codes: ['207R00000X'], credentials: ['MD', 'M.D.', 'DO'], weight: 12, secondary: ['207RH0002X'] },
  { codes: ['207RC0000X', '207RI0011X', '207RC0001X'], credentials: ['MD', 'M.D., F.A.C.C.'], weight: 5, secondary: ['207R00000X'] },
  { codes: ['208D00000X'], credentials: ['MD', 'DO'], weight: 3 },
  { codes: ['363L00000X', '363LF0000X', '363LA2200X', '363LP0808X'], credentials: ['NP', 'APRN, FNP-C', 'FNP-BC', 'CRNP'], weight: 14 },
  { codes: ['363A00000X', '363AM0700X'], credentials: ['PA-C', 'PA'], weight: 7 },
  { codes: ['2084P0800X', '2084P0804X'], credentials: ['MD', 'DO'], weight: 4 },
  { codes: ['2084N0400X'], credentials: ['MD'], weight: 2 },
  { codes: ['207V00000X', '207VG0400X'], credentials: ['MD', 'DO', 'MD, FACOG'], weight: 4 },
  { codes: ['208000000X', '2080P0202X'], credentials: ['MD', 'DO'], weight: 6 },
  { codes: ['1223G0001X', '122300000X', '1223P0221X', '1223X0400X'], credentials: ['DDS', 'DMD'], weight: 8 },
  { codes: ['152W00000X'], credentials: ['OD', 'O.D.'], weight: 3 },
  { codes: ['213E00000X'], credentials: ['DPM'], weight: 2 },
  { codes: ['103T00000X', '103TC0700X'], credentials: ['PHD', 'PSYD', 'PH.D.'], weight: 3 },
  { codes: ['111N00000X'], credentials: ['DC', 'D.C.'], weight: 2 },
  { codes: ['225100000X', '2251X0800X'], credentials: ['PT', 'DPT', 'PT, DPT'], weight: 4 },
  { codes: ['207N00000X'], credentials: ['MD'], weight: 2 },
  { codes: ['207X00000X', '207XS0117X'], credentials: ['MD', 'DO'], weight: 2 },
  { codes: ['207RG0100X', '207RE0101X', '207RP1001X', '207RN0300X', '207RR0500X', '207RI0200X', '207RX0202X'], credentials: ['MD'], weight: 5 },
  { codes: ['207W00000X', '207Y00000X', '208800000X', '208600000X', '2085R0202X', '207P00000X', '207L00000X', '207K00000X', '208100000X'], credentials: ['MD', 'DO'], weight: 6 },
]; // prettier-ignore
/** Individuals the directory leaves out: pathologists, hospitalists, nurse anaesthetists, social workers, pharmacists. */
const UNMAPPED_CODES = ['207ZP0102X', '208M00000X', '367500000X', '1041C0700X', '183500000X'];

const PHARMACY_CODES = ['3336C0003X', '3336C0003X', '3336C0003X', '3336C0003X', '333600000X', '3336L0003X',
  '3336S0011X', '3336H0001X', '3336M0002X', '3336C0004X']; // prettier-ignore
const OTHER_ORGANISATIONS: [string, string][] = [
  ['GENERAL HOSPITAL', '282N00000X'],
  ['FAMILY HEALTH CENTER, LLC', '261QP2300X'],
  ['HOME HEALTH SERVICES INC', '251E00000X'],
  ['MEDICAL SUPPLY CO', '332B00000X'],
  ['AMBULANCE SERVICE', '3416A0800X'],
];

function pharmacyName(random: Random, place: Place): string {
  const city = place.city.toUpperCase();
  const last = random.pick(LAST_NAMES);
  const store = 1000 + random.int(9000);
  return random.pick([
    `CVS PHARMACY, INC. #${store}`,
    `WALGREEN CO. #${store}`,
    `${city} DRUG`,
    `${last} FAMILY PHARMACY`,
    `${last}'S APOTHECARY LLC`,
    `RITE AID OF ${place.state} INC`,
    'KROGER LIMITED PARTNERSHIP I',
    `WAL-MART STORES EAST, LP #${store}`,
    `${city} 24 HOUR PHARMACY`,
    `MEDICINE SHOPPE #${store}`,
    `${city} COMPOUNDING CENTER`,
    `HEALTH MART ${last} RX`,
    `24HR CARE PHARMACY ${store}`,
  ]);
}

// ---- Rows ----

type Row = string[];

function usDate(random: Random, fromYear: number, toYear: number): string {
  const month = String(1 + random.int(12)).padStart(2, '0');
  const day = String(1 + random.int(28)).padStart(2, '0');
  return `${month}/${day}/${fromYear + random.int(toYear - fromYear + 1)}`;
}

function fillLocation(row: Row, random: Random, place: Place): void {
  const number = 1 + random.int(9999);
  row[COLUMN.line1] =
    `${number} ${random.pick(DIRECTIONS)}${random.pick(STREETS)} ${random.pick(STREET_KINDS)}`;
  if (random.next() < 0.35)
    row[COLUMN.line2] = random.pick(['STE ', 'SUITE ', 'BLDG ', 'FLOOR ']) + (1 + random.int(600));
  row[COLUMN.city] = place.city.toUpperCase();
  row[COLUMN.state] = place.state;
  // The real file writes 9 digits when the ZIP+4 is known, 5 otherwise.
  row[COLUMN.zip] = random.next() < 0.6 ? place.zip + random.digits(4) : place.zip;
  // Practices' own numbers: area codes of the place are not modelled; some have none on file.
  if (random.next() < 0.93) row[COLUMN.phone] = String(200 + random.int(800)) + random.digits(7);
  if (random.next() < 0.5) row[COLUMN.fax] = String(200 + random.int(800)) + random.digits(7);
}

function fillDates(row: Row, random: Random): void {
  row[COLUMN.enumerated] = usDate(random, 2005, 2019);
  row[COLUMN.updated] = usDate(random, 2020, 2025);
}

function setTaxonomies(
  row: Row,
  random: Random,
  codes: string[],
  state: string,
  primarySlot: number | null,
): void {
  codes.forEach((code, index) => {
    const slot = index + 1;
    row[COLUMN.taxonomy(slot)] = code;
    row[COLUMN.license(slot)] = code.startsWith('3336')
      ? ''
      : `${random.pick(['A', 'MD', 'G', 'RN'])}${random.digits(6)}`;
    row[COLUMN.licenseState(slot)] = state;
    row[COLUMN.primarySwitch(slot)] = primarySlot === null ? 'N' : slot === primarySlot ? 'Y' : 'N';
  });
}

function pickKind(random: Random): Kind {
  const total = PROVIDER_KINDS.reduce((sum, kind) => sum + kind.weight, 0);
  let ticket = random.int(total);
  for (const kind of PROVIDER_KINDS) {
    ticket -= kind.weight;
    if (ticket < 0) return kind;
  }
  return PROVIDER_KINDS[0] as Kind;
}

function individual(random: Random, row: Row, place: Place, mapped: boolean): void {
  const sex = random.next() < 0.5 ? 'F' : 'M';
  row[COLUMN.entityType] = '1';
  row[COLUMN.lastName] = random.pick(LAST_NAMES);
  row[COLUMN.firstName] = random.pick(FIRST_NAMES[sex]);
  if (random.next() < 0.6) row[COLUMN.middleName] = random.pick('ABCDEFGHJKLMNPRSTW'.split(''));
  if (random.next() < 0.04) row[COLUMN.suffix] = random.pick(['JR.', 'SR.', 'II', 'III']);
  if (random.next() < 0.02)
    row[COLUMN.sex] = ''; // not every record says
  else row[COLUMN.sex] = sex;
  fillLocation(row, random, place);
  fillDates(row, random);
  if (!mapped) {
    row[COLUMN.credential] = random.pick(['MD', 'CRNA', 'LCSW', 'PHARMD', 'RPH']);
    setTaxonomies(row, random, [random.pick(UNMAPPED_CODES)], place.state, 1);
    return;
  }
  const kind = pickKind(random);
  row[COLUMN.credential] = random.pick(kind.credentials);
  if (random.next() < 0.3) row[COLUMN.prefix] = random.pick(['DR.', 'DR.', 'MS.', 'MR.', 'MRS.']);
  const codes = [random.pick(kind.codes)];
  if (kind.secondary && random.next() < 0.25) codes.push(random.pick(kind.secondary));
  // Some list an unmapped taxonomy first and the primary (switch Y) second; a few have no primary set.
  if (random.next() < 0.05) codes.unshift(random.pick(UNMAPPED_CODES));
  const primarySlot =
    random.next() < 0.02 ? null : codes.length > 1 && random.next() < 0.3 ? codes.length : 1;
  setTaxonomies(row, random, codes, place.state, primarySlot);
}

function organisation(random: Random, row: Row, place: Place, pharmacy: boolean): void {
  row[COLUMN.entityType] = '2';
  row[COLUMN.ein] = '<UNAVAIL>';
  fillLocation(row, random, place);
  fillDates(row, random);
  if (pharmacy) {
    row[COLUMN.organisation] = pharmacyName(random, place);
    const codes = [random.pick(PHARMACY_CODES)];
    if (random.next() < 0.15) codes.push(random.pick(['332B00000X', '3336S0011X', '3336H0001X']));
    setTaxonomies(row, random, [...new Set(codes)], place.state, 1);
    return;
  }
  const [name, code] = random.pick(OTHER_ORGANISATIONS);
  row[COLUMN.organisation] = `${place.city.toUpperCase()} ${name}`;
  setTaxonomies(row, random, [code], place.state, 1);
}

const blankRow = (npi: string): Row => {
  const row: Row = new Array<string>(HEADER.length).fill('');
  row[COLUMN.npi] = npi;
  return row;
};

/** One variety row: mostly providers and pharmacies, and now and then a row the import must skip. */
function varietyRow(random: Random, npi: string, places: Place[]): Row {
  const row = blankRow(npi);
  const place = random.pick(places);
  const roll = random.next();
  if (roll < 0.007) {
    // Deactivated: the real file keeps only the NPI and the date.
    row[COLUMN.deactivated] = usDate(random, 2010, 2024);
    return row;
  }
  if (roll < 0.009) {
    // Deactivated, then reactivated later: listed again.
    individual(random, row, place, true);
    row[COLUMN.deactivated] = usDate(random, 2010, 2015);
    row[COLUMN.reactivated] = usDate(random, 2016, 2024);
    return row;
  }
  if (roll < 0.019) individual(random, row, place, false);
  else if (roll < 0.033) organisation(random, row, place, false);
  else if (roll < 0.147) organisation(random, row, place, true);
  else individual(random, row, place, true);
  return row;
}

/** Every field quoted as the real file does; an empty field is written bare, which keeps the file small. */
function csvLine(fields: string[]): string {
  return `${fields.map((field) => (field === '' ? '' : `"${field.replace(/"/g, '""')}"`)).join(',')}\r\n`;
}

export type SampleOptions = { rows?: number; seed?: number };

/**
 * The sample as lines of CSV text, the header first: `rows` variety rows, then the coverage rows (a
 * doctor or a pharmacy each, never one the import skips). The variety rows come first so that they stay
 * what they were before the coverage was added, row for row (tests and screenshots know their cities).
 */
export function* sampleNppesLines(options: SampleOptions = {}): Generator<string> {
  const random = seededRandom(options.seed ?? SAMPLE_SEED);
  const rows = options.rows ?? SAMPLE_VARIETY_ROWS;
  const places = varietyPlaces(random);
  yield csvLine(HEADER);
  // NPIs in file order from one base, each with its check digit: unique, and sorted as the real file is.
  const base = 100_000_000 + random.int(50_000_000);
  let next = 0;
  const npi = () => npiFrom(String(base + next++ * 7));
  for (let index = 0; index < rows; index += 1) yield csvLine(varietyRow(random, npi(), places));
  for (const hub of coverageHubs()) {
    const place = placeOf(hub);
    for (let count = 0; count < COVERAGE_DOCTORS; count += 1) {
      const row = blankRow(npi());
      individual(random, row, place, true);
      yield csvLine(row);
    }
    for (let count = 0; count < COVERAGE_PHARMACIES; count += 1) {
      const row = blankRow(npi());
      organisation(random, row, place, true);
      yield csvLine(row);
    }
  }
}

/** The same lines a few hundred at a time, for importNppes (fewer, larger chunks parse faster). */
export async function* sampleNppesText(options: SampleOptions = {}): AsyncGenerator<string> {
  let chunk: string[] = [];
  for (const line of sampleNppesLines(options)) {
    chunk.push(line);
    if (chunk.length === 500) {
      yield chunk.join('');
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}
