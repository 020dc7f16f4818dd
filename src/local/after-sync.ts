import { declaredWorkNames, type WorkName } from './db-device-work';
import type { KincareDb } from './db';

// What the resources' device work (db-device-work.ts) does after each sync, by the work's name. It runs in
// the page: a lab report chosen offline is read through the page's HTTP client and the screen is told
// when it is ready for review. The service worker's sync leaves it to the next page (the report stays
// 'waiting' on the device until then).

const AFTER_SYNC: Record<WorkName, (db: KincareDb) => Promise<unknown>> = {
  // Loaded only when a report waits: most syncs have nothing to read.
  'read-waiting-reports': async (db) => {
    if ((await db.labExtractions.where('state').equals('waiting').count()) === 0) return;
    const { readWaitingReports } = await import('./lab-report-extractions');
    await readWaitingReports(db);
  },
};

/** Runs every declared work after a sync, one after another; a failure waits for the next sync. */
export async function runAfterSyncWork(db: KincareDb): Promise<void> {
  for (const name of declaredWorkNames()) {
    try {
      await AFTER_SYNC[name](db);
    } catch {
      // Signed out meanwhile, or the module could not load offline: the next sync tries again.
    }
  }
}
