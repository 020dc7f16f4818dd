import { Suspense } from 'react';
import { lazyPart } from '../../../../ui/lazy-part';
import { createFileRoute } from '@tanstack/react-router';
import { ImportRecordsLink } from '../../../../features/record-import/import-link';
import { SummaryDownload } from '../../../../features/patient-summary/summary-download';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';
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
    const held = useCaregiverPermissions();
    // A portal's file may hold medicines, results and vitals, which these permissions let them add.
    const mayImport = (['AddPrescription', 'AddLabReport', 'AddVitals'] as const).some((add) =>
      held.includes(add),
    );
    return (
      <MedicalHistoryPage
        patientId={patientId}
        editable={false}
        actions={
          patientId ? (
            // The summary holds what this caregiver may read of the patient's records.
            <div className="flex flex-wrap items-start gap-4">
              {mayImport ? <ImportRecordsLink to="/caregiver/import" /> : null}
              <SummaryDownload patientId={patientId} />
            </div>
          ) : null
        }
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
