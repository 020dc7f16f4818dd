import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { directoryDoctors, directoryPharmacies } from '../db/schema';
import { importNppes } from './import';
import { sampleNppesText } from './sample-data';

// A fresh install has an empty directory, and search would find nothing: it loads the sample directory
// (sample-data.ts: doctors and pharmacies within reach of every US zip), made in memory at first start
// and read by the one NPPES import, as a real file would be. Nothing is downloaded and no file ships: the
// rows come from a seeded generator and the `zipcodes` package's table. An install that imported the real
// registry is not empty, and keeps it.

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
  const result = await importNppes(db, sampleNppesText());
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
