import { formatSlashedDate } from '../../../domain/date-display';
import type { LabFlag, ReviewReason } from '../../../domain/lab-results';

// How the lab report screen names things: dates as yyyy/MM/dd, flags and review reasons in words.

/** The screen's constants: the filter waits 500 ms, the preview is 500 px high. */
export const LAB_FILTER_DEBOUNCE_MS = 500;
export const LAB_PREVIEW_HEIGHT_PX = 500;

/** '2026-03-14' or an ISO time -> '2026/03/14' (the screen's display format); '' when not a date. */
export const displayDate = (value: string): string => formatSlashedDate(value);

/** The calendar day of an ISO time on this device, as YYYY-MM-DD (when a report was uploaded, locally). */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const FLAG_LABELS: Record<LabFlag, string> = { H: 'High', L: 'Low', '': 'Normal' };
export const FLAG_OPTIONS = [
  { value: '', label: 'None' },
  { value: 'H', label: 'High (H)' },
  { value: 'L', label: 'Low (L)' },
] as const;

/** Why a row was marked for review, for the person. */
export const REVIEW_REASON_TEXT: Record<ReviewReason, string> = {
  'low-confidence': 'The text was hard to read.',
  'value-outside-plausible': 'The value is far outside what is usual: check the digits.',
  'flag-disagrees': 'The flag does not match the value and its range.',
  'decimal-suspect': 'The decimal point may have been missed.',
  'unit-unexpected': 'The unit is not the usual one for this test.',
  'range-unusual': 'The reference range is far from the usual one for this test: check its digits.',
  'name-unknown': 'The test name was not recognised.',
};

export function reviewReasonText(reasons: readonly string[] | undefined): string {
  const known = (reasons ?? [])
    .map((reason) => REVIEW_REASON_TEXT[reason as ReviewReason] as string | undefined)
    .filter((text): text is string => Boolean(text));
  return known.length > 0 ? known.join(' ') : 'Please check this row against the report.';
}

/** Whether a chosen file is a PDF (by its type, or its name when the browser gave no type). */
export function isPdf(file: { type: string; name?: string }): boolean {
  return file.type === 'application/pdf' || (!file.type && /\.pdf$/i.test(file.name ?? ''));
}
