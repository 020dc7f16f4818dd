import { useMemo, type ReactNode } from 'react';
import { FileText } from 'lucide-react';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  type LabReport,
  type LabReportFilter,
} from '../../../domain/lab-reports';
import type { LocalDoctor } from '../../../local/db';
import type { LabExtractionJob } from '../../../local/db-device-work';
import { EmptyState, NoMatches } from '../../ui/page';
import { LAB_FILTER_DEBOUNCE_MS } from './lab-report-format';
import { LabReportFilters } from './lab-report-filters';
import { LabReportList, type LabReportActions } from './lab-report-list';
import { hasLabFilter, selectLabReports, useDebounced } from './use-lab-reports';

// The View Reports tab: the filters (applied 500 ms after the last change), then the reports they keep, or
// why there are none: none yet (with the way to upload one, for who may), or none that match (with the way
// back to all of them).

type Props = LabReportActions & {
  rows: LabReport[] | undefined;
  jobs: ReadonlyMap<string, LabExtractionJob>;
  doctors: readonly LocalDoctor[];
  /** The filters as typed: the page keeps them while another tab is open. */
  filter: LabReportFilter;
  onFilter: (filter: LabReportFilter) => void;
  /** The upload button of the empty history, or null for who may not upload. */
  uploadButton: ReactNode;
  canAdd: boolean;
  labelledBy: string;
  focusId: string | null;
  onFocused: () => void;
};

export function LabReportHistory({
  rows,
  jobs,
  doctors,
  filter: draft,
  onFilter,
  uploadButton,
  canAdd,
  labelledBy,
  focusId,
  onFocused,
  ...actions
}: Props) {
  const filter = useDebounced(draft, LAB_FILTER_DEBOUNCE_MS);
  const shown = useMemo(() => (rows ? selectLabReports(rows, filter) : undefined), [rows, filter]);
  const doctorNames = useMemo(
    () => new Map(doctors.map((doctor) => [doctor.doctor_id, doctor.name])),
    [doctors],
  );
  const clear = () => onFilter({});
  return (
    <div>
      <LabReportFilters filter={draft} doctors={doctors} onChange={onFilter} onClear={clear} />
      {shown === undefined ? null : shown.length === 0 ? (
        hasLabFilter(draft) && rows && rows.length > 0 ? (
          <NoMatches title={MESSAGES.noReports} onClear={clear}>
            No report matches these filters.
          </NoMatches>
        ) : (
          <EmptyState icon={<FileText />} title={MESSAGES.noReports} action={uploadButton}>
            {canAdd
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
            labelledBy={labelledBy}
            focusId={focusId}
            onFocused={onFocused}
            {...actions}
          />
        </>
      )}
    </div>
  );
}
