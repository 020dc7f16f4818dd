import { RESOURCES, type SyncedResource } from '../domain/resources/list';
import { isRecordsResource, recordsOfResource } from '../domain/resources/records-list';
import { appointmentMutations } from './services/appointment-mutations';
import { checkInMutations } from './services/check-in-mutations';
import { doctorMutations } from './services/doctor-mutations';
import { doseMarkMutations } from './services/dose-mark-mutations';
import { labReportMutations } from './services/lab-report-mutations';
import { medicalHistoryMutations } from './services/medical-history-mutations';
import { pharmacyMutations } from './services/pharmacy-mutations';
import { prescriptionMutations } from './services/prescription-mutations';
import { recordResource, type ServerResource } from './services/record-resource';

// The server's one list of the synced resources: those with code of their own here (their mutations,
// whose REST routes are made from them, and route files for what is more than a mutation). Every other
// synced resource is served from its declaration alone (services/record-resource.ts). See
// src/server/README.md, "Adding a resource".

const OWN_CODE: Partial<Record<SyncedResource, ServerResource>> = {
  appointments: { mutations: appointmentMutations },
  doctors: { mutations: doctorMutations },
  pharmacies: { mutations: pharmacyMutations },
  prescriptions: { mutations: prescriptionMutations },
  dose_marks: { mutations: doseMarkMutations },
  lab_reports: { mutations: labReportMutations },
  check_ins: { mutations: checkInMutations },
  medical_history: { mutations: medicalHistoryMutations },
};

/** Every synced resource's server side, by key. */
export const SERVER_RESOURCES = Object.fromEntries(
  RESOURCES.map((declaration) => {
    const own = OWN_CODE[declaration.key];
    if (own) return [declaration.key, own];
    if (!isRecordsResource(declaration.key))
      throw new Error(`The synced resource ${declaration.key} has neither server code nor records to serve.`);
    return [declaration.key, recordResource({ ...declaration, records: recordsOfResource(declaration.key) })];
  }),
) as Record<SyncedResource, ServerResource>;
