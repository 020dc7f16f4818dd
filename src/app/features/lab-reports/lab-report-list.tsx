import { useEffect, useRef, type ReactNode } from 'react';
import { CloudUpload, Eye, FileClock, Pencil, RotateCw, ScanSearch, Trash2 } from 'lucide-react';
import { needsReview, type LabReport } from '../../../domain/lab-reports';
import type { LabExtractionJob } from '../../../local/db';
import { isWaitingToUpload } from '../../../local/lab-reports';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { useWideScreen } from '../../ui/use-wide-screen';
import { displayDate, localDay } from './lab-report-format';

// The reports as the spec lays them out: a table (Uploaded Date, Doctor, Report Type, Action) from 768 px,
// cards (Report Date, Doctor, Type) on a phone. Only one of the two is rendered, so each action is in the
// page once. Each report says in words where it stands: its file still on this device, being read, read
// and waiting for review, or why it could not be read (with a retry).

export type LabReportActions = {
  canEdit: boolean;
  canDelete: boolean;
  onPreview: (report: LabReport) => void;
  onEdit: (report: LabReport) => void;
  onDelete: (report: LabReport) => void;
  onRetry: (report: LabReport) => void;
};

type Props = LabReportActions & {
  reports: LabReport[];
  jobs: ReadonlyMap<string, LabExtractionJob>;
  doctorNames: ReadonlyMap<string, string>;
  labelledBy: string;
  /** The report just saved: its row or card takes the focus once shown. */
  focusId: string | null;
  onFocused: () => void;
};

/** The report in words, for buttons and the preview: 'Lipid Panel of 2026/03/14'. */
export const reportName = (report: Pick<LabReport, 'report_type' | 'report_date'>) =>
  `${report.report_type || 'Lab report'} of ${displayDate(report.report_date)}`;

export function doctorOf(report: LabReport, doctorNames: ReadonlyMap<string, string>): string {
  if (report.doctor_id)
    return doctorNames.get(report.doctor_id) ?? report.doctor_name ?? 'A doctor no longer in the list';
  return report.doctor_name || 'Not given';
}

export function LabReportList({ reports, labelledBy, ...rest }: Props) {
  const wide = useWideScreen();
  if (wide)
    return (
      <div className="overflow-x-auto rounded-card bg-surface shadow-card ring-1 ring-border">
        <table className="w-full text-left" aria-labelledby={labelledBy}>
          <thead className="border-b border-border text-small text-muted">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Uploaded Date
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Doctor
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Report Type
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Action
              </th>
            </tr>
          </thead>
          <tbody>
            {reports.map((report) => (
              <ReportRow key={report.id} report={report} {...rest} />
            ))}
          </tbody>
        </table>
      </div>
    );
  return (
    <ul className="grid gap-3" aria-labelledby={labelledBy}>
      {reports.map((report) => (
        <ReportCard key={report.id} report={report} {...rest} />
      ))}
    </ul>
  );
}

type ItemProps = Omit<Props, 'reports' | 'labelledBy'> & { report: LabReport };

/** Focus moves to the saved report a frame after it shows (the form that saved it has gone by then). */
function useFocusWhen(focus: boolean, onFocused: () => void) {
  const ref = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!focus) return;
    const frame = requestAnimationFrame(() => {
      ref.current?.focus();
      onFocused();
    });
    return () => cancelAnimationFrame(frame);
  }, [focus, onFocused]);
  return ref;
}

function ReportRow({ report, focusId, onFocused, doctorNames, ...rest }: ItemProps) {
  const ref = useFocusWhen(report.id === focusId, onFocused);
  return (
    <tr
      ref={(element) => {
        ref.current = element;
      }}
      tabIndex={-1}
      data-lab-report-id={report.id}
      className="border-b border-border align-top last:border-b-0 focus:outline-none focus:ring-2 focus:ring-focus focus:ring-inset"
    >
      <td className="px-4 py-3 whitespace-nowrap">{displayDate(localDay(report.created_at))}</td>
      <td className="px-4 py-3 [overflow-wrap:anywhere]">{doctorOf(report, doctorNames)}</td>
      <td className="px-4 py-3">
        <span className="font-semibold [overflow-wrap:anywhere]">{report.report_type}</span>
        <span className="block text-small text-muted">Report date {displayDate(report.report_date)}</span>
        <ReportState report={report} job={rest.jobs.get(report.id)} onRetry={rest.onRetry} />
      </td>
      <td className="px-4 py-3">
        <ReportActions report={report} {...rest} />
      </td>
    </tr>
  );
}

