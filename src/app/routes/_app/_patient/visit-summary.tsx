import { createFileRoute } from '@tanstack/react-router';
import { VisitSummaryPage } from '../../../features/visit-summary/visit-summary-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/visit-summary')({
  component: function PatientVisitSummary() {
    return <VisitSummaryPage patientId={useProfile()?.patient_id ?? null} />;
  },
});
