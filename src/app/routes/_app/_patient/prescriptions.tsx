import { createFileRoute } from '@tanstack/react-router';
import { PrescriptionsPage } from '../../../features/prescriptions/prescriptions-page';
import { TodaysSchedule } from '../../../features/medicines/todays-schedule';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/prescriptions')({
  component: function PatientPrescriptions() {
    const profile = useProfile();
    const patientId = profile?.patient_id ?? null;
    return (
      <PrescriptionsPage
        patientId={patientId}
        caregiverId={null}
        can={{ add: true, edit: true, delete: true }}
        isPatient={true}
        schedule={<TodaysSchedule patientId={patientId} canMark variant="page" />}
      />
    );
  },
});
