import { useLiveQuery } from 'dexie-react-hooks';
import { medicalId, type MedicalId } from '../../../domain/medical-id';
import { hasUserDb, userDb } from '../../../local/db';

// What the medical ID reads: this device's tables, never the network, so it opens with no signal (a
// first responder rarely has one). Undefined while the first read runs.

export function useMedicalId(patientId: string | null): MedicalId | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return undefined;
    const db = userDb();
    const profile = await db.profile.toCollection().first();
    if (!profile) return undefined;
    const byPatient = <T extends { patient_id: string }>(rows: T[]) =>
      rows.filter((row) => row.patient_id === patientId);
    return medicalId({
      profile,
      history: (await db.medical_history.where('patient_id').equals(patientId).toArray())[0],
      prescriptions: await db.prescriptions.where('patient_id').equals(patientId).toArray(),
      caregivers: byPatient(await db.careApproved.toArray()),
      doctors: await db.doctors.where('patient_id').equals(patientId).toArray(),
    });
  }, [patientId]);
}
