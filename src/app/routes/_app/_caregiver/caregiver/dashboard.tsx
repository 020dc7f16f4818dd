import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../../screens/home/dashboard-page';
import { CaregiverSummary } from '../../../../features/caregiver-patients/caregiver-summary';

export const Route = createFileRoute('/_app/_caregiver/caregiver/dashboard')({
  component: function CaregiverDashboard() {
    return (
      // Below Home's cards, drawn with them (never above them before they are there).
      <DashboardPage>
        <CaregiverSummary />
      </DashboardPage>
    );
  },
});
