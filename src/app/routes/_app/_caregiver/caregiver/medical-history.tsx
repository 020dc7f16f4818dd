import { Suspense } from 'react';
import { lazyPart } from '../../../../ui/lazy-part';
import { createFileRoute } from '@tanstack/react-router';
import { MedicalHistoryPage } from '../../../../features/medical-history/medical-history-page';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';

// The route needs ReadMedicalHistory (the caregiver route table, guarded by _caregiver.tsx); no caregiver
// permission lets anyone but the patient change the history, so it is read-only here.
const CheckInHistorySection = lazyPart(
  () =>
    import('../../../../features/check-in/check-in-history-section').then(
      (module) => module.CheckInHistorySection,
    ),
  <p className="text-muted">The check-in history will show when you are back online.</p>,
);

export const Route = createFileRoute('/_app/_caregiver/caregiver/medical-history')({
  component: function CaregiverMedicalHistory() {
    const patientId = useSelectedPatientId();
    return (
      <MedicalHistoryPage
        patientId={patientId}
        editable={false}
        after={
          patientId ? (
            <Suspense fallback={null}>
              <CheckInHistorySection patientId={patientId} viewer="caregiver" />
            </Suspense>
          ) : null
        }
      />
    );
  },
});
