import type { ReactNode } from 'react';
import { CloudUpload, Eye, FileClock, Pencil, RotateCw, ScanSearch, Trash2 } from 'lucide-react';
import { needsReview, type LabReport } from '../../../domain/lab-reports';
import type { LabExtractionJob } from '../../../local/db-device-work';
import { isWaitingToUpload } from '../../../local/lab-reports';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DataList, type DataColumn } from '../../ui/data-list';
import { displayDate, localDay } from './lab-report-format';

// The reports: a table (Uploaded Date, Doctor, Report Type, Action) from 768 px, cards on a phone with
// the same facts (ui/data-list.tsx). Each report says in words where it stands: its file still on this
// device, being read, read and waiting for review, or why it could not be read (with a retry).

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

export function LabReportList({
  reports,
  jobs,
  doctorNames,
  labelledBy,
  focusId,
  onFocused,
  onRetry,
  ...actions
}: Props) {
  const state = (report: LabReport) => (
    <ReportState report={report} job={jobs.get(report.id)} onRetry={onRetry} />
  );
  const columns: DataColumn<LabReport>[] = [
    { header: 'Uploaded Date', nowrap: true, cell: (report) => displayDate(localDay(report.created_at)) },
    { header: 'Doctor', cell: (report) => doctorOf(report, doctorNames) },
    {
      header: 'Report Type',
      cell: (report) => (
        <>
          <span className="font-semibold">{report.report_type}</span>
          <span className="block text-small text-muted">Report date {displayDate(report.report_date)}</span>
          {state(report)}
        </>
      ),
      // A card has the type as its heading, so its facts are only the date (the type again would say it
      // twice), its state under them.
      card: (report) => ({
        facts: [{ term: 'Report Date', value: displayDate(report.report_date) }],
        after: state(report),
      }),
    },
  ];
  return (
    <DataList
      items={reports}
      keyOf={(report) => report.id}
      labelledBy={labelledBy}
      idPrefix="lab-report"
      columns={columns}
      title={(report) => report.report_type}
      titleLevel={2}
      actions={(report) => <ReportActions report={report} {...actions} />}
      itemAttributes={(report) => ({ 'data-lab-report-id': report.id })}
      focusKey={focusId}
      onFocused={onFocused}
    />
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
}: Omit<LabReportActions, 'onRetry'> & { report: LabReport }) {
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
