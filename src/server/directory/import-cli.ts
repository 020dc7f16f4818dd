import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, pgliteDirFor } from '../db/client';
import { importNppes, ImportError, type ImportProgress } from './import';
import { CsvError } from './csv';
import { NppesHeaderError } from './nppes';

// `tsx src/server/directory/import-cli.ts <npidata_pfile.csv>`: loads the NPPES file into the provider
// directory of the database the server uses (DATABASE_URL, or the PGlite database in DATA_DIR, as
// src/server/main.ts opens it, migrations applied). Prints progress every 100,000 rows and a summary;
// exits 1 on a fatal error. Run it while the server is stopped when the database is PGlite (one process
// at a time may open a PGlite folder); with Postgres the server may keep running.

const PROBLEMS_SHOWN = 10;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** The most memory the process has held so far (the kernel's high-water mark, in bytes). */
function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('Usage: tsx src/server/directory/import-cli.ts <npidata_pfile.csv>');
    return 1;
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
  } catch {
    console.error(`Cannot read ${file}: no such file.`);
    return 1;
  }

  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteDirFor(config.dataDir),
  });
  console.log(`Importing ${file} into the ${database.driver} database...`);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const printProgress = (progress: ImportProgress) => {
    const rate = Math.round(progress.rows / seconds());
    console.log(
      `${progress.rows.toLocaleString('en-US')} rows: ${progress.doctors} doctors, ${progress.pharmacies} pharmacies, ` +
        `${progress.skipped} skipped, ${progress.malformed} malformed (${rate.toLocaleString('en-US')} rows/s, ` +
        `RSS ${megabytes(process.memoryUsage.rss())})`,
    );
  };
  try {
    const summary = await importNppes(database.db, createReadStream(file, { encoding: 'utf8' }), {
      onProgress: printProgress,
    });
    const elapsed = seconds();
    console.log(
      `Done in ${elapsed.toFixed(1)} s: ${summary.rows} rows read; ${summary.doctors} doctors and ${summary.pharmacies} pharmacies written, ` +
        `${summary.skipped} rows skipped (not for the directory), ${summary.malformed} malformed; ` +
        `about ${Math.round(summary.rows / elapsed).toLocaleString('en-US')} rows/s, peak RSS ${megabytes(peakRss())}.`,
    );
    if (summary.problems.length > 0) {
      console.log(
        `First problems (${Math.min(PROBLEMS_SHOWN, summary.problems.length)} of ${summary.malformed}):`,
      );
      for (const problem of summary.problems.slice(0, PROBLEMS_SHOWN)) {
        console.log(`  line ${problem.line}: ${problem.reason}`);
      }
    }
    return 0;
  } catch (error) {
    // A bad header or file is told plainly; anything else (the database) with its stack.
    if (error instanceof ImportError || error instanceof NppesHeaderError || error instanceof CsvError)
      console.error(error.message);
    else console.error('The import failed:', error);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('The import failed:', error);
    process.exitCode = 1;
  },
);
