import { useCallback, useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { FileText, Plus, SearchX } from 'lucide-react';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  type LabReport,
  type LabReportFilter,
} from '../../../domain/lab-reports';
import { userDb } from '../../../local/db';
import {
  LAB_REPORTS_READ_EVENT,
  readWaitingReports,
  retryExtraction,
} from '../../../local/lab-report-extractions';
import { removeLabReport } from '../../../local/lab-reports';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Card, EmptyState, PageTitle } from '../../ui/page';
import { Tabs } from '../../ui/tabs';
import { LAB_FILTER_DEBOUNCE_MS, localDay } from './lab-report-format';
import { LabReportFilters } from './lab-report-filters';
import { LabReportForm } from './lab-report-form';
import { LabReportList, reportName } from './lab-report-list';
import { LabReportPreviewDialog } from './lab-report-preview';
import { LabTrends } from './lab-trends';
import {
  hasLabFilter,
  selectLabReports,
  useDebounced,
  useLabDoctors,
  useLabExtractions,
  usePatientLabReports,
} from './use-lab-reports';

// /lab-report and /caregiver/lab-report (SPEC sections 2, 4, 5, 8 and 9): the report history with its
// filters, the upload form (only with AddLabReport), and Trends; everything read from the device's tables,
// so it works offline, and every change written through the outbox. Editing a report switches to the form,
// prefilled; a save or update resets it and returns to the history.

export type LabReportAbilities = { add: boolean; edit: boolean; delete: boolean };
type Props = {
  patientId: string | null;
  /** The signed-in caregiver's id, or null for the patient themself. */
  caregiverId: string | null;
  can: LabReportAbilities;
};

type Mode = 'view' | 'upload' | 'trends';
const HISTORY_HEADING_ID = 'lab-report-history-heading';
// Each tab's title is the page's title (SPEC section 2: 'View Reports' has the title 'Lab Report History').
const TITLES: Record<Mode, string> = {
  view: 'Lab Report History',
  upload: 'Upload Lab Report',
  trends: 'Lab Result Trends',
};
const TAB_LABELS: Record<Mode, string> = { view: 'View Reports', upload: 'Upload Report', trends: 'Trends' };

