import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';

// Reads for the doctors screen: the patient's list from the device's table (works offline), never the
// network. Undefined while the first read runs, so the screen does not flash "no doctors".

export function useMyDoctors(patientId: string | null): LocalDoctor[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    const rows = await userDb().doctors.where('patient_id').equals(patientId).toArray();
    return rows.sort((a, b) => a.name.localeCompare(b.name));
  }, [patientId]);
}
