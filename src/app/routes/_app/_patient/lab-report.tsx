import { createFileRoute } from '@tanstack/react-router';
import { LabReportsPage } from '../../../features/lab-reports/lab-reports-page';
import { useProfile } from '../../../shell/use-session';

// The patient holds every permission on their own reports.
export const Route = createFileRoute('/_app/_patient/lab-report')({
  component: function PatientLabReports() {
    const profile = useProfile();
    return (
      <LabReportsPage
        patientId={profile?.patient_id ?? null}
        caregiverId={null}
        can={{ add: true, edit: true, delete: true }}
      />
    );
  },
});
