import { createFileRoute } from '@tanstack/react-router';
import { DOCTOR_PERMISSIONS } from '../../../../../domain/doctors';
import { DoctorsPage } from '../../../../features/doctors/doctors-page';
import { useProfile } from '../../../../shell/use-session';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

// The route itself needs ReadDoctor (the caregiver route table); the rest follows the other permissions.
export const Route = createFileRoute('/_app/_caregiver/caregiver/doctors')({
  component: function CaregiverDoctors() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    return (
      <DoctorsPage
        patientId={patientId}
        caregiverId={profile?.caregiver_id ?? null}
        can={{
          add: held.includes(DOCTOR_PERMISSIONS.add),
          delete: held.includes(DOCTOR_PERMISSIONS.delete),
          profile: held.includes(DOCTOR_PERMISSIONS.profile),
        }}
      />
    );
  },
});
