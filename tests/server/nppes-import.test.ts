import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type DatabaseHandle } from '../../src/server/db/client';
import { CsvError, readCsvRecords, type CsvRecord } from '../../src/server/directory/csv';
import { importNppes, type ImportProblem } from '../../src/server/directory/import';
import { sampleNppesText } from '../../src/server/directory/sample-data';
import { doctorTaxonomy, isPharmacyTaxonomy } from '../../src/server/directory/taxonomy';
import { SPECIALITIES } from '../../src/domain/directory';

// The NPPES import (src/server/directory): the CSV reader on its own, then whole imports into the
// directory tables of a real database (PGlite in memory, or the Postgres of DATABASE_URL with
// TEST_DATABASE=postgres).

async function* chunksOf(...chunks: (string | Buffer)[]): AsyncGenerator<string | Buffer> {
  for (const chunk of chunks) yield chunk;
}

async function readAll(...chunks: (string | Buffer)[]): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const record of readCsvRecords(chunksOf(...chunks))) records.push(record);
  return records;
}

/** The text cut into pieces of `size` characters: every boundary of a quote, comma or CRLF gets crossed. */
function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let at = 0; at < text.length; at += size) result.push(text.slice(at, at + size));
  return result;
}

describe('readCsvRecords', () => {
  it('reads quoted fields with "" escapes, commas and line endings inside, and counts lines', async () => {
    const text = 'a,b,c\n"x, y","say ""hi""","two\nlines"\nplain,,""\n"last","one"\n';
    const records = await readAll(text);
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 4, fields: ['plain', '', ''] },
      { line: 5, fields: ['last', 'one'] },
    ]);
  });

  it('reads CRLF, a BOM, a blank line, a trailing empty field and a last line without a line ending', async () => {
    const text = '\uFEFFname,zip\r\n"Smith, Jane","10001"\r\n\r\nDoe,\r\n"Roe","02139"';
    const expected = [
      { line: 1, fields: ['name', 'zip'] },
      { line: 2, fields: ['Smith, Jane', '10001'] },
      { line: 4, fields: ['Doe', ''] },
      { line: 5, fields: ['Roe', '02139'] },
    ];
    expect(await readAll(text)).toEqual(expected);
    // The same, however the input is cut: a character at a time, and in Buffers.
    expect(await readAll(...pieces(text, 1))).toEqual(expected);
    expect(await readAll(...pieces(text, 3).map((piece) => Buffer.from(piece)))).toEqual(expected);
    // A byte order mark in a Buffer, and a CR at the end of one chunk with its LF in the next.
    expect(await readAll(Buffer.from('\uFEFFa,b\r'), '\nc,d\r\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['c', 'd'] },
    ]);
  });

  it('decodes a UTF-8 character split between two Buffers', async () => {
    const bytes = Buffer.from('"José Núñez",1\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of é
    expect(await readAll(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([
      { line: 1, fields: ['José Núñez', '1'] },
    ]);
  });

  it('marks a record whose quote is never closed, naming its line, and text after a closing quote', async () => {
    const records = await readAll('a,b\n"ok","x"y\nlast,"never\nclosed');
    expect(records[0]).toEqual({ line: 1, fields: ['a', 'b'] });
    expect(records[1]).toMatchObject({
      line: 2,
      fields: ['ok', 'xy'],
      malformed: 'text after a closing quote',
    });
    expect(records[2]?.line).toBe(3);
    expect(records[2]?.malformed).toMatch(/quote opened on line 3 is not closed/);
  });

  it('stops with an error naming the line when a record grows past the limit (an open quote in a big file)', async () => {
    const input = chunksOf('a,b\n"open', ...Array.from({ length: 20 }, () => 'x'.repeat(100)));
    const reading = (async () => {
      for await (const record of readCsvRecords(input, { maxRecordChars: 1000 })) void record;
    })();
    await expect(reading).rejects.toThrow(CsvError);
    await expect(reading).rejects.toThrow(/Line 2: the record is longer than 1000 characters/);
  });
});

describe('taxonomy table', () => {
  it('maps codes to specialities of the list, exact codes before their family', () => {
    expect(doctorTaxonomy('207R00000X')?.speciality).toBe('Internal Medicine');
    expect(doctorTaxonomy('207RC0000X')?.speciality).toBe('Cardiology');
    expect(doctorTaxonomy('207RC0200X')?.description).toBe('Critical Care Medicine');
    expect(doctorTaxonomy('207RG0300X')?.speciality).toBe('Geriatric Medicine'); // not the 207R family's
    expect(doctorTaxonomy('207XX0801X')?.speciality).toBe('Orthopaedic Surgery'); // by family 207X
    expect(doctorTaxonomy('363LF0000X')?.speciality).toBe('Nurse Practitioner');
    expect(doctorTaxonomy('2084P2900X')).toBeUndefined(); // pain medicine, kept out of 2084P
    expect(doctorTaxonomy('207ZP0102X')).toBeUndefined(); // pathology
    expect(isPharmacyTaxonomy('3336C0003X')).toBe(true);
    expect(isPharmacyTaxonomy('183500000X')).toBe(false); // a pharmacist is a person, not a pharmacy
    const codes = ['207K00000X', '207Q00000X', '208D00000X', '1223G0001X', '152W00000X', '213E00000X'];
    for (const code of codes) expect(SPECIALITIES).toContain(doctorTaxonomy(code)?.speciality);
  });
});

// ---- Imports into the database ----

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
  'NPI Deactivation Date',
  'NPI Reactivation Date',
  'Provider Sex Code',
  ...Array.from({ length: 15 }, (_, index) => [
    `Healthcare Provider Taxonomy Code_${index + 1}`,
    `Provider License Number_${index + 1}`,
    `Healthcare Provider Primary Taxonomy Switch_${index + 1}`,
  ]).flat(),
];

