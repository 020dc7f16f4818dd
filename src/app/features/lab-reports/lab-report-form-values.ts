import {
  HEALTH_TIPS,
  isFutureReportDate,
  LAB_REPORT_MESSAGES as MESSAGES,
  normaliseReportDate,
  type LabReport,
  type LabReportOcrData,
} from '../../../domain/lab-reports';
import { labResultsSchema } from '../../../domain/lab-results';
import { uploadProblem } from '../../../domain/uploads';
import { z } from 'zod';
import { resultsToSave, type EditableResult } from './lab-results-editor';
import { isPdf } from './lab-report-format';

// The lab report form's values and their checks (Report Date required and not in the future, the file
// required, Report Type marked required, every result row the domain's shape), and how an extraction
// prefills them.

export type LabFormValues = { report_type: string; report_date: string; doctor_id: string };
export type LabFormErrors = Partial<Record<keyof LabFormValues | 'file' | 'results', string>>;

export const EMPTY_LAB_FORM: LabFormValues = { report_type: '', report_date: '', doctor_id: '' };

export function valuesOfReport(report: LabReport): LabFormValues {
  return {
    report_type: report.report_type,
    report_date: report.report_date,
    doctor_id: report.doctor_id ?? '',
  };
}

/** The form's values: its fields, and the result rows being reviewed. */
export type LabFormState = LabFormValues & { results: EditableResult[] };

/**
 * The form's schema for use-schema-form (ui/use-schema-form.ts): the checks of `checkLabForm` as Zod
 * issues, by field ('file' and 'results' included). Whether a file is there is the upload's to say.
 */
export function labFormSchema(context: { today: string; hasFile: boolean }) {
  return z.custom<LabFormState>().superRefine((values, issues) => {
    const errors = checkLabForm(values, { ...context, results: values.results });
    for (const [path, message] of Object.entries(errors))
      issues.addIssue({ code: 'custom', path: [path], message });
  });
}

/** What is wrong with the form, field by field (empty when it can be saved). */
export function checkLabForm(
  values: LabFormValues,
  context: { today: string; hasFile: boolean; results: readonly EditableResult[] },
): LabFormErrors {
  const errors: LabFormErrors = {};
  const type = values.report_type.trim();
  if (!type) errors.report_type = MESSAGES.reportTypeRequired;
  else if (type.length > 100) errors.report_type = MESSAGES.reportTypeTooLong;
  const date = values.report_date.trim();
  if (!date) errors.report_date = MESSAGES.reportDateRequired;
  else {
    const iso = normaliseReportDate(date);
    if (iso === null) errors.report_date = MESSAGES.dateInvalid;
    else if (isFutureReportDate(iso, context.today)) errors.report_date = MESSAGES.reportDateFuture;
  }
  if (!context.hasFile) errors.file = MESSAGES.fileRequired;
  const rows = labResultsSchema.safeParse(resultsToSave(context.results));
  if (!rows.success) {
    const issue = rows.error.issues[0];
    const index = typeof issue?.path[0] === 'number' ? issue.path[0] + 1 : null;
    errors.results = `${index ? `Result ${index}: ` : ''}${issue?.message ?? 'Check the results.'}`;
  }
  return errors;
}

/**
 * The form after an extraction: what it found replaces what is there (the person reviews it next); what it
 * did not find keeps what the person typed. A date in the future is a misread, and is left out.
 */
export function withExtraction(
  values: LabFormValues,
  extraction: Pick<LabReportOcrData, 'report_type' | 'report_date' | 'doctor_id'>,
  context: { today: string; doctorIds: ReadonlySet<string> },
): LabFormValues {
  const date = extraction.report_date ? normaliseReportDate(extraction.report_date) : null;
  return {
    report_type: extraction.report_type?.trim() || values.report_type,
    report_date: date && !isFutureReportDate(date, context.today) ? date : values.report_date,
    doctor_id:
      extraction.doctor_id && context.doctorIds.has(extraction.doctor_id)
        ? extraction.doctor_id
        : values.doctor_id,
  };
}

/** Why a chosen file (after resizing) cannot be a report, or null: the upload's own rule. */
export function reportFileProblem(file: { type: string; size: number; name: string }): string | null {
  return uploadProblem('lab', { type: isPdf(file) ? 'application/pdf' : file.type, size: file.size });
}

/** One of the tips, picked at random for each upload. */
export function pickHealthTip(random = Math.random): string {
  return HEALTH_TIPS[Math.floor(random() * HEALTH_TIPS.length)] ?? HEALTH_TIPS[0];
}
