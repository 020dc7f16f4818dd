import { RESOURCES } from '../domain/resources/list';
import type { ResourceDeclaration } from '../domain/resources/declare';
import type { KincareDb } from './db';

// Work a resource asks the device to do after each sync (its declaration's `afterSync`), by the name of the
// work, so the sync engine names no resource. It runs in the page: a lab report chosen offline is read
// through the page's HTTP client and the screen is told when it is ready for review. The service worker's
// sync leaves it to the next page (the report stays 'waiting' on the device until then).

type AfterSyncWork = NonNullable<ResourceDeclaration['afterSync']>;

const WORK: Record<AfterSyncWork, (db: KincareDb) => Promise<unknown>> = {
  // Loaded only when a report waits: most syncs have nothing to read.
  'read-waiting-reports': async (db) => {
    if ((await db.labExtractions.where('state').equals('waiting').count()) === 0) return;
    const { readWaitingReports } = await import('./lab-report-extractions');
    await readWaitingReports(db);
  },
};

/** Runs every resource's after-sync work, one after another; a failure waits for the next sync. */
export async function runAfterSyncWork(db: KincareDb): Promise<void> {
  for (const resource of RESOURCES) {
    if (!('afterSync' in resource)) continue;
    try {
      await WORK[resource.afterSync](db);
    } catch {
      // Signed out meanwhile, or the module could not load offline: the next sync tries again.
    }
  }
}
