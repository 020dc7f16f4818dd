import { z } from 'zod';
import { safeText } from './text';

// One result row of a lab report (src/server/routes/README.md: `lab_results` is a list of { name, value,
// unit, flag, reference_range }, each row may carry needs_review and a LOINC code), and what extraction
// answers (the extraction response: doctor_name, report_date, lab_results, or an error). Extraction
// (lab-extraction.ts) makes these from a document; the person reviews and edits them; a saved report keeps
// them as structured rows, which the Trends view charts across reports.

export const LAB_FLAGS = ['H', 'L', ''] as const;
export type LabFlag = (typeof LAB_FLAGS)[number];

export const LAB_RESULT_MESSAGES = {
  nameRequired: 'Each result needs a test name.',
  nameTooLong: 'A test name must be at most 120 characters.',
  valueRequired: 'Each result needs a value.',
  valueTooLong: 'A value must be at most 40 characters.',
  unitTooLong: 'A unit must be at most 30 characters.',
  rangeTooLong: 'A reference range must be at most 60 characters.',
  flagInvalid: "A flag must be 'H' (high), 'L' (low) or empty.",
  codeInvalid: 'A test code must be a LOINC code such as 2345-7.',
  tooMany: 'A report may hold at most 300 results.',
} as const;

export const labResultSchema = z.object({
  /** The analyte as the report names it, or its usual name when extraction recognised it. */
  name: safeText(
    z
      .string({ error: LAB_RESULT_MESSAGES.nameRequired })
      .trim()
      .min(1, LAB_RESULT_MESSAGES.nameRequired)
      .max(120, LAB_RESULT_MESSAGES.nameTooLong),
  ),
  /** As printed ('5.4', '<0.5', 'Negative', '1,250' becomes '1250'): text, since not every result is a number. */
  value: safeText(
    z
      .string({ error: LAB_RESULT_MESSAGES.valueRequired })
      .trim()
      .min(1, LAB_RESULT_MESSAGES.valueRequired)
      .max(40, LAB_RESULT_MESSAGES.valueTooLong),
  ),
  unit: safeText(z.string().trim().max(30, LAB_RESULT_MESSAGES.unitTooLong)),
  flag: z.enum(LAB_FLAGS, { error: LAB_RESULT_MESSAGES.flagInvalid }),
  /** As printed: '70-99', '< 200', '>= 40', '0.5 - 1.2'. */
  reference_range: safeText(z.string().trim().max(60, LAB_RESULT_MESSAGES.rangeTooLong)),
  /** The LOINC code when the analyte is one extraction knows (lab-analytes.ts). */
  code: z
    .string()
    .regex(/^\d{1,7}-\d$/, LAB_RESULT_MESSAGES.codeInvalid)
    .optional(),
  /** Extraction was unsure of this row (a value that does not fit its range or flag, a doubtful read). */
  needs_review: z.boolean().optional(),
});
export type LabResult = z.output<typeof labResultSchema>;

export const labResultsSchema = z.array(labResultSchema).max(300, LAB_RESULT_MESSAGES.tooMany);

/** Why extraction marked a row for review, for the person (shown beside the highlighted row). */
export type ReviewReason =
  | 'low-confidence'
  | 'value-outside-plausible'
  | 'flag-disagrees'
  | 'decimal-suspect'
  | 'unit-unexpected'
  | 'range-unusual'
  | 'name-unknown';

/** What extraction found in one document, before the person reviews it. */
export type LabExtraction = {
  doctor_name: string | null;
  /** YYYY-MM-DD: the date the specimen was collected or the report issued, as the document gives it. */
  report_date: string | null;
  lab_results: (LabResult & { review_reasons?: ReviewReason[] })[];
  /** Suggested from the analytes found ('Lipid Panel', 'Complete Blood Count'), null when nothing fits. */
  report_type: string | null;
};
