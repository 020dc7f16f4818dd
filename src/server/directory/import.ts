import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { directoryDoctors, directoryPharmacies } from '../db/schema';
import { readCsvRecords } from './csv';
import { nppesColumnIndex, nppesRecordToRow, type DoctorRow, type PharmacyRow } from './nppes';

// Loads the NPPES file into directory_doctors and directory_pharmacies. The file is streamed (it is
// about 9 GB): rows are read, classified and gathered into batches, and each batch is written by one
// statement, an upsert on the NPI. So a run again updates rows in place (their ids, which patients'
// lists refer to, stay), a batch is written whole or not at all, and a malformed row never reaches one.
// A fatal error (a bad header, the database gone) stops the import; batches written before it stay,
// and running the import again finishes the job.

export type ImportProblem = { line: number; reason: string };

export type ImportProgress = {
  /** Data rows read so far (the header not counted). */
  rows: number;
  doctors: number;
  pharmacies: number;
  skipped: number;
  malformed: number;
};

export type ImportOptions = {
  /** Rows per statement (default 1,000). */
  batchSize?: number;
  /** Told of each malformed row as it is found. */
  onProblem?: (problem: ImportProblem) => void;
  /** Called every `progressEvery` rows read (default 100,000). */
  onProgress?: (progress: ImportProgress) => void;
  progressEvery?: number;
};

export type ImportSummary = {
  /** Data rows read (the header not counted). */
  rows: number;
  /** Doctor rows written (a row of an NPI seen twice in one batch is written, and counted, once). */
  doctors: number;
  pharmacies: number;
  /** Rows that are not for the directory: deactivated, other taxonomies, other organisations. */
  skipped: number;
  malformed: number;
  /** The first 100 malformed rows, with their line in the file. */
  problems: ImportProblem[];
};

export class ImportError extends Error {}

const PROBLEMS_KEPT = 100;

export async function importNppes(
  db: Database,
  input: AsyncIterable<string | Buffer>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 1000;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ImportError('batchSize must be a whole number from 1');
  const progressEvery = options.progressEvery ?? 100_000;
  const records = readCsvRecords(input);

  const first = await records.next();
  if (first.done) throw new ImportError('The file is empty: the NPPES header row should come first.');
  if (first.value.malformed) throw new ImportError(`The header row is malformed: ${first.value.malformed}.`);
  const columns = nppesColumnIndex(first.value.fields);

  const summary: ImportSummary = {
    rows: 0,
    doctors: 0,
    pharmacies: 0,
    skipped: 0,
    malformed: 0,
    problems: [],
  };
  // Keyed by NPI: a later row of the same NPI replaces the earlier one in the batch, as Postgres will not
  // update one row twice in one statement.
  const doctors = new Map<string, DoctorRow>();
  const pharmacies = new Map<string, PharmacyRow>();

  const report = (line: number, reason: string) => {
    summary.malformed += 1;
    const problem = { line, reason };
    if (summary.problems.length < PROBLEMS_KEPT) summary.problems.push(problem);
    options.onProblem?.(problem);
  };
  // A batch is written while the next one is read (the database and the parsing each get a core), but
  // never two at once: batches land in file order, so a later row of an NPI overwrites an earlier one.
  let inFlight: Promise<void> = Promise.resolve();
  const write = async (statement: () => Promise<void>) => {
    await inFlight; // throws the previous batch's error, if it failed
    const next = statement();
    next.catch(() => undefined); // handled: its error surfaces at the next await of inFlight
    inFlight = next;
  };
  // Counted when handed to the database: if a statement fails, the import throws and no counts are given.
  const flushDoctors = async () => {
    const rows = [...doctors.values()];
    doctors.clear();
    summary.doctors += rows.length;
    await write(() => upsertDoctors(db, rows));
  };
  const flushPharmacies = async () => {
    const rows = [...pharmacies.values()];
    pharmacies.clear();
    summary.pharmacies += rows.length;
    await write(() => upsertPharmacies(db, rows));
  };

  for await (const record of records) {
    summary.rows += 1;
    if (record.malformed) {
      report(record.line, record.malformed);
    } else {
      const outcome = nppesRecordToRow(record.fields, columns);
      if (outcome.kind === 'doctor') {
        doctors.delete(outcome.row.npi); // re-inserted last, so the map's order stays the file's
        doctors.set(outcome.row.npi, outcome.row);
        if (doctors.size >= batchSize) await flushDoctors();
      } else if (outcome.kind === 'pharmacy') {
        pharmacies.delete(outcome.row.npi);
        pharmacies.set(outcome.row.npi, outcome.row);
        if (pharmacies.size >= batchSize) await flushPharmacies();
      } else if (outcome.kind === 'skipped') {
        summary.skipped += 1;
      } else {
        report(record.line, outcome.reason);
      }
    }
    if (options.onProgress && summary.rows % progressEvery === 0) {
      options.onProgress(progressOf(summary, doctors.size, pharmacies.size));
    }
  }
  if (doctors.size > 0) await flushDoctors();
  if (pharmacies.size > 0) await flushPharmacies();
  await inFlight;
  return summary;
}

