import { doseTimesFromDirections, type DirectionsReading } from '../../../domain/directions';
import {
  DEFAULT_ALERT_AFTER_MINUTES,
  PRESCRIPTION_FORMS,
  prescriptionFieldsSchema,
  prescriptionProblems,
  type Prescription,
  type PrescriptionFields,
  type PrescriptionForm,
  type PrescriptionStatus,
} from '../../../domain/prescriptions';
import { type LabelExtraction } from '../../../domain/prescription-ocr';
import { z } from 'zod';

// The add / edit form's values and their checks, apart from React so they can be tested alone. Text
// inputs hold strings; the domain's schema (the one the write path and the server use) decides what is
// valid, and its messages are the ones shown beside the fields.

export type PrescriptionFormValues = {
  medicine_name: string;
  strength: string;
  form: PrescriptionForm;
  directions: string;
  doctor_id: string;
  pharmacy_id: string;
  quantity: string;
  refills: string;
  start_date: string;
  end_date: string;
  times: string[];
  as_needed: boolean;
  status: PrescriptionStatus;
  notes: string;
  time_zone: string;
  reminders: boolean;
  alert_after_minutes: string;
  alert_caregivers: string[];
};

/** The fields the form writes (the photo goes apart, see local/prescriptions.ts). */
export type FormFields = Omit<PrescriptionFields, 'attachment_key'>;
export type FormErrors = Partial<Record<keyof PrescriptionFormValues, string>>;

const formFieldsSchema = prescriptionFieldsSchema.omit({ attachment_key: true });

export function initialFormValues(
  editing: Prescription | null,
  today: string,
  timeZone: string,
): PrescriptionFormValues {
  if (!editing)
    return {
      medicine_name: '',
      strength: '',
      form: 'tablet',
      directions: '',
      doctor_id: '',
      pharmacy_id: '',
      quantity: '',
      refills: '',
      start_date: today,
      end_date: '',
      times: [],
      as_needed: false,
      status: 'active',
      notes: '',
      time_zone: timeZone,
      reminders: true,
      alert_after_minutes: String(DEFAULT_ALERT_AFTER_MINUTES),
      alert_caregivers: [],
    };
  return {
    medicine_name: editing.medicine_name,
    strength: editing.strength,
    form: editing.form,
    directions: editing.directions,
    doctor_id: editing.doctor_id ?? '',
    pharmacy_id: editing.pharmacy_id ?? '',
    quantity: editing.quantity === null ? '' : String(editing.quantity),
    refills: editing.refills === null ? '' : String(editing.refills),
    start_date: editing.start_date,
    end_date: editing.end_date ?? '',
    times: [...editing.times],
    as_needed: editing.as_needed,
    status: editing.status,
    notes: editing.notes,
    time_zone: editing.time_zone,
    reminders: editing.reminders,
    alert_after_minutes: String(editing.alert_after_minutes),
    alert_caregivers: [...editing.alert_caregivers],
  };
}

/** '' is nothing; anything else must be a number (the schema names what is wrong with it). */
const optionalNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

/** The values as the domain's fields (before checking). */
export function toCandidate(values: PrescriptionFormValues): Record<string, unknown> {
  return {
    medicine_name: values.medicine_name,
    strength: values.strength,
    form: values.form,
    directions: values.directions,
    doctor_id: values.doctor_id || null,
    pharmacy_id: values.pharmacy_id || null,
    quantity: optionalNumber(values.quantity),
    refills: optionalNumber(values.refills),
    start_date: values.start_date,
    end_date: values.end_date || null,
    // 'As needed' means no fixed times: whatever times were there before it was ticked are not kept.
    times: values.as_needed ? [] : values.times,
    as_needed: values.as_needed,
    status: values.status,
    notes: values.notes,
    time_zone: values.time_zone,
    reminders: values.reminders,
    alert_after_minutes:
      values.alert_after_minutes.trim() === '' ? Number.NaN : Number(values.alert_after_minutes),
    alert_caregivers: values.alert_caregivers,
  };
}

