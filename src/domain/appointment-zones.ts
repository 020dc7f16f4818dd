// Which zone an appointment's time is read on (README.md beside this file, Appointments): apart from
// appointments.ts so that Home, which shows the next appointments on its first paint, loads neither Zod nor
// Luxon for it.

/** The zone an appointment is shown in: its own, or the patient's for one stored without a zone. */
export const appointmentZone = (appointment: { time_zone?: string | null }, patientZone: string): string =>
  appointment.time_zone ?? patientZone;

/**
 * The patient's zone, as a device can know it: the zone of the patient's medicine schedule (their most
 * recently changed prescription's zone), else that of their most recently changed appointment with a zone,
 * else this device's. The device of a caregiver in another zone so writes and reads the patient's times.
 */
export function patientTimeZone(
  prescriptions: readonly { time_zone: string; updated_at: string }[],
  appointments: readonly { time_zone?: string | null; updated_at: string }[],
  deviceZone: string,
): string {
  const newest = <T extends { updated_at: string }>(rows: readonly T[]) =>
    [...rows].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
  return (
    newest(prescriptions)?.time_zone ??
    newest(appointments.filter((row) => row.time_zone))?.time_zone ??
    deviceZone
  );
}
