import { formatClockTime, formatDate, formatDateTime } from '../../../domain/date-display';
import { ALLERGY_SEVERITY_LABELS, CONDITION_STATUS_LABELS } from '../../../domain/medical-history';
import { PRESCRIPTION_STATUS_LABELS } from '../../../domain/prescriptions';
import type { ImportKind, ImportPreview } from '../../../domain/record-import';
import { VITAL_LABELS } from '../../../domain/vitals';

// How each found item reads on the review screen: a name and a line of details, in the words and date
// formats the rest of the app uses. A field the file did not give says so rather than staying blank.

export type ItemWords = { name: string; details: string[] };

/** A history date as stored: YYYY-MM-DD reads as a date, a month or a year as written. */
function partialDate(value: string | null): string | null {
  if (!value) return null;
  return value.length === 10 ? formatDate(value) : value;
}

const present = (parts: (string | null | false | undefined)[]): string[] =>
  parts.filter((part): part is string => typeof part === 'string' && part !== '');

export function wordsOf<Kind extends ImportKind>(kind: Kind, item: ImportPreview[Kind][number]): ItemWords {
  switch (kind) {
    case 'allergies': {
      const allergy = item as ImportPreview['allergies'][number];
      return {
        name: allergy.substance,
        details: present([
          allergy.reaction && `Reaction: ${allergy.reaction}`,
          allergy.severity
            ? `Severity: ${ALLERGY_SEVERITY_LABELS[allergy.severity]}`
            : 'The file gives no severity',
        ]),
      };
    }
    case 'conditions': {
      const condition = item as ImportPreview['conditions'][number];
      const since = partialDate(condition.onset);
      return {
        name: condition.name,
        details: present([CONDITION_STATUS_LABELS[condition.status], since && `Since ${since}`]),
      };
    }
    case 'immunizations': {
      const immunization = item as ImportPreview['immunizations'][number];
      return { name: immunization.vaccine, details: present([partialDate(immunization.date) ?? 'No date']) };
    }
    case 'surgeries': {
      const surgery = item as ImportPreview['surgeries'][number];
      return { name: surgery.procedure, details: present([partialDate(surgery.date) ?? 'No date']) };
    }
    case 'prescriptions': {
      const medicine = item as ImportPreview['prescriptions'][number];
      const times = medicine.times.map((time) => formatClockTime(time)).join(', ');
      return {
        name: [medicine.medicine_name, medicine.strength].filter(Boolean).join(' '),
        details: present([
          medicine.directions || 'The file gives no directions',
          times && `Doses at ${times}`,
          medicine.as_needed && 'As needed',
          !times &&
            !medicine.as_needed &&
            'No dose times in the file: added as taken when needed until you set its times',
          medicine.start_date ? `Since ${formatDate(medicine.start_date)}` : 'The file gives no start date',
          PRESCRIPTION_STATUS_LABELS[medicine.status],
        ]),
      };
    }
    case 'lab_reports': {
      const report = item as ImportPreview['lab_reports'][number];
      return {
        name: report.report_type,
        details: present([
          formatDate(report.report_date),
          `${report.results.length} ${report.results.length === 1 ? 'result' : 'results'}`,
          report.doctor_name && `Ordered by ${report.doctor_name}`,
        ]),
      };
    }
    default: {
      const vital = item as ImportPreview['vitals'][number];
      const value =
        vital.kind === 'blood_pressure'
          ? `${vital.systolic ?? ''}/${vital.diastolic ?? ''}`
          : String(vital.value ?? '');
      return {
        name: `${VITAL_LABELS[vital.kind]} ${value} ${vital.unit}`,
        details: [
          vital.date_only
            ? `${formatDate(vital.measured_at.slice(0, 10))} (the file gives the day only)`
            : formatDateTime(vital.measured_at),
        ],
      };
    }
  }
}

/** The document, in words, for the notes of what is added. */
export function sourceNoteOf(preview: ImportPreview): string {
  const { title, organization, date } = preview.source;
  const what = [title, organization].filter(Boolean).join(', ') || 'a record file';
  const day = date ? formatDate(date.slice(0, 10)) : '';
  return `Imported from ${what}${day ? ` (${day})` : ''}`.slice(0, 300);
}
