import { useLiveQuery } from 'dexie-react-hooks';
import { DateTime } from 'luxon';
import type { Appointment } from '../../../domain/appointments';
import { appointmentsOf } from '../../../local/appointment-reads';
import { deviceTimeZone } from '../../../domain/date-display';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';

// Reads for the appointments screen: live queries over the local tables, never the network.

/** Each appointment carries the zone it is shown in; `patientZone` is a new appointment's default zone. */
export type AppointmentLists = { upcoming: Appointment[]; past: Appointment[]; patientZone: string };

export function useAppointments(
  patientId: string | null,
  now = DateTime.now(),
): AppointmentLists | undefined {
  const startOfToday = now.startOf('day').toUTC().toISO() ?? '';
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { upcoming: [], past: [], patientZone: deviceTimeZone() };
    const { rows, patientZone } = await appointmentsOf(userDb(), patientId);
    return {
      upcoming: rows.filter((row) => row.appointment_date >= startOfToday),
      past: rows.filter((row) => row.appointment_date < startOfToday).reverse(),
      patientZone,
    };
  }, [patientId, startOfToday]);
}

export function useDoctors(patientId: string | null): LocalDoctor[] {
  return (
    useLiveQuery(
      async () =>
        patientId && hasUserDb() ? userDb().doctors.where('patient_id').equals(patientId).sortBy('name') : [],
      [patientId],
    ) ?? []
  );
}

/**
 * The doctors of these appointments, by patient and directory id (`doctorKey`), from the device's table:
 * an appointment's doctor_id is the directory's id, and the list shows the name, address and phone the
 * patient's list holds for it (offline too).
 */
export function useAppointmentDoctors(appointments: Appointment[]): ReadonlyMap<string, LocalDoctor> {
  const patientIds = [...new Set(appointments.map((appointment) => appointment.patient_id))].sort();
  return (
    useLiveQuery(async () => {
      if (patientIds.length === 0 || !hasUserDb()) return new Map<string, LocalDoctor>();
      const rows = await userDb().doctors.where('patient_id').anyOf(patientIds).toArray();
      return new Map(rows.map((doctor) => [doctorKey(doctor.patient_id, doctor.doctor_id), doctor]));
    }, [patientIds.join(',')]) ?? NO_DOCTORS
  );
}

const NO_DOCTORS: ReadonlyMap<string, LocalDoctor> = new Map();
export const doctorKey = (patientId: string, doctorId: string) => `${patientId}:${doctorId}`;

/**
 * Who added a record, in words, from its caregiver_id: 'you' for this caregiver's own, the caregiver's
 * name for a patient (from the replica's list of their caregivers), else 'a caregiver' (a link since
 * removed, or another caregiver a caregiver cannot see). Null for the patient's own records.
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
