import type { EntityTable } from 'dexie';
import type { LabReportOcrData } from '../domain/lab-reports';
import type { ResourceDeclaration } from '../domain/resources/declare';
import { RESOURCES } from '../domain/resources/list';
import type { KincareDb } from './db';

// Work the device does for a resource beside syncing its records, named by the resource's declaration
// (`afterSync`) so that the sync engine and the replica name no resource: here the work's device-only
// tables and what is kept of it when a session ends; what runs after each sync is in after-sync.ts (it
// loads the page's HTTP client, which the replica must not import). Today one kind of work: reading lab
// reports that were chosen offline, once their files are uploaded.

/**
 * A lab report saved before it could be read (no connection): waiting for its upload, being read, read and
 * waiting for the person's review (`extraction`), or failed with the server's message. Device-only.
 */
export type LabExtractionJob = {
  report_id: string;
  patient_id: string;
  state: 'waiting' | 'reading' | 'ready' | 'failed';
  extraction: LabReportOcrData | null;
  message: string | null;
  updated_at: string;
};

declare module './db' {
  interface KincareDb {
    /** Reports chosen without a connection, to be read once their file is uploaded (lab-report-extractions.ts). */
    labExtractions: EntityTable<LabExtractionJob, 'report_id'>;
  }
}

export type WorkName = NonNullable<ResourceDeclaration['afterSync']>;

type DeviceWork = {
  /** Its device-only tables and their indexes (Dexie's syntax). */
  tables: Record<string, string>;
  /**
   * When a session ends and only the person's unsent changes are kept: what of this work stays, given the
   * records with changes still queued (`resource:id`). Runs inside the transaction that clears the rest.
   */
  whenSessionEnds(db: KincareDb, queued: ReadonlySet<string>): Promise<void>;
};

const WORK: Record<WorkName, DeviceWork> = {
  'read-waiting-reports': {
    tables: { labExtractions: 'report_id, state' },
    // What was read from a report goes (the person's records); the report is read again after the next
    // sign-in, unless reading it failed (that message names no record, and the person retries it).
    async whenSessionEnds(db, queued) {
      const jobs = (await db.labExtractions.toArray())
        .filter((job) => queued.has(`lab_reports:${job.report_id}`))
        .map((job): LabExtractionJob => ({
          ...job,
          extraction: null,
          ...(job.state === 'failed' ? {} : { state: 'waiting', message: null }),
        }));
      await db.labExtractions.clear();
      await db.labExtractions.bulkPut(jobs);
    },
  },
};

/** The works the declared resources ask for, each once, by name. */
export function declaredWorkNames(): WorkName[] {
  return [...new Set(RESOURCES.flatMap((resource) => ('afterSync' in resource ? [resource.afterSync] : [])))];
}

function declaredWork(): DeviceWork[] {
  return declaredWorkNames().map((name) => WORK[name]);
}

/** The device-only tables of every declared work (the replica's schema adds them). */
export function deviceWorkTables(): Record<string, string> {
  return Object.assign({}, ...declaredWork().map((work) => work.tables));
}

/** What each declared work keeps when a session ends (see DeviceWork.whenSessionEnds). */
export async function keepDeviceWorkOfQueued(db: KincareDb, queued: ReadonlySet<string>): Promise<void> {
  for (const work of declaredWork()) await work.whenSessionEnds(db, queued);
}