function ReportCard({ report, focusId, onFocused, doctorNames, ...rest }: ItemProps) {
  const ref = useFocusWhen(report.id === focusId, onFocused);
  const headingId = `lab-report-${report.id}`;
  return (
    <li
      ref={(element) => {
        ref.current = element;
      }}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-lab-report-id={report.id}
      className="flex min-w-0 flex-col gap-2 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
    >
      <h2 id={headingId} className="text-heading [overflow-wrap:anywhere]">
        {report.report_type}
      </h2>
      <dl className="grid gap-1 text-small">
        <Detail term="Report Date" value={displayDate(report.report_date)} />
        <Detail term="Doctor" value={doctorOf(report, doctorNames)} />
        <Detail term="Type" value={report.report_type} />
      </dl>
      <ReportState report={report} job={rest.jobs.get(report.id)} onRetry={rest.onRetry} />
      <div className="border-t border-border pt-3">
        <ReportActions report={report} {...rest} />
      </div>
    </li>
  );
}

function Detail({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex gap-1">
      <dt className="shrink-0 text-muted">{term}:</dt>
      <dd className="min-w-0 [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}

function ReportState({
  report,
  job,
  onRetry,
}: {
  report: LabReport;
  job: LabExtractionJob | undefined;
  onRetry: (report: LabReport) => void;
}) {
  const badges: ReactNode[] = [];
  if (isWaitingToUpload(report))
    badges.push(
      <Badge key="upload" tone="warning" icon={<CloudUpload />}>
        Waiting to upload
      </Badge>,
    );
  if (job?.state === 'waiting' && !isWaitingToUpload(report))
    badges.push(
      <Badge key="read" tone="info" icon={<FileClock />}>
        Waiting to be read
      </Badge>,
    );
  if (job?.state === 'reading')
    badges.push(
      <Badge key="reading" tone="info" icon={<ScanSearch />}>
        Reading...
      </Badge>,
    );
  if (job?.state === 'ready')
    badges.push(
      <Badge key="ready" tone="success" icon={<ScanSearch />}>
        Ready to review
      </Badge>,
    );
  else if (!job && needsReview(report))
    badges.push(
      <Badge key="review" tone="warning">
        Needs review
      </Badge>,
    );
  if (badges.length === 0 && job?.state !== 'failed') return null;
  return (
    <div className="mt-1 flex flex-col items-start gap-2" data-testid="lab-report-state">
      {badges.length > 0 ? <div className="flex flex-wrap gap-2">{badges}</div> : null}
      {job?.state === 'failed' ? (
        <div className="flex flex-col items-start gap-1">
          <p role="alert" className="text-small text-danger">
            {job.message ?? 'This report could not be read.'}
          </p>
          <Button
            variant="secondary"
            onClick={() => onRetry(report)}
            aria-label={`Read ${reportName(report)} again`}
          >
            <RotateCw aria-hidden="true" className="h-5 w-5" />
            Read again
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ReportActions({
  report,
  canEdit,
  canDelete,
  onPreview,
  onEdit,
  onDelete,
}: Omit<ItemProps, 'focusId' | 'onFocused' | 'doctorNames' | 'jobs' | 'onRetry'>) {
  const name = reportName(report);
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => onPreview(report)} aria-label={`Preview ${name}`}>
        <Eye aria-hidden="true" className="h-5 w-5" />
        Preview
      </Button>
      {canEdit ? (
        <Button variant="secondary" onClick={() => onEdit(report)} aria-label={`Edit ${name}`}>
          <Pencil aria-hidden="true" className="h-5 w-5" />
          Edit
        </Button>
      ) : null}
      {canDelete ? (
        <Button variant="ghost" onClick={() => onDelete(report)} aria-label={`Delete ${name}`}>
          <Trash2 aria-hidden="true" className="h-5 w-5" />
          Delete
        </Button>
      ) : null}
    </div>
  );
}
