import { createFileRoute } from '@tanstack/react-router';
import { VitalsPage } from '../../../features/vitals/vitals-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/vitals')({
  component: function PatientVitals() {
    const profile = useProfile();
    return (
      <VitalsPage
        patientId={profile?.patient_id ?? null}
        caregiverId={null}
        can={{ add: true, edit: true, delete: true }}
      />
    );
  },
});