export function LabReportsPage({ patientId, caregiverId, can }: Props) {
  const today = localDay(new Date().toISOString());
  const rows = usePatientLabReports(patientId);
  const jobs = useLabExtractions(patientId);
  const doctors = useLabDoctors(patientId);
  const [mode, setMode] = useState<Mode>('view');
  // Filters as typed, and as applied 500 ms after the last change (SPEC section 9).
  const [draft, setDraft] = useState<LabReportFilter>({});
  const filter = useDebounced(draft, LAB_FILTER_DEBOUNCE_MS);
  const [editing, setEditing] = useState<LabReport | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [previewing, setPreviewing] = useState<LabReport | null>(null);
  const [deleting, setDeleting] = useState<LabReport | null>(null);
  const [deletingBusy, setDeletingBusy] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);

  // Reports chosen offline were read after a sync: say so wherever the person is on this page.
  useEffect(() => {
    const announce = () => toast.success(MESSAGES.readyToReview);
    window.addEventListener(LAB_REPORTS_READ_EVENT, announce);
    return () => window.removeEventListener(LAB_REPORTS_READ_EVENT, announce);
  }, []);

  const shown = useMemo(() => (rows ? selectLabReports(rows, filter) : undefined), [rows, filter]);
  const doctorNames = useMemo(
    () => new Map(doctors.map((doctor) => [doctor.doctor_id, doctor.name])),
    [doctors],
  );

  if (!patientId)
    return (
      <>
        <PageTitle>{TITLES.view}</PageTitle>
        <Card>
          <p>Please select patient.</p>
        </Card>
      </>
    );

  const modes: Mode[] = can.add || editing ? ['view', 'upload', 'trends'] : ['view', 'trends'];
  const select = (next: Mode) => {
    if (next !== 'upload') setEditing(null);
    setMode(next);
  };
  const backToHistory = (id: string | null) => {
    setEditing(null);
    setFormKey((key) => key + 1);
    setMode('view');
    if (id) setFocusId(id);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeletingBusy(true);
    try {
      await removeLabReport(userDb(), deleting.id);
      toast.success(MESSAGES.deleted);
      requestAnimationFrame(() => document.getElementById(HISTORY_HEADING_ID)?.focus());
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The lab report could not be deleted.');
    } finally {
      setDeletingBusy(false);
      setDeleting(null);
    }
  };

  const retry = async (report: LabReport) => {
    await retryExtraction(userDb(), report.id);
    if (navigator.onLine) void readWaitingReports(userDb());
  };

  const uploadButton = (words: string) =>
    can.add ? (
      <Button onClick={() => select('upload')}>
        <Plus aria-hidden="true" className="h-5 w-5" />
        {words}
      </Button>
    ) : null;

  const filtered = hasLabFilter(draft);
  const history = (
    <div>
      <LabReportFilters filter={draft} doctors={doctors} onChange={setDraft} onClear={() => setDraft({})} />
      {shown === undefined ? null : shown.length === 0 ? (
        filtered && rows && rows.length > 0 ? (
          <EmptyState
            icon={<SearchX />}
            title={MESSAGES.noReports}
            action={
              <Button variant="secondary" onClick={() => setDraft({})}>
                Clear Filters
              </Button>
            }
          >
            No report matches these filters.
          </EmptyState>
        ) : (
          <EmptyState icon={<FileText />} title={MESSAGES.noReports} action={uploadButton('Upload a report')}>
            {can.add
              ? 'Upload a photo or PDF of a lab report: its results are read for you to check, and kept on this device too.'
              : 'When lab reports are added, they show here.'}
          </EmptyState>
        )
      ) : (
        <>
          <p className="mb-3 text-small text-muted" aria-live="polite">
            {shown.length === 1 ? '1 report' : `${shown.length} reports`}
          </p>
          <LabReportList
            reports={shown}
            jobs={jobs}
            doctorNames={doctorNames}
            labelledBy={HISTORY_HEADING_ID}
            canEdit={can.edit}
            canDelete={can.delete}
            onPreview={setPreviewing}
            onEdit={(report) => {
              setEditing(report);
              setMode('upload');
            }}
            onDelete={setDeleting}
            onRetry={(report) => void retry(report)}
            focusId={focusId}
            onFocused={clearFocus}
          />
        </>
      )}
    </div>
  );

  const current = modes.includes(mode) ? mode : 'view';
  return (
    <>
      <div className="mb-6">
        <h1 id={HISTORY_HEADING_ID} tabIndex={-1} className="text-title text-text focus:outline-none">
          {TITLES[current]}
        </h1>
        <p className="mt-1 text-muted">Lab results, kept on this device even without a signal.</p>
      </div>
      <Tabs
        labels={modes.map((item) => TAB_LABELS[item])}
        selected={modes.indexOf(current)}
        onSelect={(index) => select(modes[index] ?? 'view')}
      >
        {current === 'view' ? history : null}
        {current === 'upload' ? (
          <LabReportForm
            key={editing ? editing.id : `new-${formKey}`}
            patientId={patientId}
            caregiverId={caregiverId}
            doctors={doctors}
            today={today}
            editing={editing ? { report: editing, job: jobs.get(editing.id) } : null}
            onDone={(message, id) => {
              toast.success(message);
              backToHistory(id);
            }}
            onCancel={() => backToHistory(null)}
          />
        ) : null}
        {current === 'trends' ? <LabTrends reports={rows ?? []} /> : null}
      </Tabs>
      <LabReportPreviewDialog
        report={previewing}
        name={previewing ? reportName(previewing) : ''}
        onClose={() => setPreviewing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Confirm Deletion"
        message={MESSAGES.confirmDeletion}
        confirmLabel="Delete"
        busy={deletingBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
