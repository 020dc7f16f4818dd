import { useLiveQuery } from 'dexie-react-hooks';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { hasUserDb, userDb } from '../../../local/db';
import { pharmaciesOf } from '../../../local/pharmacies';

// Reads for the pharmacies screen: the patient's list from the device's table (works offline), never the
// network, the preferred one first. Undefined while the first read runs, so the screen does not flash
// "no pharmacies".

export function useMyPharmacies(patientId: string | null): MyPharmacy[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    return pharmaciesOf(userDb(), patientId);
  }, [patientId]);
}
