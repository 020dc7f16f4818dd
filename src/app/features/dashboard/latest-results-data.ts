import type { LabReport } from '../../../domain/lab-reports';
import { compareLabReports } from '../../../domain/lab-report-order';
import type { LabResult } from '../../../domain/lab-results';

// What Home's 'Latest results' card shows of the lab reports on this device: the newest reports (by report
// date, then by when they were added: the order of the Lab Reports screen), and of each the results outside
// their reference range first, so a high or low value is never hidden behind the in-range ones.

/** How many of the newest reports the card shows, and how many result rows of each. */
export const HOME_REPORTS = 2;
export const HOME_ROWS_PER_REPORT = 4;

/** Flagged High or Low by the lab (or by the person's review): outside its reference range. */
export function isOutOfRange(row: Pick<LabResult, 'flag'>): boolean {
  return row.flag === 'H' || row.flag === 'L';
}

export type ReportSummary = {
  report: LabReport;
  /** The rows to show: flagged ones first, each group in the report's own order. */
  shown: LabResult[];
  /** Rows not shown on Home (all of them are in the Lab Reports screen). */
  hidden: number;
  /** How many rows are flagged High or Low, shown or not. */
  outOfRange: number;
  total: number;
};

/** The newest `count` reports of the patient, each with the rows Home shows. */
export function latestReports(
  reports: readonly LabReport[],
  count = HOME_REPORTS,
  rowsPerReport = HOME_ROWS_PER_REPORT,
): ReportSummary[] {
  return [...reports]
    .sort(compareLabReports)
    .slice(0, count)
    .map((report) => {
      // A row from an older replica may lack its flag: it then counts as not flagged, never as high or low.
      const rows = Array.isArray(report.results) ? report.results : [];
      const flagged = rows.filter((row) => isOutOfRange(row));
      const ordered = [...flagged, ...rows.filter((row) => !isOutOfRange(row))];
      const shown = ordered.slice(0, rowsPerReport);
      return {
        report,
        shown,
        hidden: ordered.length - shown.length,
        outOfRange: flagged.length,
        total: rows.length,
      };
    });
}

/** One sentence on the report's flags, in words, so nothing has to be read from a colour. */
export function flagSummary(summary: Pick<ReportSummary, 'outOfRange' | 'total'>): string {
  const { outOfRange, total } = summary;
  if (total === 0)
    return 'No results were saved with this report yet. Open it in Lab Reports to review them.';
  const results = total === 1 ? '1 result' : `${total} results`;
  if (outOfRange === 0)
    return total === 1
      ? 'The one result is not flagged High or Low.'
      : `None of the ${results} is flagged High or Low.`;
  return `${outOfRange} of ${results} ${outOfRange === 1 ? 'is' : 'are'} outside the reference range.`;
}
