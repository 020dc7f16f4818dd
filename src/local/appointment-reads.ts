import type { Appointment } from '../domain/appointments';
import { appointmentZone, patientTimeZone } from '../domain/appointment-zones';
import { deviceTimeZone } from '../domain/date-display';
import type { KincareDb } from './db';

// Reading a patient's appointments with the zone each is shown in. Apart from the write path
// (appointments.ts, which checks input with Zod) so that Home's first paint loads no schema library.

/** The patient's zone as this device knows it (`patientTimeZone`: their medicine schedule's zone first). */
export async function patientTimeZoneOf(db: KincareDb, patientId: string): Promise<string> {
  const [prescriptions, appointments] = await Promise.all([
    db.prescriptions.where('patient_id').equals(patientId).toArray(),
    db.appointments.where('patient_id').equals(patientId).toArray(),
  ]);
  return patientTimeZone(prescriptions, appointments, deviceTimeZone());
}

/**
 * A patient's appointments by date, each with the zone it is shown in: an appointment stored before
 * appointments had zones (no time_zone) reads as in the patient's zone. Nothing is rewritten: the stored
 * record keeps no zone until someone saves one.
 */
export async function appointmentsOf(
  db: KincareDb,
  patientId: string,
): Promise<{ rows: (Appointment & { time_zone: string })[]; patientZone: string }> {
  const [rows, patientZone] = await Promise.all([
    db.appointments.where('patient_id').equals(patientId).sortBy('appointment_date'),
    patientTimeZoneOf(db, patientId),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, time_zone: appointmentZone(row, patientZone) })),
    patientZone,
  };
}
