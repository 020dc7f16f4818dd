import type { SyncedResource } from '../../domain/sync';
import { appointmentMutations } from './appointment-mutations';
import { checkInMutations } from './check-in-mutations';
import { doctorMutations } from './doctor-mutations';
import { doseMarkMutations } from './dose-mark-mutations';
import { labReportMutations } from './lab-report-mutations';
import { medicalHistoryMutations } from './medical-history-mutations';
import { pharmacyMutations } from './pharmacy-mutations';
import { prescriptionMutations } from './prescription-mutations';
import type { ResourceMutations } from './record-mutations';

// Which handlers apply a pushed change of each synced resource (POST /api/sync/push). A new synced
// resource defines its mutations with defineMutations, uses them in its REST routes, and is listed here
// (the type asks for every resource of SYNCED_RESOURCES).
export const SYNCED_MUTATIONS: Record<SyncedResource, ResourceMutations> = {
  appointments: appointmentMutations,
  doctors: doctorMutations,
  pharmacies: pharmacyMutations,
  prescriptions: prescriptionMutations,
  dose_marks: doseMarkMutations,
  lab_reports: labReportMutations,
  check_ins: checkInMutations,
  medical_history: medicalHistoryMutations,
};
