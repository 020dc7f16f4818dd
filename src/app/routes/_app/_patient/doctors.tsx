import { createFileRoute } from '@tanstack/react-router';
import { DoctorsPage } from '../../../features/doctors/doctors-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/doctors')({
  component: function PatientDoctors() {
    const profile = useProfile();
    return (
      <DoctorsPage
        patientId={profile?.patient_id ?? null}
        caregiverId={null}
        can={{ add: true, delete: true, profile: true }}
      />
    );
  },
});
