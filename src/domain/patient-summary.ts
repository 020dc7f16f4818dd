import { z } from 'zod';
import type { MyDoctor } from './doctors';
import type { LabReport } from './lab-reports';
import { assembleHistory, type MedicalHistory } from './medical-history';
import type { Prescription } from './prescriptions';
import { uuidFromName } from './record-ids';
import { fileNameWord } from './text';
import type { Vital, VitalKind } from './vitals';
import {
  allergyIntolerance,
  condition,
  immunization,
  labReport,
  medicationStatement,
  practitioner,
  procedure,
  vitalSign,
  type SummaryEntry,
} from './patient-summary-entries';
import { loinc, narrative, reference, type FhirResource } from './patient-summary-fhir';

// The patient summary (README.md beside this file, "Taking records to the doctor"): a patient's records as
// one FHIR R4 document in the shape of the International Patient Summary. The server answers it
// (GET /api/export/fhir) from the records it holds and the device builds it from its replica, offline, with
// this same function, so both give the same document for the same records. The Medications, Allergies and
// Problems sections are always there: empty, they say why (nothing recorded, or not shared with the
// person who made the summary); the others appear when they hold something.

/** The resources whose records a summary draws on; a caregiver's summary holds those they may read. */
export const SUMMARY_RESOURCES = [
  'prescriptions',
  'medical_history',
  'lab_reports',
  'vitals',
  'doctors',
] as const;
export type SummaryResource = (typeof SUMMARY_RESOURCES)[number];

export type PatientSummaryInput = {
  /** The patient; birth date and gender only when the person making it knows them (the patient). */
  patient: { id: string; name: string; birth_date?: string | null; gender?: string | null };
  /** Who made it: the patient, or one of their caregivers (a RelatedPerson in the document). */
  author: { kind: 'patient' } | { kind: 'caregiver'; id: string; name: string };
  /** The patient's live records of each resource the author may read; a resource absent is withheld. */
  records: {
    prescriptions?: readonly Prescription[];
    medical_history?: readonly MedicalHistory[];
    lab_reports?: readonly LabReport[];
    vitals?: readonly Vital[];
    doctors?: readonly MyDoctor[];
  };
  /** When it was made (ISO 8601), and the document's own id (a UUID). */
  generatedAt: string;
  documentId: string;
};

export type PatientSummary = FhirResource & {
  resourceType: 'Bundle';
  type: 'document';
  entry: { fullUrl: string; resource: FhirResource }[];
};

/** How many of each kind's latest readings the Vital signs section lists. */
export const VITALS_PER_KIND = 5;

const EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';
const SECTIONS = {
  medications: { code: '10160-0', display: 'History of Medication use Narrative', title: 'Medications' },
  allergies: {
    code: '48765-2',
    display: 'Allergies and adverse reactions Document',
    title: 'Allergies and Intolerances',
  },
  problems: { code: '11450-4', display: 'Problem list - Reported', title: 'Problems' },
  immunizations: { code: '11369-6', display: 'History of Immunization Narrative', title: 'Immunizations' },
  procedures: { code: '47519-4', display: 'History of Procedures Document', title: 'History of Procedures' },
  results: {
    code: '30954-2',
    display: 'Relevant diagnostic tests/laboratory data Narrative',
    title: 'Results',
  },
  vitals: { code: '8716-3', display: 'Vital signs', title: 'Vital Signs' },
} as const;
type SectionKey = keyof typeof SECTIONS;

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

const GENDERS: Record<string, string> = {
  male: 'male',
  man: 'male',
  female: 'female',
  woman: 'female',
  other: 'other',
};

function patientResource(patient: PatientSummaryInput['patient'], doctors: SummaryEntry[]): FhirResource {
  const gender = patient.gender ? GENDERS[patient.gender.trim().toLowerCase()] : undefined;
  const birthDate =
    patient.birth_date && /^\d{4}-\d{2}-\d{2}$/.test(patient.birth_date) ? patient.birth_date : null;
  return {
    resourceType: 'Patient',
    id: patient.id.toLowerCase(),
    name: [{ text: patient.name }],
    ...(gender ? { gender } : {}),
    ...(birthDate ? { birthDate } : {}),
    // The patient's own doctors: how the document names them.
    ...(doctors.length > 0
      ? { generalPractitioner: doctors.map(({ resource }) => reference(resource.id)) }
      : {}),
  };
}

/**
 * A section: its entries and narrative, or (for a section the summary always has) an empty one with the
 * reason. `withheld`: the author may not read what it would hold.
 */
function section(key: SectionKey, entries: SummaryEntry[] | null, listed = entries) {
  const { code, display, title } = SECTIONS[key];
  const base = { title, code: loinc(code, display) };
  if (entries === null)
    return {
      ...base,
      text: narrative([`Not shared with the person who made this summary.`]),
      emptyReason: { coding: [{ system: EMPTY_REASON, code: 'withheld', display: 'Information Withheld' }] },
    };
  if (entries.length === 0)
    return {
      ...base,
      text: narrative([`None recorded in Kincare.`]),
      emptyReason: { coding: [{ system: EMPTY_REASON, code: 'unavailable', display: 'Unavailable' }] },
    };
  return {
    ...base,
    text: narrative((listed ?? entries).map(({ line }) => line)),
    entry: (listed ?? entries).map(({ resource }) => reference(resource.id)),
  };
}

