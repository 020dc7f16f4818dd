import { Link } from '@tanstack/react-router';
import { ArrowDown, ArrowUp } from 'lucide-react';
import type { LabReport } from '../../../domain/lab-reports';
import type { LabResult } from '../../../domain/lab-results';
import { formatDate } from '../../../domain/date-display';
import { Badge } from '../../ui/badge';
import { linkClass, type Paths } from './home-card';
import { flagSummary, isOutOfRange, latestReports, type ReportSummary } from './latest-results-data';

// The content of Home's 'Latest results' card, drawn in Home's first paint with the other cards: the newest
// lab reports on this device (read by Home through useLabReportsOf, a live query of the local table, so it
// opens offline and follows a report saved or synced while Home is open), their type and date, and their
// results with the ones outside the reference range first, each marked High or Low in words, not by colour
// alone. Loaded after the first paint, it grew from one line to two reports under the cards below it.

export function LatestResults({
  reports,
  caregiver,
  path,
}: {
  /** The patient's lab reports on this device (useLabReportsOf). */
  reports: readonly LabReport[];
  caregiver: boolean;
  path: Paths['labReport'];
}) {
  if (reports.length === 0)
    return (
      <>
        <p className="text-muted">
          {caregiver
            ? 'No lab reports yet. The newest lab results will show here once the patient’s lab reports are in Kincare.'
            : 'No lab reports yet. Your newest lab results will show here once you keep your lab reports in Kincare.'}
        </p>
        <Link to={path} className={`${linkClass} mt-auto`}>
          Go to Lab Reports
        </Link>
        {caregiver ? null : (
          <Link to="/medical-history/import" className={linkClass}>
            Import records from your patient portal
          </Link>
        )}
      </>
    );
  return (
    <>
      <div className="divide-y divide-border">
        {latestReports(reports).map((summary) => (
          <ReportResults key={summary.report.id} summary={summary} />
        ))}
      </div>
      <Link to={path} className={`${linkClass} mt-auto`}>
        See all lab reports
      </Link>
    </>
  );
}

function ReportResults({ summary }: { summary: ReportSummary }) {
  const { report, shown, hidden } = summary;
  const headingId = `home-report-${report.id}`;
  return (
    <article aria-labelledby={headingId} className="py-3 first:pt-0" data-testid="home-result-report">
      <h3 id={headingId} className="font-semibold text-text [overflow-wrap:anywhere]">
        {report.report_type || 'Lab report'}
      </h3>
      <p className="text-small text-muted">Report date {formatDate(report.report_date)}</p>
      <p className="mt-1 text-small text-text">{flagSummary(summary)}</p>
      {shown.length > 0 ? (
        <ul className="mt-1" aria-label={`Results of ${report.report_type || 'the lab report'}`}>
          {shown.map((row, index) => (
            <ResultRow key={`${row.name}-${index}`} row={row} />
          ))}
        </ul>
      ) : null}
      {hidden > 0 ? (
        <p className="mt-1 text-small text-muted">
          {hidden === 1 ? '1 more result' : `${hidden} more results`} in Lab Reports.
        </p>
      ) : null}
    </article>
  );
}

function ResultRow({ row }: { row: LabResult }) {
  const outside = isOutOfRange(row);
  return (
    <li
      className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-1.5"
      data-testid="home-result"
      data-flag={row.flag || undefined}
    >
      <span className="min-w-0 [overflow-wrap:anywhere]">{row.name}</span>
      <span className="flex flex-wrap items-baseline justify-end gap-2">
        <span className={`[overflow-wrap:anywhere] ${outside ? 'font-bold' : 'font-semibold'}`}>
          {row.value}
          {row.unit ? ` ${row.unit}` : ''}
        </span>
        {outside ? (
          <Badge
            tone={row.flag === 'H' ? 'danger' : 'warning'}
            icon={row.flag === 'H' ? <ArrowUp /> : <ArrowDown />}
          >
            {row.flag === 'H' ? 'High' : 'Low'}
          </Badge>
        ) : null}
      </span>
      {row.reference_range ? (
        <span className="w-full text-small text-muted">Reference range {row.reference_range}</span>
      ) : null}
    </li>
  );
}
