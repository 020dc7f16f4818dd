import { Suspense } from 'react';
import { lazyPart } from '../../../ui/lazy-part';
import { createFileRoute } from '@tanstack/react-router';
import { ImportRecordsLink } from '../../../features/record-import/import-link';
import { SummaryDownload } from '../../../features/patient-summary/summary-download';
import { MedicalHistoryPage } from '../../../features/medical-history/medical-history-page';
import { useProfile } from '../../../shell/use-session';

// The check-in history (its charts) loads after the history itself.
const CheckInHistorySection = lazyPart(
  () =>
    import('../../../features/check-in/check-in-history-section').then(
      (module) => module.CheckInHistorySection,
    ),
  <p className="text-muted">The check-in history will show when you are back online.</p>,
);

export const Route = createFileRoute('/_app/_patient/medical-history')({
  component: function PatientMedicalHistory() {
    const patientId = useProfile()?.patient_id ?? null;
    return (
      <MedicalHistoryPage
        patientId={patientId}
        editable
        actions={
          // Records in from a portal's file (the history, medicines, results and vitals), and out as a
          // summary file for a doctor.
          <div className="flex flex-wrap items-start gap-4">
            <ImportRecordsLink to="/medical-history/import" />
            <SummaryDownload patientId={patientId} />
          </div>
        }
        after={
          patientId ? (
            <Suspense fallback={null}>
              <CheckInHistorySection patientId={patientId} viewer="patient" />
            </Suspense>
          ) : null
        }
      />
    );
  },
});
