import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../../local/db';

/**
 * How many prescriptions of the patient this device holds (0 without a patient); undefined until the
 * query has answered for this patient (a live query answers the previous patient's count meanwhile).
 */
export function usePrescriptionCount(patientId: string | null): number | undefined {
  const answer = useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { patientId, count: 0 };
    return { patientId, count: await userDb().prescriptions.where('patient_id').equals(patientId).count() };
  }, [patientId]);
  return answer?.patientId === patientId ? answer.count : undefined;
}