type Fields = Record<string, string>;

/** A row of the file from the columns given (by their header names); the rest empty. */
function row(fields: Fields): string[] {
  for (const name of Object.keys(fields)) if (!HEADER.includes(name)) throw new Error(`no column ${name}`);
  return HEADER.map((name) => fields[name] ?? '');
}

const quote = (field: string) => `"${field.replace(/"/g, '""')}"`;
const csv = (header: string[], rows: string[][]) =>
  [header, ...rows].map((fields) => fields.map(quote).join(',')).join('\r\n') + '\r\n';

function taxonomies(...codes: [code: string, primarySwitch: string][]): Fields {
  const fields: Fields = {};
  codes.forEach(([code, primarySwitch], index) => {
    fields[`Healthcare Provider Taxonomy Code_${index + 1}`] = code;
    fields[`Healthcare Provider Primary Taxonomy Switch_${index + 1}`] = primarySwitch;
  });
  return fields;
}

function person(npi: string, more: Fields = {}): string[] {
  return row({
    NPI: npi,
    'Entity Type Code': '1',
    'Provider Last Name (Legal Name)': "O'BRIEN",
    'Provider First Name': 'JANE',
    'Provider Middle Name': 'A',
    'Provider Credential Text': 'MD',
    'Provider First Line Business Practice Location Address': '123 MAIN ST NW',
    'Provider Second Line Business Practice Location Address': 'STE 200',
    'Provider Business Practice Location Address City Name': 'NEW YORK',
    'Provider Business Practice Location Address State Name': 'NY',
    'Provider Business Practice Location Address Postal Code': '100011234',
    'Provider Business Practice Location Address Telephone Number': '2125551234',
    'Provider Sex Code': 'F',
    ...taxonomies(['207R00000X', 'Y']),
    ...more,
  });
}

function pharmacy(npi: string, name: string, more: Fields = {}): string[] {
  return row({
    NPI: npi,
    'Entity Type Code': '2',
    'Provider Organization Name (Legal Business Name)': name,
    'Provider First Line Business Practice Location Address': '1 MARKET ST',
    'Provider Business Practice Location Address City Name': 'SAN FRANCISCO',
    'Provider Business Practice Location Address State Name': 'CA',
    'Provider Business Practice Location Address Postal Code': '94103',
    'Provider Business Practice Location Address Telephone Number': '4155550000',
    ...taxonomies(['3336C0003X', 'Y']),
    ...more,
  });
}

type DoctorInTable = {
  doctor_id: string;
  npi: string;
  name: string;
  speciality: string;
  qualifications: string;
  gender: string | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
  accepting_new_patients: boolean | null;
  updated_at: Date | string;
};

