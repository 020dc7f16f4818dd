import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../../features/dashboard/dashboard-page';
import { CaregiverSummary } from '../../../../features/caregiver-patients/caregiver-summary';

export const Route = createFileRoute('/_app/_caregiver/caregiver/dashboard')({
  component: function CaregiverDashboard() {
    return (
      <>
        <DashboardPage />
        <CaregiverSummary />
      </>
    );
  },
});
