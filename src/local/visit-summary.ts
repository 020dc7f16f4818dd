import type { ShownIn } from '../domain/date-display';
import { visitSummary, type VisitSummary } from '../domain/visit-summary';
import type { KincareDb } from './db';

// The visit summary of the signed-in patient from this device's tables (domain/visit-summary.ts), so it
// is made with no signal; null unless the replica is the patient's own (signed in through the app).

export async function visitSummaryOf(
  db: KincareDb,
  patientId: string,
  options: { now?: Date; shown?: ShownIn } = {},
): Promise<VisitSummary | null> {
  const profile = await db.profile.toCollection().first();
  // The patient's own: a caregiver's replica has no profile of the patient to put at its top.
  if (!profile || profile.patient_id !== patientId) return null;
  const ofPatient = { patient_id: patientId };
  const [history, prescriptions, labReports, vitals, appointments, links, doctors] = await Promise.all([
    db.medical_history.where(ofPatient).first(),
    db.prescriptions.where(ofPatient).toArray(),
    db.lab_reports.where(ofPatient).toArray(),
    db.vitals.filter((reading) => reading.patient_id === patientId).toArray(),
    db.appointments.where(ofPatient).toArray(),
    db.careApproved.toArray(),
    db.doctors.where(ofPatient).toArray(),
  ]);
  return visitSummary({
    profile,
    history,
    prescriptions,
    labReports,
    vitals,
    appointments,
    caregivers: links.filter((link) => link.patient_id === patientId),
    doctors,
    now: options.now ?? new Date(),
    ...(options.shown ? { shown: options.shown } : {}),
  });
}
