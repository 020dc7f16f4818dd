import type { MyDoctor } from './doctors';
import type { LabReport } from './lab-reports';
import type { HistoryEntry } from './medical-history';
import { ALLERGY_SEVERITY_LABELS, CONDITION_STATUS_LABELS } from './medical-history-fields';
import { PRESCRIPTION_STATUS_LABELS, type Prescription } from './prescriptions';
import { uuidFromName } from './record-ids';
import { readingIn, VITAL_LABELS, type Vital, type VitalUnit } from './vitals';
import {
  category,
  fhirDate,
  fhirDateTime,
  interpretation,
  labValue,
  loinc,
  quantity,
  reference,
  referenceRange,
  VITAL_CODES,
  VITAL_UCUM,
  type FhirResource,
} from './patient-summary-fhir';

// Each kind of Kincare record as the FHIR R4 resource the patient summary carries (patient-summary.ts), and
// the line its section's narrative says of it. Each takes the patient's resource id; ids of resources are
// the records' own (lower case), and a lab row's is made from its report and its place in it, so the
// device and the server name every resource alike.

export type SummaryEntry = { resource: FhirResource; line: string };

const MEDICATION_STATUS: Record<Prescription['status'], string> = {
  active: 'active',
  on_hold: 'on-hold',
  completed: 'completed',
  discontinued: 'stopped',
};

export function medicationStatement(prescription: Prescription, patientId: string): SummaryEntry {
  const name = [prescription.medicine_name, prescription.strength].filter(Boolean).join(' ');
  const times = prescription.times.map((time) => `${time}:00`);
  const when = prescription.as_needed
    ? 'as needed'
    : times.length > 0
      ? `at ${prescription.times.join(', ')}`
      : '';
  const start = fhirDate(prescription.start_date);
  const end = fhirDate(prescription.end_date);
  return {
    resource: {
      resourceType: 'MedicationStatement',
      id: prescription.id.toLowerCase(),
      status: MEDICATION_STATUS[prescription.status],
      medicationCodeableConcept: { text: `${name} (${prescription.form.toLowerCase()})` },
      subject: reference(patientId),
      ...(start ? { effectivePeriod: { start, ...(end && end >= start ? { end } : {}) } } : {}),
      dosage: [
        {
          ...(prescription.directions ? { text: prescription.directions } : {}),
          ...(times.length > 0 && !prescription.as_needed
            ? { timing: { repeat: { timeOfDay: times } } }
            : {}),
          asNeededBoolean: prescription.as_needed,
        },
      ],
    },
    line: [
      `${name} (${prescription.form.toLowerCase()})`,
      prescription.directions,
      when,
      PRESCRIPTION_STATUS_LABELS[prescription.status],
    ]
      .filter(Boolean)
      .join('; '),
  };
}

export function allergyIntolerance(allergy: HistoryEntry<'allergies'>, patientId: string): SummaryEntry {
  const high = allergy.severity === 'severe' || allergy.severity === 'life_threatening';
  const severity = allergy.severity === 'life_threatening' ? 'severe' : allergy.severity;
  return {
    resource: {
      resourceType: 'AllergyIntolerance',
      id: allergy.id.toLowerCase(),
      clinicalStatus: {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
            code: 'active',
            display: 'Active',
          },
        ],
      },
      criticality: high ? 'high' : 'low',
      code: { text: allergy.substance },
      patient: reference(patientId),
      ...(allergy.reaction ? { reaction: [{ manifestation: [{ text: allergy.reaction }], severity }] } : {}),
    },
    line: [allergy.substance, allergy.reaction, ALLERGY_SEVERITY_LABELS[allergy.severity]]
      .filter(Boolean)
      .join('; '),
  };
}

export function condition(entry: HistoryEntry<'conditions'>, patientId: string): SummaryEntry {
  const onset = fhirDate(entry.onset);
  const resolved = entry.status === 'resolved';
  return {
    resource: {
      resourceType: 'Condition',
      id: entry.id.toLowerCase(),
      clinicalStatus: {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
            code: resolved ? 'resolved' : 'active',
            display: resolved ? 'Resolved' : 'Active',
          },
        ],
      },
      category: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/condition-category',
              code: 'problem-list-item',
              display: 'Problem List Item',
            },
          ],
        },
      ],
      code: { text: entry.name },
      subject: reference(patientId),
      ...(onset ? { onsetDateTime: onset } : {}),
      ...(entry.notes ? { note: [{ text: entry.notes }] } : {}),
    },
    line: [entry.name, CONDITION_STATUS_LABELS[entry.status], onset ? `since ${onset}` : '']
      .filter(Boolean)
      .join('; '),
  };
}

export function immunization(entry: HistoryEntry<'immunizations'>, patientId: string): SummaryEntry {
  const date = fhirDate(entry.date);
  return {
    resource: {
      resourceType: 'Immunization',
      id: entry.id.toLowerCase(),
      status: 'completed',
      vaccineCode: { text: entry.vaccine },
      patient: reference(patientId),
      // FHIR needs an occurrence: a dose whose date nobody recorded says so.
      ...(date ? { occurrenceDateTime: date } : { occurrenceString: 'Date not recorded' }),
    },
    line: `${entry.vaccine}; ${date ?? 'date not recorded'}`,
  };
}

export function procedure(entry: HistoryEntry<'surgeries'>, patientId: string): SummaryEntry {
  const date = fhirDate(entry.date);
  return {
    resource: {
      resourceType: 'Procedure',
      id: entry.id.toLowerCase(),
      status: 'completed',
      code: { text: entry.procedure },
      subject: reference(patientId),
      ...(date ? { performedDateTime: date } : {}),
      ...(entry.notes ? { note: [{ text: entry.notes }] } : {}),
    },
    line: [entry.procedure, date ?? 'date not recorded'].join('; '),
  };
}