/** The newest readings of each kind, newest first, kinds in the order people know them. */
function latestVitals(vitals: readonly Vital[]): Vital[] {
  const byKind = new Map<VitalKind, Vital[]>();
  for (const vital of [...vitals].sort((a, b) => newestFirst(a.measured_at, b.measured_at) || byId(a, b))) {
    const list = byKind.get(vital.kind) ?? [];
    if (list.length < VITALS_PER_KIND) list.push(vital);
    byKind.set(vital.kind, list);
  }
  return [...byKind.values()].flat();
}

/** The summary of `input`'s records, as a FHIR R4 document Bundle. */
export async function patientSummary(input: PatientSummaryInput): Promise<PatientSummary> {
  const patientId = input.patient.id.toLowerCase();
  const { records } = input;
  const doctors = [...(records.doctors ?? [])].sort(byId).map(practitioner);
  const patient = patientResource(input.patient, doctors);

  const medications = records.prescriptions
    ? [...records.prescriptions]
        .sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || byId(a, b))
        .map((prescription) => medicationStatement(prescription, patientId))
    : null;
  const history = records.medical_history
    ? assembleHistory(records.medical_history.find((record) => record.patient_id === input.patient.id) ?? {})
    : null;
  const allergies = history ? history.allergies.map((entry) => allergyIntolerance(entry, patientId)) : null;
  const problems = history ? history.conditions.map((entry) => condition(entry, patientId)) : null;
  const immunizations = history?.immunizations.map((entry) => immunization(entry, patientId)) ?? [];
  const procedures = history?.surgeries.map((entry) => procedure(entry, patientId)) ?? [];
  const reports = [...(records.lab_reports ?? [])].sort(
    (a, b) => newestFirst(a.report_date, b.report_date) || byId(a, b),
  );
  const results = (await Promise.all(reports.map((report) => labReport(report, patientId)))).flat();
  const vitals = latestVitals(records.vitals ?? []).map((vital) => vitalSign(vital, patientId));

  const sections = [
    section('medications', medications),
    section('allergies', allergies),
    section('problems', problems),
    ...(immunizations.length > 0 ? [section('immunizations', immunizations)] : []),
    ...(procedures.length > 0 ? [section('procedures', procedures)] : []),
    // The Results section lists the reports; each report's rows are its `result`.
    ...(results.length > 0
      ? [
          section(
            'results',
            results,
            results.filter(({ resource }) => resource.resourceType === 'DiagnosticReport'),
          ),
        ]
      : []),
    ...(vitals.length > 0 ? [section('vitals', vitals)] : []),
  ];

  const author: FhirResource =
    input.author.kind === 'patient'
      ? patient
      : {
          resourceType: 'RelatedPerson',
          id: await uuidFromName(`kincare-caregiver:${input.author.id.toLowerCase()}:${patientId}`),
          patient: reference(patientId),
          name: [{ text: input.author.name }],
        };
  const composition: FhirResource = {
    resourceType: 'Composition',
    id: await uuidFromName(`kincare-summary:${input.documentId.toLowerCase()}`),
    status: 'final',
    type: loinc('60591-5', 'Patient summary Document'),
    subject: reference(patientId),
    date: input.generatedAt,
    author: [reference(author.id)],
    title: `Patient summary of ${input.patient.name}`,
    section: sections,
  };
  const resources = [
    composition,
    patient,
    ...(author === patient ? [] : [author]),
    ...doctors.map(({ resource }) => resource),
    ...[medications, allergies, problems, immunizations, procedures, results, vitals].flatMap(
      (entries) => entries?.map(({ resource }) => resource) ?? [],
    ),
  ];
  return {
    resourceType: 'Bundle',
    id: input.documentId.toLowerCase(),
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${input.documentId.toLowerCase()}` },
    type: 'document',
    timestamp: input.generatedAt,
    entry: resources.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })),
  };
}

/** The file name a summary is saved under: the patient's name and the day, in letters a file system takes. */
export function summaryFileName(patientName: string, generatedAt: string): string {
  return `kincare-summary-${fileNameWord(patientName, 'patient')}-${generatedAt.slice(0, 10)}.json`;
}

export const PATIENT_SUMMARY_MESSAGES = {
  patientInvalid: 'Choose a valid patient.',
  patientRequired: 'Please select patient.',
} as const;

/** GET /api/export/fhir?patient=<patient id>: the caller's own when left out (a patient). */
export const patientSummaryQuerySchema = z.object({
  patient: z.uuid({ error: PATIENT_SUMMARY_MESSAGES.patientInvalid }).optional(),
});

/** Its answer: a FHIR document Bundle (checked here only for its kind; tests check it with a validator). */
export const patientSummaryResponseSchema = z.looseObject({
  resourceType: z.literal('Bundle'),
  type: z.literal('document'),
  entry: z.array(
    z.looseObject({ fullUrl: z.string(), resource: z.looseObject({ resourceType: z.string() }) }),
  ),
});
