import { useMemo, useState, type ReactNode } from 'react';
import { Camera, Eye, EyeOff } from 'lucide-react';
import { LAB_REPORT_MESSAGES as MESSAGES, type LabReport } from '../../../domain/lab-reports';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { reportName } from './lab-report-list';
import { ReportFileView } from './lab-report-preview';

// The file part of the lab report form: for a new report, the chooser (any image or PDF, or a photo taken
// now, through the phone's camera); for one being edited, no chooser but its file behind a toggle, and
// whether a read is waiting for review.

const ACCEPT = 'image/png,image/jpeg,image/webp,application/pdf';

export function ReportFileChooser({
  error,
  onChoose,
  disabled,
  children,
}: {
  error: string | null | undefined;
  onChoose: (file: File | undefined) => void;
  disabled: boolean;
  /** What follows the choice: its preview and the upload's progress. */
  children: ReactNode;
}) {
  return (
    <Card as="div" variant="dashed" padding="snug" className="mb-4 sm:col-span-2">
      <label className="block text-small font-medium text-text" htmlFor="lab-report-file">
        Report file (photo or PDF)
        <span aria-hidden="true" className="text-danger">
          {' '}
          *
        </span>
      </label>
      <input
        id="lab-report-file"
        type="file"
        accept={ACCEPT}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'lab-report-file-error' : undefined}
        onChange={(event) => onChoose(event.target.files?.[0])}
        className="mt-1 block min-h-11 w-full max-w-full text-base text-text file:mr-3 file:min-h-11 file:rounded-control file:border file:border-border-strong file:bg-surface file:px-3 file:font-semibold file:text-text"
      />
      <label className="mt-3 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-control border border-border-strong bg-surface px-4 py-2 font-semibold text-text focus-within:ring-2 focus-within:ring-focus hover:bg-surface-muted">
        <Camera aria-hidden="true" className="h-5 w-5" />
        Take a photo
        <input
          type="file"
          accept="image/*"
          capture="environment"
          disabled={disabled}
          className="sr-only"
          onChange={(event) => onChoose(event.target.files?.[0])}
        />
      </label>
      {error ? (
        <p id="lab-report-file-error" role="alert" className="mt-2 text-small text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 grid gap-3">{children}</div>
    </Card>
  );
}

/** The report being edited: its name, a read waiting for review, and its file behind View / Hide. */
export function EditedReportFile({ report, readWaiting }: { report: LabReport; readWaiting: boolean }) {
  const [showFile, setShowFile] = useState(false);
  const key = report.attachment_key;
  const source = useMemo(() => (key ? { reference: key } : null), [key]);
  return (
    <div className="mb-4 sm:col-span-2">
      <p className="mb-2 text-muted">Editing {reportName(report)}.</p>
      {readWaiting ? (
        <p role="status" className="mb-2 font-semibold text-text">
          {MESSAGES.review}
        </p>
      ) : null}
      {source ? (
        <>
          <Button variant="secondary" aria-expanded={showFile} onClick={() => setShowFile((shown) => !shown)}>
            {showFile ? (
              <EyeOff aria-hidden="true" className="h-5 w-5" />
            ) : (
              <Eye aria-hidden="true" className="h-5 w-5" />
            )}
            {showFile ? 'Hide Lab Report' : 'View Lab Report'}
          </Button>
          {showFile ? (
            <div className="mt-3">
              <ReportFileView source={source} title={reportName(report)} />
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
