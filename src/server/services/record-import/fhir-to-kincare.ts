import type { CONDITION_STATUSES } from '../../../domain/medical-history-fields';
import {
  IMPORT_MESSAGES,
  type ImportedAllergy,
  type ImportedCondition,
  type ImportedImmunization,
  type ImportedSurgery,
  type ImportPreview,
} from '../../../domain/record-import';
import {
  codesOf,
  conceptText,
  enteredInError,
  isLab,
  partialDateOf,
  practitionerName,
  statusIs,
  type ResourceIndex,
} from './fhir-common';
import { readLabReports } from './fhir-labs';
import { readMedication } from './fhir-medicines';
import { readVitals } from './fhir-vitals';
import { listAt, objectAt, textAt, type Json } from './json';
import { RecordFileRefusal } from './refusal';

// One mapping from FHIR R4 resources to Kincare's record shapes, for a FHIR file as a portal exports it
// and for a C-CDA document once the converter made FHIR of it (c-cda.ts). Only what the file says is
// kept: a field it leaves out stays null for the person to fill in, and what Kincare does not keep
// (visits, care plans, goals...) is counted in `skipped`, so the person knows it was seen and left.

export type PreviewFound = Omit<ImportPreview, 'patient_matches' | 'may_add'>;

/** The LOINC code of a document's Plan of Treatment section. */
const PLAN_OF_TREATMENT = '18776-5';

/**
 * SNOMED CT's statements that there is nothing to list ('No known allergy', 'No current problems', 'No
 * drug therapy'): a portal writes them as entries, and each would become a record of the very thing it
 * denies.
 */
const NOTHING_KNOWN = new Set([
  '716186003', // No known allergy
  '409137002', // No known drug allergy
  '428607008', // No known environmental allergy
  '429625007', // No known food allergy
  '428197003', // No known insect allergy
  '160245001', // No current problems or disability
  '182849000', // No drug therapy prescribed
  '787481004', // No known medications
]);
export const saysNothingKnown = (concept: unknown) =>
  codesOf(concept).some((code) => NOTHING_KNOWN.has(code));

/** An allergy the file says is current and confirmed; resolved, refuted or unconfirmed ones are not kept. */
function readAllergy(resource: Json): ImportedAllergy | null {
  const code = objectAt(resource, 'code');
  const substance = conceptText(code);
  if (!substance || enteredInError(resource) || saysNothingKnown(code)) return null;
  const clinical = codesOf(objectAt(resource, 'clinicalStatus'));
  const verification = codesOf(objectAt(resource, 'verificationStatus'));
  if (clinical.some((status) => status === 'inactive' || status === 'resolved')) return null;
  if (verification.includes('unconfirmed') || verification.includes('presumed')) return null;
  const reactions = listAt(resource, 'reaction');
  const manifestations = reactions.flatMap((reaction) =>
    listAt(reaction, 'manifestation').flatMap((concept) => conceptText(concept) ?? []),
  );
  const severities = reactions.flatMap((reaction) => textAt(reaction, 'severity') ?? []);
  const worst = (['severe', 'moderate', 'mild'] as const).find((level) => severities.includes(level));
  return {
    substance,
    reaction: [...new Set(manifestations)].join(', '),
    severity: worst ?? null,
  };
}

type ConditionStatus = (typeof CONDITION_STATUSES)[number];

const CONDITION_STATUS: Record<string, ConditionStatus> = {
  active: 'active',
  recurrence: 'active',
  relapse: 'active',
  inactive: 'resolved',
  remission: 'resolved',
  resolved: 'resolved',
};

function readCondition(resource: Json): ImportedCondition | null {
  const code = objectAt(resource, 'code');
  const name = conceptText(code);
  if (!name || enteredInError(resource) || saysNothingKnown(code)) return null;
  const clinical = codesOf(objectAt(resource, 'clinicalStatus'))[0];
  const abated =
    textAt(resource, 'abatementDateTime') !== undefined ||
    objectAt(resource, 'abatementPeriod') !== undefined ||
    textAt(resource, 'abatementString') !== undefined;
  // An end date outweighs a status: the C-CDA converter calls every concern 'active' whatever it says.
  if (abated) return { name, onset: onsetOf(resource), status: 'resolved' };
  return { name, onset: onsetOf(resource), status: (clinical && CONDITION_STATUS[clinical]) || 'active' };
}

const onsetOf = (resource: Json) =>
  partialDateOf(textAt(resource, 'onsetDateTime') ?? textAt(objectAt(resource, 'onsetPeriod'), 'start'));

function readImmunization(resource: Json): ImportedImmunization | null {
  const vaccine = conceptText(objectAt(resource, 'vaccineCode'));
  if (!vaccine || statusIs(resource, 'not-done', 'entered-in-error')) return null;
  return { vaccine, date: partialDateOf(textAt(resource, 'occurrenceDateTime')) };
}

function readProcedure(resource: Json): ImportedSurgery | null {
  const procedure = conceptText(objectAt(resource, 'code'));
  if (!procedure || statusIs(resource, 'not-done', 'entered-in-error', 'preparation')) return null;
  const when =
    textAt(resource, 'performedDateTime') ?? textAt(objectAt(resource, 'performedPeriod'), 'start');
  return { procedure, date: partialDateOf(when) };
}

