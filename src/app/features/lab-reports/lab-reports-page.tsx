import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { Plus } from 'lucide-react';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  type LabReport,
  type LabReportFilter,
} from '../../../domain/lab-reports';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { NoPatientSelected } from '../../ui/page';
import { Tabs } from '../../ui/tabs';
import { localDay } from './lab-report-format';
import { LabReportForm } from './lab-report-form';
import { LabReportHistory } from './lab-report-history';
import { reportName } from './lab-report-list';
import { LabReportPreviewDialog } from './lab-report-preview';
import { LabTrends } from './lab-trends';
import { useLabReportActions } from './use-lab-report-actions';
import { useLabDoctors, useLabExtractions, usePatientLabReports } from './use-lab-reports';

// /lab-report and /caregiver/lab-report: three tabs, the report history with its filters
// (lab-report-history.tsx), the upload form (only with AddLabReport) and Trends; everything read from the
// device's tables, so it works offline, and every change written through the outbox. Editing a report
// switches to the form, prefilled; a save or update resets it and returns to the history.

export type LabReportAbilities = { add: boolean; edit: boolean; delete: boolean };
type Props = {
  patientId: string | null;
  /** The signed-in caregiver's id, or null for the patient themself. */
  caregiverId: string | null;
  can: LabReportAbilities;
};

type Mode = 'view' | 'upload' | 'trends';
const HISTORY_HEADING_ID = 'lab-report-history-heading';
// Each tab's title is the page's title ('View Reports' has the title 'Lab Report History').
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
  const actions = useLabReportActions({ headingId: HISTORY_HEADING_ID });
  const [mode, setMode] = useState<Mode>('view');
  const [filter, setFilter] = useState<LabReportFilter>({});
  const [editing, setEditing] = useState<LabReport | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [previewing, setPreviewing] = useState<LabReport | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);

  if (!patientId) return <NoPatientSelected title={TITLES.view} />;

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
        {current === 'view' ? (
          <LabReportHistory
            rows={rows}
            jobs={jobs}
            doctors={doctors}
            filter={filter}
            onFilter={setFilter}
            canAdd={can.add}
            uploadButton={
              can.add ? (
                <Button onClick={() => select('upload')}>
                  <Plus aria-hidden="true" className="h-5 w-5" />
                  Upload a report
                </Button>
              ) : null
            }
            labelledBy={HISTORY_HEADING_ID}
            canEdit={can.edit}
            canDelete={can.delete}
            onPreview={setPreviewing}
            onEdit={(report) => {
              setEditing(report);
              setMode('upload');
            }}
            onDelete={actions.askDelete}
            onRetry={actions.retry}
            focusId={focusId}
            onFocused={clearFocus}
          />
        ) : null}
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
        open={actions.deleting !== null}
        title="Confirm Deletion"
        message={MESSAGES.confirmDeletion}
        confirmLabel="Delete"
        busy={actions.deletingBusy}
        onConfirm={actions.confirmDelete}
        onClose={actions.cancelDelete}
      />
    </>
  );
}