/** The counts so far, with the rows waiting in a batch counted as the doctors and pharmacies they are. */
function progressOf(
  summary: ImportSummary,
  doctorsWaiting: number,
  pharmaciesWaiting: number,
): ImportProgress {
  return {
    rows: summary.rows,
    doctors: summary.doctors + doctorsWaiting,
    pharmacies: summary.pharmacies + pharmaciesWaiting,
    skipped: summary.skipped,
    malformed: summary.malformed,
  };
}

// One statement per batch: the rows travel as one JSON parameter (jsonb_to_recordset), not a dozen
// parameters each (building a statement of thousands of parameters costs more than the insert, and
// Postgres allows 65,535). A row whose values are all the same is not updated: its updated_at stays.

async function upsertDoctors(db: Database, rows: DoctorRow[]): Promise<void> {
  await db.execute(sql`
    insert into ${directoryDoctors} as existing (npi, name, speciality, qualifications, gender, address, city,
      state, zip, phone, latitude, longitude, accepting_new_patients)
    select npi, name, speciality, qualifications, gender, address, city, state, zip, phone, latitude,
      longitude, null
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as incoming(npi text, name text,
      speciality text, qualifications text, gender text, address text, city text, state text, zip text,
      phone text, latitude double precision, longitude double precision)
    on conflict (npi) do update set
      name = excluded.name, speciality = excluded.speciality, qualifications = excluded.qualifications,
      gender = excluded.gender, address = excluded.address, city = excluded.city, state = excluded.state,
      zip = excluded.zip, phone = excluded.phone, latitude = excluded.latitude,
      longitude = excluded.longitude, updated_at = now()
    where (existing.name, existing.speciality, existing.qualifications, existing.gender, existing.address,
        existing.city, existing.state, existing.zip, existing.phone, existing.latitude, existing.longitude)
      is distinct from (excluded.name, excluded.speciality, excluded.qualifications, excluded.gender,
        excluded.address, excluded.city, excluded.state, excluded.zip, excluded.phone, excluded.latitude,
        excluded.longitude)`);
}

async function upsertPharmacies(db: Database, rows: PharmacyRow[]): Promise<void> {
  // opening_hours is not in the file: an import leaves whatever a pharmacy told us.
  await db.execute(sql`
    insert into ${directoryPharmacies} as existing (npi, name, address, city, state, zip, phone, latitude,
      longitude, open_24_hours)
    select npi, name, address, city, state, zip, phone, latitude, longitude, open_24_hours
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as incoming(npi text, name text, address text,
      city text, state text, zip text, phone text, latitude double precision, longitude double precision,
      open_24_hours boolean)
    on conflict (npi) do update set
      name = excluded.name, address = excluded.address, city = excluded.city, state = excluded.state,
      zip = excluded.zip, phone = excluded.phone, latitude = excluded.latitude,
      longitude = excluded.longitude, open_24_hours = excluded.open_24_hours, updated_at = now()
    where (existing.name, existing.address, existing.city, existing.state, existing.zip, existing.phone,
        existing.latitude, existing.longitude, existing.open_24_hours)
      is distinct from (excluded.name, excluded.address, excluded.city, excluded.state, excluded.zip,
        excluded.phone, excluded.latitude, excluded.longitude, excluded.open_24_hours)`);
}