/** The checked fields, or the first message for each field that has a problem. */
export function checkFormValues(values: PrescriptionFormValues): {
  fields: FormFields | null;
  errors: FormErrors;
} {
  const errors: FormErrors = {};
  const result = formFieldsSchema.safeParse(toCandidate(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '') as keyof PrescriptionFormValues;
      if (!(key in errors)) errors[key] = issue.message;
    }
    // The rules across fields too, so one save names every problem (no times and no name, say), not
    // only those of the first round.
    for (const problem of prescriptionProblems({
      start_date: values.start_date,
      end_date: values.end_date === '' ? null : values.end_date,
      times: values.as_needed ? [] : values.times.filter((time) => time !== ''),
      as_needed: values.as_needed,
    })) {
      const key = problem.path as keyof PrescriptionFormValues;
      if (!(key in errors)) errors[key] = problem.message;
    }
    return { fields: null, errors };
  }
  for (const problem of prescriptionProblems(result.data)) {
    const key = problem.path as keyof PrescriptionFormValues;
    if (!(key in errors)) errors[key] = problem.message;
  }
  return Object.keys(errors).length > 0 ? { fields: null, errors } : { fields: result.data, errors };
}

/**
 * The form's schema for use-schema-form (ui/use-schema-form.ts): the checks above as Zod issues, one per
 * field, and the domain's fields as its output.
 */
export const prescriptionFormSchema = z.custom<PrescriptionFormValues>().transform((values, context) => {
  const { fields, errors } = checkFormValues(values);
  if (fields) return fields;
  for (const [path, message] of Object.entries(errors))
    context.addIssue({ code: 'custom', path: [path], message });
  return z.NEVER;
});

/** Only the fields that differ from the prescription as it was (an edit sends just those). */
export function changedFields(fields: FormFields, before: Prescription): Partial<FormFields> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (JSON.stringify(before[key as keyof Prescription]) !== JSON.stringify(value)) changes[key] = value;
  }
  return changes as Partial<FormFields>;
}

/** Whether two lists of dose times hold the same times (in any order). */
export function sameTimes(a: readonly string[], b: readonly string[]): boolean {
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}

/**
 * The times the directions suggest, applied unless the person chose the times themselves: understood
 * directions set the times and 'as needed'; others leave what is there.
 */
export function withSuggestedTimes(
  values: PrescriptionFormValues,
  reading: DirectionsReading,
  timesEdited: boolean,
): PrescriptionFormValues {
  if (timesEdited || !reading.understood) return values;
  return { ...values, times: [...reading.times], as_needed: reading.asNeeded && reading.times.length === 0 };
}

/**
 * The form after a label was read: every field the label gave replaces what was there (the person then
 * reviews it); the prescriber and the pharmacy only when they matched one of the patient's; the times
 * from the reading, or else from the directions read here.
 */
export function withExtraction(
  values: PrescriptionFormValues,
  extraction: LabelExtraction,
  known: { doctorIds: ReadonlySet<string>; pharmacyIds: ReadonlySet<string> },
): PrescriptionFormValues {
  const next = { ...values };
  if (extraction.medicine_name) next.medicine_name = extraction.medicine_name;
  if (extraction.strength) next.strength = extraction.strength;
  if (extraction.form && PRESCRIPTION_FORMS.includes(extraction.form)) next.form = extraction.form;
  if (extraction.directions) next.directions = extraction.directions;
  if (extraction.quantity !== null) next.quantity = String(extraction.quantity);
  if (extraction.refills !== null) next.refills = String(extraction.refills);
  if (extraction.doctor_id && known.doctorIds.has(extraction.doctor_id))
    next.doctor_id = extraction.doctor_id;
  if (extraction.pharmacy_id && known.pharmacyIds.has(extraction.pharmacy_id))
    next.pharmacy_id = extraction.pharmacy_id;
  if (extraction.times.length > 0 || extraction.as_needed) {
    next.times = [...extraction.times];
    next.as_needed = extraction.as_needed && extraction.times.length === 0;
  } else if (extraction.directions) {
    return withSuggestedTimes(next, doseTimesFromDirections(extraction.directions), false);
  }
  return next;
}

/** Whether a reading found anything to prefill. */
export function extractionFoundSomething(extraction: LabelExtraction): boolean {
  return Boolean(
    extraction.medicine_name ||
    extraction.strength ||
    extraction.directions ||
    extraction.quantity !== null ||
    extraction.refills !== null ||
    extraction.prescriber ||
    extraction.pharmacy,
  );
}
