import { useLiveQuery } from 'dexie-react-hooks';
import { DateTime } from 'luxon';
import type { Appointment } from '../../../domain/appointments';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';

// Reads for the appointments screen: live queries over the local tables, never the network.

export type AppointmentLists = { upcoming: Appointment[]; past: Appointment[] };

export function useAppointments(
  patientId: string | null,
  now = DateTime.now(),
): AppointmentLists | undefined {
  const startOfToday = now.startOf('day').toUTC().toISO() ?? '';
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { upcoming: [], past: [] };
    const rows = await userDb().appointments.where('patient_id').equals(patientId).sortBy('appointment_date');
    return {
      upcoming: rows.filter((row) => row.appointment_date >= startOfToday),
      past: rows.filter((row) => row.appointment_date < startOfToday).reverse(),
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
