import { lazy, Suspense } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { MedicalHistoryPage } from '../../../features/medical-history/medical-history-page';
import { useProfile } from '../../../shell/use-session';

// The check-in history (its charts) loads after the history itself.
const CheckInHistorySection = lazy(() =>
  import('../../../features/check-in/check-in-history-section').then((module) => ({
    default: module.CheckInHistorySection,
  })),
);

export const Route = createFileRoute('/_app/_patient/medical-history')({
  component: function PatientMedicalHistory() {
    const patientId = useProfile()?.patient_id ?? null;
    return (
      <MedicalHistoryPage
        patientId={patientId}
        editable
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
