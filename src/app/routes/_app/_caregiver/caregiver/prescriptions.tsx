import { createFileRoute } from '@tanstack/react-router';
import { PRESCRIPTION_PERMISSIONS } from '../../../../../domain/prescriptions';
import { PrescriptionsPage } from '../../../../features/prescriptions/prescriptions-page';
import { TodaysSchedule } from '../../../../features/medicines/todays-schedule';
import { useProfile } from '../../../../shell/use-session';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

// The route itself needs ReadPrescription (the caregiver route table); the rest follows the other permissions.
export const Route = createFileRoute('/_app/_caregiver/caregiver/prescriptions')({
  component: function CaregiverPrescriptions() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    const canEdit = held.includes(PRESCRIPTION_PERMISSIONS.edit);
    return (
      <PrescriptionsPage
        patientId={patientId}
        caregiverId={profile?.caregiver_id ?? null}
        can={{
          add: held.includes(PRESCRIPTION_PERMISSIONS.add),
          edit: canEdit,
          delete: held.includes(PRESCRIPTION_PERMISSIONS.delete),
          readDoctors: held.includes('ReadDoctor'),
          readPharmacies: held.includes('ReadPharmacy'),
        }}
        isPatient={false}
        schedule={<TodaysSchedule patientId={patientId} canMark={canEdit} variant="page" />}
      />
    );
  },
});
