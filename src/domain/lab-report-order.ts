import type { LabReport } from './lab-reports';

// The order of lab reports, apart from lab-reports.ts and its schemas: Home draws its latest results in its
// first paint, and that first load carries no schema library (the budget of tests/build/budget.mjs).

/** Newest report first, then the one added last. */
export function compareLabReports(
  a: Pick<LabReport, 'report_date' | 'created_at'>,
  b: Pick<LabReport, 'report_date' | 'created_at'>,
): number {
  if (a.report_date !== b.report_date) return a.report_date < b.report_date ? 1 : -1;
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;
}
