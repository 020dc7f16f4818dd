import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { directoryDoctors, directoryPharmacies } from '../db/schema';
import { importNppes } from './import';

// A fresh install has an empty directory, and search would find nothing: it loads the generated sample
// that ships beside this file (the NPPES format, a few thousand providers across US zips; made by
// src/server/directory/generate-sample.ts, `npm run directory:sample`). An install that imported the real registry is not empty, and keeps it.

export const SAMPLE_FILE = fileURLToPath(new URL('./nppes-sample.csv', import.meta.url));

export async function loadSampleDirectoryIfEmpty(db: Database, log: FastifyBaseLogger): Promise<void> {
  // Runs at every start: whether any row exists (one index probe each), not how many (a count of the full
  // registry reads millions of rows).
  const [doctor] = await db.select({ id: directoryDoctors.doctorId }).from(directoryDoctors).limit(1);
  const [pharmacy] = await db
    .select({ id: directoryPharmacies.pharmacyId })
    .from(directoryPharmacies)
    .limit(1);
  if (doctor || pharmacy) return;
  const started = performance.now();
  const result = await importNppes(db, createReadStream(SAMPLE_FILE, { encoding: 'utf8' }));
  log.info(
    {
      doctors: result.doctors,
      pharmacies: result.pharmacies,
      skipped: result.skipped,
      malformed: result.malformed,
      ms: Math.round(performance.now() - started),
    },
    'the provider directory was empty: loaded the sample',
  );
}
