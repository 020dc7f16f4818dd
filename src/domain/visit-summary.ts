import type { Appointment } from './appointments';
import { formatDate, formatDateTime, type ShownIn } from './date-display';
import type { LabReport } from './lab-reports';
import { assembleHistory } from './medical-history';
import { CONDITION_STATUS_LABELS } from './medical-history-fields';
import { medicalId, medicineLine, type MedicalIdInput } from './medical-id';
import { fileNameWord } from './text';
import { readingIn, VITAL_KINDS, VITAL_LABELS, type Vital, type VitalUnit } from './vitals';

// The visit summary (README.md beside this file, "Taking records to the doctor"): what to hand a doctor
// at a visit, as sections of lines. The device draws it as a page to look at and as a PDF to print or
// share (local/visit-summary-pdf.ts): who the patient is, the medicines taken now with their dose times
// and directions, allergies, conditions, the latest results with their flags in words (a printout is
// often black and white), recent vitals, the next appointments, and who to call.

export type VisitSummaryLine = { text: string; flagged?: boolean };
export type VisitSummarySection = { title: string; lines: VisitSummaryLine[]; empty: string };
export type VisitSummary = { name: string; details: string[]; made: string; sections: VisitSummarySection[] };

export type VisitSummaryInput = MedicalIdInput & {
  labReports: readonly LabReport[];
  vitals: readonly Vital[];
  appointments: readonly Appointment[];
  now: Date;
  /** How times are shown: the device's zone and locale. */
  shown?: ShownIn;
};

/** How many of the next appointments, and of the results of other reports out of range, it lists. */
export const NEXT_APPOINTMENTS = 5;
export const OTHER_FLAGGED_RESULTS = 10;

const FLAG_WORDS = { H: 'HIGH', L: 'LOW', '': '' } as const;

function resultLine(row: LabReport['results'][number], date: string | null): VisitSummaryLine {
  const flag = FLAG_WORDS[row.flag];
  return {
    text: [
      `${row.name}: ${row.value}${row.unit ? ` ${row.unit}` : ''}`,
      row.reference_range ? `(range ${row.reference_range})` : '',
      flag,
      row.needs_review ? '(read automatically, not yet checked)' : '',
      date ? `- ${date}` : '',
    ]
      .filter(Boolean)
      .join(' '),
    flagged: flag !== '',
  };
}

/** The newest report's rows; then the rows out of range of the other reports of the last year. */
function results(reports: readonly LabReport[], now: Date): VisitSummaryLine[] {
  const sorted = [...reports].sort((a, b) =>
    a.report_date < b.report_date ? 1 : a.report_date > b.report_date ? -1 : 0,
  );
  const [latest, ...older] = sorted;
  if (!latest) return [];
  const yearAgo = new Date(now.getTime() - 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const lines = [
    {
      text: `${latest.report_type}, ${formatDate(latest.report_date)}${latest.doctor_name ? `, ordered by ${latest.doctor_name}` : ''}`,
    },
    ...latest.results.map((row) => resultLine(row, null)),
  ];
  const flagged = older
    .filter((report) => report.report_date >= yearAgo)
    .flatMap((report) =>
      report.results
        .filter((row) => row.flag !== '')
        .map((row) => resultLine(row, formatDate(report.report_date))),
    )
    .slice(0, OTHER_FLAGGED_RESULTS);
  return flagged.length > 0
    ? [...lines, { text: 'Out of range in other reports of the last year:' }, ...flagged]
    : lines;
}

/** The newest reading of each kind, in the kinds' order. */
function vitals(readings: readonly Vital[], shown: ShownIn): VisitSummaryLine[] {
  return VITAL_KINDS.flatMap((kind) => {
    const newest = readings
      .filter((reading) => reading.kind === kind)
      .sort((a, b) => Date.parse(b.measured_at) - Date.parse(a.measured_at))[0];
    if (!newest) return [];
    const value = readingIn(newest, newest.unit as VitalUnit);
    const reading = kind === 'blood_pressure' ? `${value.systolic}/${value.diastolic}` : String(value.value);
    return [
      {
        text: `${VITAL_LABELS[kind]}: ${reading} ${newest.unit} - ${formatDateTime(newest.measured_at, shown)}`,
      },
    ];
  });
}

export function visitSummary(input: VisitSummaryInput): VisitSummary {
  const shown = input.shown ?? {};
  const id = medicalId(input, shown.locale);
  const history = assembleHistory(input.history ?? {});
  const medicines = input.prescriptions
    .filter((prescription) => prescription.status === 'active')
    .map((prescription) => ({
      text: [medicineLine(prescription, shown.locale), prescription.directions].filter(Boolean).join('. '),
    }))
    .sort((a, b) => a.text.localeCompare(b.text));
  const conditions = history.conditions
    .filter((condition) => condition.status !== 'resolved')
    .map((condition) => ({
      text: [
        condition.name,
        CONDITION_STATUS_LABELS[condition.status],
        condition.onset ? `since ${condition.onset}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    }));
  const upcoming = input.appointments
    .filter(
      (appointment) =>
        appointment.status !== 'cancelled' && Date.parse(appointment.appointment_date) >= input.now.getTime(),
    )
    .sort((a, b) => Date.parse(a.appointment_date) - Date.parse(b.appointment_date))
    .slice(0, NEXT_APPOINTMENTS)
    .map((appointment) => ({
      text: [
        formatDateTime(appointment.appointment_date, {
          ...shown,
          zone: appointment.time_zone ?? shown.zone ?? null,
        }),
        appointment.appointment_title,
        appointment.location,
      ]
        .filter(Boolean)
        .join(' - '),
    }));
  return {
    name: id.name,
    details: [id.born, input.profile.phone ? `Phone ${input.profile.phone}` : null].filter(
      (line): line is string => Boolean(line),
    ),
    made: `Made ${formatDateTime(input.now.toISOString(), shown)} from the records in Kincare.`,
    sections: [
      { title: 'Medicines taken now', lines: medicines, empty: 'No medicines recorded.' },
      {
        title: 'Allergies',
        lines: id.allergies.map((allergy) => ({
          text: [allergy.substance, allergy.details].filter(Boolean).join(': '),
          flagged: allergy.dangerous,
        })),
        empty: 'No allergies recorded.',
      },
      { title: 'Conditions', lines: conditions, empty: 'No conditions recorded.' },
      {
        title: 'Latest results',
        lines: results(input.labReports, input.now),
        empty: 'No lab results recorded.',
      },
      { title: 'Recent vitals', lines: vitals(input.vitals, shown), empty: 'No vitals recorded.' },
      { title: 'Next appointments', lines: upcoming, empty: 'No appointments coming up.' },
      {
        title: 'Who to call',
        lines: id.contacts.map((contact) => ({
          text: [contact.name, contact.role, contact.phone].filter(Boolean).join(' - '),
        })),
        empty: 'No caregivers or doctors recorded.',
      },
    ],
  };
}

/** The PDF's file name: the patient and the day it was made. */
export function visitSummaryFileName(name: string, now: Date): string {
  return `visit-summary-${fileNameWord(name, 'patient')}-${now.toISOString().slice(0, 10)}.pdf`;
}