describe('importNppes', () => {
  let database: DatabaseHandle;
  const doctors = () =>
    queryRows<DoctorInTable>(database.db, sql`select * from directory_doctors order by npi`);
  const pharmacies = () =>
    queryRows<Record<string, unknown>>(database.db, sql`select * from directory_pharmacies order by npi`);
  const importText = (text: string, options: Parameters<typeof importNppes>[2] = {}) =>
    importNppes(database.db, chunksOf(...pieces(text, 4096)), options);

  beforeAll(async () => {
    const usePostgres = process.env.TEST_DATABASE === 'postgres';
    if (usePostgres && !process.env.DATABASE_URL)
      throw new Error('TEST_DATABASE=postgres needs DATABASE_URL');
    database = await openDatabase(
      usePostgres ? { databaseUrl: process.env.DATABASE_URL } : { pgliteDir: 'memory://' },
    );
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.db.execute(sql`truncate directory_doctors, directory_pharmacies`);
  });

  it('imports doctors and pharmacies with every field, the speciality from the primary switch', async () => {
    const text = csv(HEADER, [
      person('1234567893'),
      // The primary (Y) is the second taxonomy: it decides, the first is still a qualification.
      person('1245319599', {
        'Provider Last Name (Legal Name)': 'MCDONALD',
        'Provider First Name': 'ROBERT',
        'Provider Middle Name': '',
        'Provider Name Suffix Text': 'JR.',
        'Provider Credential Text': 'M.D.',
        'Provider Sex Code': 'M',
        'Provider Business Practice Location Address Postal Code': '60601',
        'Provider Business Practice Location Address City Name': 'CHICAGO',
        'Provider Business Practice Location Address State Name': 'IL',
        'Provider Business Practice Location Address Telephone Number': '',
        ...taxonomies(['207R00000X', 'N'], ['207RC0000X', 'Y']),
      }),
      // No primary switch: the first taxonomy the directory knows (not the pathology one).
      person('1326046673', {
        ...taxonomies(['207ZP0102X', 'N'], ['363LF0000X', 'N']),
        'Provider Credential Text': 'FNP-C',
      }),
      pharmacy('1003000126', 'CVS PHARMACY, INC.'),
      pharmacy('1013000125', 'MAIN STREET 24 HOUR PHARMACY LLC', {
        'Provider Business Practice Location Address Postal Code': '021391234',
        'Provider Business Practice Location Address City Name': 'CAMBRIDGE',
        'Provider Business Practice Location Address State Name': 'MA',
        'Provider Business Practice Location Address Telephone Number': '1-617-555-0199',
      }),
      pharmacy('1023000124', 'OPEN 24HR RX'),
    ]);

    const summary = await importText(text);

    expect(summary).toEqual({ rows: 6, doctors: 3, pharmacies: 3, skipped: 0, malformed: 0, problems: [] });
    const [jane, robert, nurse] = await doctors();
    expect(jane).toMatchObject({
      npi: '1234567893',
      name: "Jane A O'Brien",
      speciality: 'Internal Medicine',
      qualifications: 'MD; Internal Medicine',
      gender: 'Female',
      address: '123 Main St NW, Ste 200',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      phone: '(212) 555-1234',
      accepting_new_patients: null,
    });
    expect(jane?.latitude).toBeCloseTo(40.75, 1);
    expect(jane?.longitude).toBeCloseTo(-74.0, 0);
    expect(robert).toMatchObject({
      name: 'Robert McDonald Jr.',
      speciality: 'Cardiology',
      qualifications: 'M.D.; Cardiovascular Disease, Internal Medicine',
      gender: 'Male',
      zip: '60601',
      phone: null,
    });
    expect(robert?.latitude).toBeCloseTo(41.89, 1);
    expect(nurse).toMatchObject({
      speciality: 'Nurse Practitioner',
      qualifications: 'FNP-C; Family Nurse Practitioner',
    });

    const stores = await pharmacies();
    expect(
      stores.map((store) => [store.name, store.zip, store.phone, store.open_24_hours, store.opening_hours]),
    ).toEqual([
      ['CVS Pharmacy, Inc.', '94103', '(415) 555-0000', null, null],
      ['Main Street 24 Hour Pharmacy LLC', '02139', '(617) 555-0199', true, null],
      ['Open 24hr Rx', '94103', '(415) 555-0000', true, null],
    ]);
    expect(stores[1]?.latitude).toBeCloseTo(42.36, 1);
  });

  it('counts skipped and malformed rows, with their lines, and writes none of them', async () => {
    const problems: ImportProblem[] = [];
    const rows = [
      /* line 2 */ person('1000000001'),
      /* line 3 */ row({ NPI: '1000000019', 'NPI Deactivation Date': '05/12/2019' }),
      /* line 4 */ person('1000000027', {
        'NPI Deactivation Date': '01/02/2015',
        'NPI Reactivation Date': '03/04/2016',
      }),
      /* line 5 */ person('1000000035', taxonomies(['207ZP0102X', 'Y'])), // pathologist
      /* line 6 */ pharmacy('1000000043', 'CITY GENERAL HOSPITAL', taxonomies(['282N00000X', 'Y'])),
      /* line 7 */ person('123456789'),
      /* line 8 */ person('1000000050', {
        'Provider Second Line Business Practice Location Address': 'FLOOR 2\nBACK ENTRANCE',
        'Provider Business Practice Location Address City Name': '',
      }),
      /* line 10 */ pharmacy('1000000068', 'BAD ZIP PHARMACY', {
        'Provider Business Practice Location Address Postal Code': '9410',
      }),
      /* line 11 */ person('1000000076').slice(0, -1),
      /* line 12 */ person('1000000084', { 'Entity Type Code': '3' }),
      /* line 13 */ person('1000000092', {
        'Provider Business Practice Location Address Country Code (If outside U.S.)': 'CA',
      }),
      /* line 14 */ pharmacy('1000000100', 'LAST GOOD PHARMACY'),
    ];

    const summary = await importText(csv(HEADER, rows), { onProblem: (problem) => problems.push(problem) });

    expect(summary).toMatchObject({ rows: 12, doctors: 2, pharmacies: 1, skipped: 4, malformed: 5 });
    expect(summary.problems).toEqual([
      { line: 7, reason: 'NPI "123456789" is not 10 digits' },
      { line: 8, reason: 'no practice city' },
      { line: 10, reason: 'zip code "9410" is not 5 or 9 digits' },
      { line: 11, reason: `has ${HEADER.length - 1} fields, the header has ${HEADER.length}` },
      { line: 12, reason: 'Entity Type Code "3" is neither 1 nor 2' },
    ]);
    expect(problems).toEqual(summary.problems);
    expect((await doctors()).map((doctor) => doctor.npi)).toEqual(['1000000001', '1000000027']);
    expect((await pharmacies()).map((store) => store.npi)).toEqual(['1000000100']);
  });

  it('counts an unterminated quote at the end of the file as malformed, after writing the rows before it', async () => {
    const text = csv(HEADER, [person('1000000001')]) + '"1000000019","1","unclosed';
    const summary = await importText(text);
    expect(summary).toMatchObject({ doctors: 1, malformed: 1 });
    expect(summary.problems[0]?.line).toBe(3);
    expect(summary.problems[0]?.reason).toMatch(/not closed/);
  });

  it('run twice gives the same rows with the same ids; a changed phone is updated', async () => {
    const first = csv(HEADER, [
      person('1234567893'),
      person('1245319599'),
      pharmacy('1003000126', 'A PHARMACY'),
    ]);
    await importText(first);
    const before = await doctors();
    const storesBefore = await pharmacies();

    const again = await importText(first);
    expect(again).toMatchObject({ doctors: 2, pharmacies: 1, malformed: 0 });
    const unchanged = await doctors();
    expect(unchanged).toEqual(before); // ids and updated_at alike: nothing was rewritten
    expect(await pharmacies()).toEqual(storesBefore);

    await new Promise((resolve) => setTimeout(resolve, 5)); // now() moves on
    const changed = csv(HEADER, [
      person('1234567893', { 'Provider Business Practice Location Address Telephone Number': '2125559999' }),
      person('1245319599'),
      pharmacy('1003000126', 'A PHARMACY', {
        'Provider Business Practice Location Address Telephone Number': '4155551111',
      }),
    ]);
    await importText(changed);
    const after = await doctors();
    expect(after.map((doctor) => doctor.doctor_id)).toEqual(before.map((doctor) => doctor.doctor_id));
    expect(after[0]?.phone).toBe('(212) 555-9999');
    expect(new Date(after[0]?.updated_at ?? 0).getTime()).toBeGreaterThan(
      new Date(before[0]?.updated_at ?? 0).getTime(),
    );
    expect(after[1]).toEqual(before[1]);
    const storesAfter = await pharmacies();
    expect(storesAfter[0]?.pharmacy_id).toBe(storesBefore[0]?.pharmacy_id);
    expect(storesAfter[0]?.phone).toBe('(415) 555-1111');
  });

  it('keeps the later row of an NPI that appears twice in one batch', async () => {
    const text = csv(HEADER, [
      person('1234567893', { 'Provider First Name': 'FIRST' }),
      pharmacy('1003000126', 'EARLY NAME'),
      person('1245319599'),
      person('1234567893', { 'Provider First Name': 'SECOND' }),
      pharmacy('1003000126', 'LATE NAME'),
    ]);
    const summary = await importText(text, { batchSize: 10 });
    expect(summary).toMatchObject({ doctors: 2, pharmacies: 1, malformed: 0 });
    const rows = await doctors();
    expect(rows.map((doctor) => doctor.name)).toEqual(["Second A O'Brien", "Jane A O'Brien"]);
    expect((await pharmacies()).map((store) => store.name)).toEqual(['Late Name']);
  });

  it('writes in batches of the size asked, one statement each, the last one short', async () => {
    const people = Array.from({ length: 7 }, (_, index) =>
      person(`10000000${String(index).padStart(2, '0')}`),
    );
    let statements = 0;
    // The same database, counting the statements the import sends.
    const counting: Database = Object.create(database.db) as Database;
    counting.execute = ((query: Parameters<Database['execute']>[0]) => {
      statements += 1;
      return database.db.execute(query);
    }) as Database['execute'];
    const progress: number[] = [];
    const summary = await importNppes(counting, chunksOf(csv(HEADER, people)), {
      batchSize: 3,
      progressEvery: 2,
      onProgress: (counts) => progress.push(counts.rows),
    });
    expect(summary.doctors).toBe(7);
    expect(statements).toBe(3); // 3 + 3 + 1
    expect(progress).toEqual([2, 4, 6]);
    expect(await doctors()).toHaveLength(7);
  });

  it('refuses a header without a column it needs, naming it, and writes nothing', async () => {
    const header = HEADER.filter((name) => name !== 'Provider Business Practice Location Address City Name');
    const text = csv(header, [person('1234567893').slice(1)]);
    await expect(importText(text)).rejects.toThrow(
      /lacks the column "Provider Business Practice Location Address City Name"/,
    );
    await expect(importText('')).rejects.toThrow(/empty/);
    expect(await doctors()).toEqual([]);
  });

  it('imports the sample directory with nothing malformed, over many zip codes', async () => {
    const summary = await importNppes(database.db, sampleNppesText());
    expect(summary.malformed).toBe(0);
    expect(summary.problems).toEqual([]);
    expect(summary.doctors).toBeGreaterThan(2500);
    expect(summary.pharmacies).toBeGreaterThan(300);
    expect(summary.skipped).toBeGreaterThan(0); // deactivated NPIs, other taxonomies, other organisations
    const [counts] = await queryRows<{ doctors: number; zips: number; states: number; unplaced: number }>(
      database.db,
      sql`select (select count(*)::int from directory_doctors) as doctors,
        count(distinct zip)::int as zips, count(distinct state)::int as states,
        count(*) filter (where latitude is null)::int as unplaced
        from (select zip, state, latitude from directory_doctors
              union all select zip, state, latitude from directory_pharmacies) as places`,
    );
    expect(counts?.doctors).toBe(summary.doctors);
    expect(counts?.zips).toBeGreaterThanOrEqual(150);
    expect(counts?.states).toBeGreaterThanOrEqual(40);
    expect(counts?.unplaced).toBe(0);
    const bigCities = await queryRows<{ zip: string }>(
      database.db,
      sql`select distinct zip from directory_doctors where zip in ('10001', '90210', '60601', '94103', '02139') order by zip`,
    );
    expect(bigCities.map((place) => place.zip)).toEqual(['02139', '10001', '60601', '90210', '94103']);
    const specialities = await queryRows<{ speciality: string }>(
      database.db,
      sql`select distinct speciality from directory_doctors`,
    );
    for (const { speciality } of specialities) expect(SPECIALITIES).toContain(speciality);
  });
});
