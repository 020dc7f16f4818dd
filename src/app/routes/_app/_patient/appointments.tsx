import { createFileRoute } from '@tanstack/react-router';
import { AppointmentsPage } from '../../../features/appointments/appointments-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/appointments')({
  component: function PatientAppointments() {
    const profile = useProfile();
    return (
      <AppointmentsPage
        patientId={profile?.patient_id ?? null}
        caregiverId={null}
        can={{ add: true, edit: true, delete: true }}
      />
    );
  },
});
