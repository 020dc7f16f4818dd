import { createFileRoute } from '@tanstack/react-router';
import { RecordImportPage } from '../../../../features/record-import/record-import-page';
import { useProfile } from '../../../../shell/use-session';
import { useAssociatedPatients, useSelectedPatientId } from '../../../../shell/use-selected-patient';

// /caregiver/import: a caregiver adds records from a patient portal's file for the selected patient. No
// Read permission opens it (it shows only the file's contents); what they may add is what their Add
// permissions cover, which the server's reading of the file says kind by kind (medical history: the
// patient alone).
export const Route = createFileRoute('/_app/_caregiver/caregiver/import')({
  component: function CaregiverRecordImport() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const patient = useAssociatedPatients()?.find((entry) => entry.patient_id === patientId);
    return (
      <RecordImportPage
        patientId={patientId}
        patientName={patient?.name ?? 'the patient'}
        caregiverId={profile?.caregiver_id ?? null}
      />
    );
  },
});
