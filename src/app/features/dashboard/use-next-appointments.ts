import { useLiveQuery } from 'dexie-react-hooks';
import type { Appointment } from '../../../domain/appointments';
import { startOfTodayIso } from '../../../domain/clock';
import { appointmentsOf } from '../../../local/appointment-reads';
import { hasUserDb, userDb } from '../../../local/db';

/**
 * The next scheduled appointments of a patient, soonest first, from the local table (never the network,
 * so Home opens offline). Today's count as next all day, as on the appointments screen. Undefined until
 * the query has answered for this patient (a live query answers the previous patient's rows meanwhile).
 * Each carries the zone it is shown in (its own, or the patient's for one stored without a zone).
 */
export function useNextAppointments(patientId: string | null, limit: number): Appointment[] | undefined {
  const startOfToday = startOfTodayIso();
  const answer = useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return { patientId, rows: [] };
    const { rows } = await appointmentsOf(userDb(), patientId);
    return {
      patientId,
      rows: rows
        .filter((row) => row.appointment_date >= startOfToday && row.status === 'scheduled')
        .slice(0, limit),
    };
  }, [patientId, startOfToday, limit]);
  return answer?.patientId === patientId ? answer.rows : undefined;
}
