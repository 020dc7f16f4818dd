import type { ShownIn } from '../domain/date-display';
import type { MedicalIdInput } from '../domain/medical-id';
import { visitSummary, type VisitSummary } from '../domain/visit-summary';
import type { KincareDb } from './db';

// What the patient's medical ID and visit summary are made of (domain/medical-id.ts,
// domain/visit-summary.ts), read from this device's tables so both are made with no signal. Both are the
// patient's own: null unless the replica is the patient's (a caregiver's has no profile of the patient).

/** The profile, history, medicines, caregivers and doctors the medical ID lists. */
export async function medicalIdInputOf(db: KincareDb, patientId: string): Promise<MedicalIdInput | null> {
  const profile = await db.profile.toCollection().first();
  if (!profile || profile.patient_id !== patientId) return null;
  const ofPatient = { patient_id: patientId };
  const [history, prescriptions, links, doctors] = await Promise.all([
    db.medical_history.where(ofPatient).first(),
    db.prescriptions.where(ofPatient).toArray(),
    db.careApproved.toArray(),
    db.doctors.where(ofPatient).toArray(),
  ]);
  const caregivers = links.filter((link) => link.patient_id === patientId);
  return { profile, history, prescriptions, caregivers, doctors };
}

export async function visitSummaryOf(
  db: KincareDb,
  patientId: string,
  options: { now?: Date; shown?: ShownIn } = {},
): Promise<VisitSummary | null> {
  const base = await medicalIdInputOf(db, patientId);
  if (!base) return null;
  const ofPatient = { patient_id: patientId };
  const [labReports, vitals, appointments] = await Promise.all([
    db.lab_reports.where(ofPatient).toArray(),
    db.vitals.filter((reading) => reading.patient_id === patientId).toArray(),
    db.appointments.where(ofPatient).toArray(),
  ]);
  return visitSummary({
    ...base,
    labReports,
    vitals,
    appointments,
    now: options.now ?? new Date(),
    ...(options.shown ? { shown: options.shown } : {}),
  });
}
