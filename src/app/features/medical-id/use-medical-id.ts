import { useLiveQuery } from 'dexie-react-hooks';
import { medicalId, type MedicalId } from '../../../domain/medical-id';
import { hasUserDb, userDb } from '../../../local/db';
import { medicalIdInputOf } from '../../../local/visit-summary';

// What the medical ID reads: this device's tables, never the network, so it opens with no signal (a
// first responder rarely has one). Undefined while the first read runs, and for anyone but the patient.

export function useMedicalId(patientId: string | null): MedicalId | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return undefined;
    const input = await medicalIdInputOf(userDb(), patientId);
    return input ? medicalId(input) : undefined;
  }, [patientId]);
}
