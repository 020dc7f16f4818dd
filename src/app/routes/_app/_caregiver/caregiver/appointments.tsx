import { createFileRoute } from '@tanstack/react-router';
import { AppointmentsPage } from '../../../../features/appointments/appointments-page';
import { useProfile } from '../../../../shell/use-session';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

export const Route = createFileRoute('/_app/_caregiver/caregiver/appointments')({
  component: function CaregiverAppointments() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    return (
      <AppointmentsPage
        patientId={patientId}
        caregiverId={profile?.caregiver_id ?? null}
        can={{
          add: held.includes('AddAppointment'),
          edit: held.includes('EditAppointment'),
          delete: held.includes('DeleteAppointment'),
        }}
      />
    );
  },
});
