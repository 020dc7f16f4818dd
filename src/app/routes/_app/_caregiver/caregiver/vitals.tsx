import { createFileRoute } from '@tanstack/react-router';
import { VitalsPage } from '../../../../features/vitals/vitals-page';
import { useProfile } from '../../../../shell/use-session';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

// The route needs ReadVitals on the selected patient (the caregiver route table, from the resource's
// declaration, guarded by _caregiver.tsx: without it the caregiver lands on /unauthorized, which says why).
export const Route = createFileRoute('/_app/_caregiver/caregiver/vitals')({
  component: function CaregiverVitals() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    return (
      <VitalsPage
        patientId={patientId}
        caregiverId={profile?.caregiver_id ?? null}
        can={{
          add: held.includes('AddVitals'),
          edit: held.includes('EditVitals'),
          delete: held.includes('DeleteVitals'),
        }}
      />
    );
  },
});
