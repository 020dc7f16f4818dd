import { createFileRoute } from '@tanstack/react-router';
import { RecordImportPage } from '../../../features/record-import/record-import-page';
import { useProfile } from '../../../shell/use-session';

// /medical-history/import: the patient adds records from a patient portal's file (the page says how).
export const Route = createFileRoute('/_app/_patient/medical-history_/import')({
  component: function PatientRecordImport() {
    const profile = useProfile();
    return (
      <RecordImportPage
        patientId={profile?.patient_id ?? null}
        patientName={profile?.name ?? ''}
        caregiverId={null}
      />
    );
  },
});
