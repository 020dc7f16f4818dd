import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { LAB_REPORT_MESSAGES as MESSAGES, type LabReport } from '../../../domain/lab-reports';
import { userDb } from '../../../local/db';
import {
  LAB_REPORTS_READ_EVENT,
  readWaitingReports,
  retryExtraction,
} from '../../../local/lab-report-extractions';
import { removeLabReport } from '../../../local/lab-reports';

// What the history's buttons do beyond opening things: delete after asking (focus then goes to the
// page's heading), read a report again, and the toast for reports chosen offline that were read after a
// sync, wherever the person is on the page.

export function useLabReportActions({ headingId }: { headingId: string }) {
  const [deleting, setDeleting] = useState<LabReport | null>(null);
  const [deletingBusy, setDeletingBusy] = useState(false);

  useEffect(() => {
    const announce = () => toast.success(MESSAGES.readyToReview);
    window.addEventListener(LAB_REPORTS_READ_EVENT, announce);
    return () => window.removeEventListener(LAB_REPORTS_READ_EVENT, announce);
  }, []);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeletingBusy(true);
    try {
      await removeLabReport(userDb(), deleting.id);
      toast.success(MESSAGES.deleted);
      requestAnimationFrame(() => document.getElementById(headingId)?.focus());
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

  return {
    deleting,
    deletingBusy,
    askDelete: setDeleting,
    cancelDelete: () => setDeleting(null),
    confirmDelete: () => void confirmDelete(),
    retry: (report: LabReport) => void retry(report),
  };
}
