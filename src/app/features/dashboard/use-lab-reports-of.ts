import { useLiveQuery } from 'dexie-react-hooks';
import type { LabReport } from '../../../domain/lab-reports';
import { hasUserDb, userDb } from '../../../local/db';

/**
 * The patient's lab reports in the local table (never the network, so Home's results open offline), live:
 * a report saved or synced while Home is open shows at once (none without a patient or the permission).
 * Undefined until the query has answered for this patient, so the card does not flash its empty state
 * (a live query answers the previous patient's rows meanwhile).
 */
export function useLabReportsOf(patientId: string | null): LabReport[] | undefined {
  const answer = useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { patientId, rows: [] };
    return { patientId, rows: await userDb().lab_reports.where('patient_id').equals(patientId).toArray() };
  }, [patientId]);
  return answer?.patientId === patientId ? answer.rows : undefined;
}
