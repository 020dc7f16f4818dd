import { useLiveQuery } from 'dexie-react-hooks';
import type { LabReport } from '../../../domain/lab-reports';
import { hasUserDb, userDb } from '../../../local/db';

/**
 * The patient's lab reports in the local table (never the network, so Home's results open offline), live:
 * a report saved or synced while Home is open shows at once. Undefined while the query first runs, so the
 * card does not flash its empty state.
 */
export function useLabReportsOf(patientId: string): LabReport[] | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return [];
    return userDb().lab_reports.where('patient_id').equals(patientId).toArray();
  }, [patientId]);
}