/**
 * A lab report as a DiagnosticReport with an Observation per row. A row the extraction was unsure of and
 * nobody has checked is 'preliminary', and says so: a value read from a photo is not a lab's final word.
 */
export async function labReport(report: LabReport, patientId: string): Promise<SummaryEntry[]> {
  const date = fhirDate(report.report_date);
  const observations = await Promise.all(
    report.results.map(async (row, index): Promise<SummaryEntry> => {
      const range = referenceRange(row.reference_range, row.unit);
      const flag = interpretation(row.flag);
      const unsure = row.needs_review === true;
      return {
        resource: {
          resourceType: 'Observation',
          id: await uuidFromName(`kincare-lab-result:${report.id.toLowerCase()}:${index}`),
          status: unsure ? 'preliminary' : 'final',
          category: category('laboratory', 'Laboratory'),
          code: row.code ? { ...loinc(row.code, row.name), text: row.name } : { text: row.name },
          subject: reference(patientId),
          ...(date ? { effectiveDateTime: date } : {}),
          ...labValue(row),
          ...(flag ? { interpretation: flag } : {}),
          ...(range ? { referenceRange: [range] } : {}),
          ...(unsure
            ? { note: [{ text: 'Read from the report automatically and not yet checked by a person.' }] }
            : {}),
        },
        line: [
          `${row.name}: ${row.value}${row.unit ? ` ${row.unit}` : ''}`,
          row.flag === 'H' ? 'high' : row.flag === 'L' ? 'low' : '',
          row.reference_range ? `range ${row.reference_range}` : '',
          unsure ? 'not yet checked' : '',
        ]
          .filter(Boolean)
          .join('; '),
      };
    }),
  );
  const unsure = observations.some(({ resource }) => resource.status === 'preliminary');
  return [
    {
      resource: {
        resourceType: 'DiagnosticReport',
        id: report.id.toLowerCase(),
        status: unsure ? 'preliminary' : 'final',
        category: [
          {
            coding: [
              { system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' },
            ],
          },
        ],
        code: { text: report.report_type },
        subject: reference(patientId),
        ...(date ? { effectiveDateTime: date } : {}),
        ...(observations.length > 0
          ? { result: observations.map(({ resource }) => reference(resource.id)) }
          : {}),
      },
      line: [report.report_type, date, report.doctor_name ? `ordered by ${report.doctor_name}` : '']
        .filter(Boolean)
        .join('; '),
    },
    ...observations,
  ];
}

export function vitalSign(vital: Vital, patientId: string): SummaryEntry {
  const unit = vital.unit as VitalUnit;
  const shown = readingIn(vital, unit);
  const measured = fhirDateTime(vital.measured_at);
  const ucum = VITAL_UCUM[unit] ?? null;
  const glucoseInMoles = vital.kind === 'blood_glucose' && unit === 'mmol/L';
  const coded = glucoseInMoles
    ? loinc('15074-8', 'Glucose [Moles/volume] in Blood')
    : vital.kind === 'oxygen_saturation'
      ? loinc('59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry')
      : loinc(VITAL_CODES[vital.kind].code, VITAL_CODES[vital.kind].display);
  const label =
    vital.kind === 'blood_glucose' && vital.fasting !== null
      ? `${VITAL_LABELS[vital.kind]} (${vital.fasting ? 'fasting' : 'not fasting'})`
      : VITAL_LABELS[vital.kind];
  const value =
    vital.kind === 'blood_pressure'
      ? {
          component: [
            {
              code: loinc('8480-6', 'Systolic blood pressure'),
              valueQuantity: quantity(vital.systolic ?? 0, unit, ucum),
            },
            {
              code: loinc('8462-4', 'Diastolic blood pressure'),
              valueQuantity: quantity(vital.diastolic ?? 0, unit, ucum),
            },
          ],
        }
      : { valueQuantity: quantity(vital.value ?? 0, unit, ucum) };
  const reading =
    vital.kind === 'blood_pressure' ? `${shown.systolic}/${shown.diastolic}` : String(shown.value);
  return {
    resource: {
      resourceType: 'Observation',
      id: vital.id.toLowerCase(),
      status: 'final',
      category: category('vital-signs', 'Vital Signs'),
      code: { ...coded, text: label },
      subject: reference(patientId),
      ...(measured ? { effectiveDateTime: measured } : {}),
      ...value,
      ...(vital.note ? { note: [{ text: vital.note }] } : {}),
    },
    line: `${label}: ${reading} ${unit}; ${vital.measured_at.slice(0, 16).replace('T', ' ')}`,
  };
}

export function practitioner(doctor: MyDoctor): SummaryEntry {
  const address = [doctor.address, doctor.city, doctor.state, doctor.zip].some(Boolean)
    ? [
        {
          ...(doctor.address ? { line: [doctor.address] } : {}),
          ...(doctor.city ? { city: doctor.city } : {}),
          ...(doctor.state ? { state: doctor.state } : {}),
          ...(doctor.zip ? { postalCode: doctor.zip } : {}),
        },
      ]
    : [];
  return {
    resource: {
      resourceType: 'Practitioner',
      id: doctor.id.toLowerCase(),
      ...(/^\d{10}$/.test(doctor.npi)
        ? { identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: doctor.npi }] }
        : {}),
      name: [{ text: doctor.name }],
      ...(doctor.phone ? { telecom: [{ system: 'phone', value: doctor.phone, use: 'work' }] } : {}),
      ...(address.length > 0 ? { address } : {}),
    },
    line: [doctor.name, doctor.speciality, doctor.phone].filter(Boolean).join('; '),
  };
}
