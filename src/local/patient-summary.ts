import {
  patientSummary,
  SUMMARY_RESOURCES,
  summaryFileName,
  type PatientSummary,
  type PatientSummaryInput,
} from '../domain/patient-summary';
import { RESOURCE_READ_PERMISSION } from '../domain/permissions';
import type { KincareDb } from './db';

// The patient summary made on the device (src/domain/README.md, "Taking records to the doctor"): the same
// function the server answers GET /api/export/fhir with, run on the replica, so it works with no signal
// and holds what the device holds (changes not yet sent too). A caregiver's holds the kinds of record the
// patient lets them read, as the server's does; the rest is marked withheld.

export const SUMMARY_DEVICE_MESSAGES = {
  notLinked: 'This patient is not among the people you care for on this device.',
  signedOut: 'Sign in to make a summary.',
} as const;

export class SummaryError extends Error {
  override name = 'SummaryError';
}

/** Who the summary is of and by, and which resources it may hold, as this device knows them. */
async function viewOf(db: KincareDb, patientId: string) {
  const profile = await db.profile.toCollection().first();
  if (!profile) throw new SummaryError(SUMMARY_DEVICE_MESSAGES.signedOut);
  if (profile.role === 'Patient' && profile.patient_id === patientId)
    return {
      readable: [...SUMMARY_RESOURCES],
      patient: { id: patientId, name: profile.name, birth_date: profile.birth_date, gender: profile.gender },
      author: { kind: 'patient' } as const,
    };
  const link = await db.associatedPatients.get(patientId);
  if (profile.role !== 'Caregiver' || !profile.caregiver_id || !link)
    throw new SummaryError(SUMMARY_DEVICE_MESSAGES.notLinked);
  return {
    readable: SUMMARY_RESOURCES.filter((resource) =>
      link.permissions.includes(RESOURCE_READ_PERMISSION[resource]),
    ),
    patient: { id: patientId, name: link.name },
    author: { kind: 'caregiver', id: profile.caregiver_id, name: profile.name } as const,
  };
}

/** The patient's summary from this device's replica. */
export async function deviceSummary(
  db: KincareDb,
  patientId: string,
  options: { now?: Date; documentId?: string } = {},
): Promise<PatientSummary> {
  const view = await viewOf(db, patientId);
  const records: Record<string, unknown[]> = {};
  for (const resource of view.readable)
    records[resource] = await db[resource].filter((record) => record.patient_id === patientId).toArray();
  return patientSummary({
    patient: view.patient,
    author: view.author,
    records: records as PatientSummaryInput['records'],
    generatedAt: (options.now ?? new Date()).toISOString(),
    documentId: options.documentId ?? crypto.randomUUID(),
  });
}

/** The summary as the file to save: named after the patient and the day, as application/fhir+json. */
export function summaryFile(summary: PatientSummary): File {
  const patient = summary.entry.find(({ resource }) => resource.resourceType === 'Patient')?.resource;
  const name = (patient?.name as { text?: string }[] | undefined)?.[0]?.text ?? '';
  return new File([JSON.stringify(summary, null, 2)], summaryFileName(name, String(summary.timestamp)), {
    type: 'application/fhir+json',
  });
}
