import { createFileRoute } from '@tanstack/react-router';
import { PharmaciesPage } from '../../../features/pharmacies/pharmacies-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/pharmacies')({
  component: function PatientPharmacies() {
    const profile = useProfile();
    return <PharmaciesPage patientId={profile?.patient_id ?? null} can={{ change: true, search: true }} />;
  },
});
