import { createFileRoute } from '@tanstack/react-router';
import { MedicalIdPage } from '../../../features/medical-id/medical-id-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/medical-id')({
  component: function PatientMedicalId() {
    return <MedicalIdPage patientId={useProfile()?.patient_id ?? null} />;
  },
});
