import { createFileRoute } from '@tanstack/react-router';
import { PHARMACY_PERMISSIONS } from '../../../../../domain/pharmacies';
import { PharmaciesPage } from '../../../../features/pharmacies/pharmacies-page';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

// The route itself needs ReadPharmacy (the caregiver route table). A caregiver never changes a patient's
// pharmacies (the catalogue has no such permission); Search Pharmacy lets them look one up in the directory.
export const Route = createFileRoute('/_app/_caregiver/caregiver/pharmacies')({
  component: function CaregiverPharmacies() {
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    return (
      <PharmaciesPage
        patientId={patientId}
        can={{ change: false, search: held.includes(PHARMACY_PERMISSIONS.search) }}
      />
    );
  },
});
