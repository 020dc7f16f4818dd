import { Suspense } from 'react';
import { lazyPart } from '../../../ui/lazy-part';
import { createFileRoute, Link } from '@tanstack/react-router';
import { FileDown } from 'lucide-react';
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
          // A portal's record file adds to the history, and to the medicines, results and vitals.
          <Link
            to="/medical-history/import"
            className="inline-flex min-h-11 items-center gap-2 rounded-control border border-border-strong bg-surface px-4 py-2 font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
          >
            <FileDown aria-hidden="true" className="h-5 w-5" />
            Import records from a file
          </Link>
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