/** What Kincare does not keep, by resource type, as the person reads it. */
const NOT_KEPT: Record<string, string> = {
  Encounter: 'Visits',
  MedicationDispense: 'Pharmacy fills',
  MedicationAdministration: 'Doses given in hospital',
  CarePlan: 'Care plans',
  Goal: 'Goals',
  CareTeam: 'Care team',
  ServiceRequest: 'Orders and referrals',
  DeviceUseStatement: 'Devices',
  Device: 'Devices',
  Coverage: 'Insurance',
  FamilyMemberHistory: 'Family history',
  DocumentReference: 'Attached documents',
  ClinicalImpression: 'Assessments',
};

function nameOfPatient(patient: Json | undefined): string | null {
  const names = listAt(patient, 'name');
  const name = names.find((entry) => textAt(entry, 'use') === 'official') ?? names[0];
  if (!name) return null;
  const given = (Array.isArray(name.given) ? name.given : []).filter(
    (part): part is string => typeof part === 'string',
  );
  return (
    textAt(name, 'text') ?? ([...given, textAt(name, 'family')].filter(Boolean).join(' ').trim() || null)
  );
}

/** Everything a file's resources hold, in Kincare's shapes. */
export function previewFromFhir(
  format: 'ccda' | 'fhir',
  resources: readonly Json[],
  index: ResourceIndex,
  bundle?: Json,
): PreviewFound {
  const skipped = new Map<string, number>();
  const skip = (what: string, count = 1) => count > 0 && skipped.set(what, (skipped.get(what) ?? 0) + count);
  const composition = resources.find((resource) => resource.resourceType === 'Composition');
  // What a document plans (a vaccine to give, a test to order) has not happened: it is not a record.
  const planned = new Set(
    listAt(composition, 'section')
      .filter((section) => codesOf(objectAt(section, 'code')).includes(PLAN_OF_TREATMENT))
      .flatMap((section) => index.resolveAll(listAt(section, 'entry'))),
  );
  skip('Planned care (the plan of treatment)', planned.size);
  const of = (type: string) =>
    resources.filter((resource) => resource.resourceType === type && !planned.has(resource));
  const kept = <T>(type: string, read: (resource: Json) => T | null, unreadLabel: string): T[] => {
    const found = of(type).map(read);
    skip(unreadLabel, found.filter((item) => item === null).length);
    return found.filter((item): item is T => item !== null);
  };

  const { reports, unread, withoutResults } = readLabReports(
    resources.filter((resource) => !planned.has(resource)),
    index,
  );
  skip('Results without a value (or with one too long to keep)', unread);
  skip('Reports in words only (imaging, pathology)', withoutResults);
  const vitals = readVitals(of('Observation'));
  for (const [what, count] of vitals.skipped) skip(what, count);
  const otherObservations = of('Observation').filter(
    (observation) => !isLab(observation) && !vitals.read.has(observation),
  );
  skip('Other observations (social history, assessments)', otherObservations.length);
  for (const resource of resources) {
    const label = NOT_KEPT[textAt(resource, 'resourceType') ?? ''];
    if (label && !planned.has(resource)) skip(label);
  }

  const patients = of('Patient');
  const people = new Set(
    patients.map((one) => `${nameOfPatient(one) ?? ''}|${textAt(one, 'birthDate') ?? ''}`),
  );
  // Every record would be imported whoever it is about: a file of several people is not read at all.
  if (people.size > 1) throw new RecordFileRefusal(400, IMPORT_MESSAGES.severalPatients);
  const patient = patients[0];
  const author = listAt(composition, 'author')[0];
  const custodian = objectAt(composition, 'custodian');
  return {
    source: {
      format,
      title: textAt(composition, 'title') ?? null,
      date: textAt(composition, 'date') ?? textAt(bundle, 'timestamp') ?? null,
      author: practitionerName(index, author),
      organization: textAt(custodian, 'display') ?? textAt(index.resolve(custodian), 'name') ?? null,
      patient_name: nameOfPatient(patient),
      patient_birth_date: textAt(patient, 'birthDate') ?? null,
    },
    allergies: kept('AllergyIntolerance', readAllergy, 'Allergies that could not be read'),
    conditions: kept('Condition', readCondition, 'Conditions that could not be read'),
    immunizations: kept('Immunization', readImmunization, 'Immunizations not given or not readable'),
    surgeries: kept('Procedure', readProcedure, 'Procedures not done or not readable'),
    prescriptions: [
      ...kept(
        'MedicationRequest',
        (resource) => readMedication(resource, index, format),
        'Medicines that could not be read',
      ),
      ...kept(
        'MedicationStatement',
        (resource) => readMedication(resource, index, format),
        'Medicines that could not be read',
      ),
    ],
    lab_reports: reports,
    vitals: vitals.vitals,
    skipped: [...skipped].map(([what, count]) => ({ what, count })),
  };
}
