import { useLiveQuery } from 'dexie-react-hooks';
import {
  comparePrescriptions,
  isCurrentOrUpcoming,
  matchesPrescriptionFilter,
  type Prescription,
  type PrescriptionFilter,
} from '../../../domain/prescriptions';
import type { ApprovedRequest } from '../../../domain/caregivers';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';

// Reads for the prescriptions screen: live queries over the device's tables (offline too), never the
// network. Undefined while the first read runs, so the screen does not flash an empty state.

/** Whether any filter is set: without one the screen shows the 'future' list (current and upcoming). */
export function hasFilter(filter: PrescriptionFilter): boolean {
  return Boolean(filter.status || filter.doctor || filter.startDate || filter.endDate);
}

/**
 * The patient's prescriptions as the screen lists them: with no filter, the 'future' list (active or on
 * hold, not ended before `today`); with one, every prescription the filter keeps (the same rule as
 * GET /api/prescriptions/filter). Sorted newest start first.
 */
export function selectPrescriptions(
  rows: readonly Prescription[],
  filter: PrescriptionFilter,
  today: string,
): Prescription[] {
  const kept = hasFilter(filter)
    ? rows.filter((row) => matchesPrescriptionFilter(row, filter))
    : rows.filter((row) => isCurrentOrUpcoming(row, today));
  return [...kept].sort(comparePrescriptions);
}

export function usePatientPrescriptions(patientId: string | null): Prescription[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    return userDb().prescriptions.where('patient_id').equals(patientId).toArray();
  }, [patientId]);
}

export function usePatientDoctors(patientId: string | null): LocalDoctor[] {
  return (
    useLiveQuery(async () => {
      if (!patientId || !hasUserDb()) return [];
      const rows = await userDb().doctors.where('patient_id').equals(patientId).toArray();
      return rows.sort((a, b) => a.name.localeCompare(b.name));
    }, [patientId]) ?? NONE
  );
}

export function usePatientPharmacies(patientId: string | null): MyPharmacy[] {
  return (
    useLiveQuery(async () => {
      if (!patientId || !hasUserDb()) return [];
      const rows = await userDb().pharmacies.where('patient_id').equals(patientId).toArray();
      return rows.sort((a, b) => a.name.localeCompare(b.name));
    }, [patientId]) ?? NONE
  );
}

/** The patient's caregivers (the patient's own device holds this list), to choose who a missed dose alerts. */
export function usePatientCaregivers(enabled: boolean): ApprovedRequest[] {
  return (
    useLiveQuery(async () => {
      if (!enabled || !hasUserDb()) return [];
      const rows = await userDb().careApproved.toArray();
      // One entry per caregiver, by name.
      const byCaregiver = new Map(rows.map((row) => [row.caregiver_id, row]));
      return [...byCaregiver.values()].sort((a, b) => a.name.localeCompare(b.name));
    }, [enabled]) ?? NONE
  );
}

const NONE: never[] = [];

/**
 * Who added a record, in words, from its caregiver_id: 'you' for this caregiver's own, the caregiver's
 * name for a patient (from the device's list of their caregivers), else 'a caregiver'. Null for the
 * patient's own records.
 */
export function useAddedBy(ownCaregiverId: string | null): (caregiverId: string | null) => string | null {
  const names = useLiveQuery(
    async () =>
      hasUserDb()
        ? new Map((await userDb().careApproved.toArray()).map((link) => [link.caregiver_id, link.name]))
        : new Map<string, string>(),
    [],
  );
  return (caregiverId) => {
    if (!caregiverId) return null;
    if (caregiverId === ownCaregiverId) return 'you';
    return names?.get(caregiverId) ?? 'a caregiver';
  };
}
