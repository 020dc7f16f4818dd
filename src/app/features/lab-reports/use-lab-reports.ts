import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  compareLabReports,
  matchesLabReportFilter,
  type LabReport,
  type LabReportFilter,
} from '../../../domain/lab-reports';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';
import type { LabExtractionJob } from '../../../local/db-device-work';

// Reads for the lab report screen: live queries over the device's tables (offline too), never the network.
// Undefined while the first read runs, so the screen does not flash its empty state.

/** The reports the filter keeps ('all' or nothing means no filter), newest report first. */
export function selectLabReports(rows: readonly LabReport[], filter: LabReportFilter): LabReport[] {
  return rows.filter((row) => matchesLabReportFilter(row, filter)).sort(compareLabReports);
}

export function hasLabFilter(filter: LabReportFilter): boolean {
  return Boolean(filter.doctor || filter.startDate || filter.endDate || filter.status);
}

export function usePatientLabReports(patientId: string | null): LabReport[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    return userDb().lab_reports.where('patient_id').equals(patientId).toArray();
  }, [patientId]);
}

/** Reports chosen offline and read since (or waiting to be): by report id. */
export function useLabExtractions(patientId: string | null): ReadonlyMap<string, LabExtractionJob> {
  return (
    useLiveQuery(async () => {
      if (!patientId || !hasUserDb()) return NO_JOBS;
      const jobs = await userDb().labExtractions.toArray();
      return new Map(jobs.filter((job) => job.patient_id === patientId).map((job) => [job.report_id, job]));
    }, [patientId]) ?? NO_JOBS
  );
}

export function useLabDoctors(patientId: string | null): LocalDoctor[] {
  return (
    useLiveQuery(async () => {
      if (!patientId || !hasUserDb()) return [];
      const rows = await userDb().doctors.where('patient_id').equals(patientId).toArray();
      return rows.sort((a, b) => a.name.localeCompare(b.name));
    }, [patientId]) ?? NO_DOCTORS
  );
}

/** `value`, once it has stayed the same for `delay` ms (the lab filter waits 500 ms). */
export function useDebounced<Value>(value: Value, delay: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

const NO_JOBS: ReadonlyMap<string, LabExtractionJob> = new Map();
const NO_DOCTORS: LocalDoctor[] = [];
