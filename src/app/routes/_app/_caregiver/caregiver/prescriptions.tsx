import { createFileRoute } from '@tanstack/react-router';
import { ComingSoonPage } from '../../../../features/coming-soon/coming-soon-page';

export const Route = createFileRoute('/_app/_caregiver/caregiver/prescriptions')({
  component: () => <ComingSoonPage section="prescriptions" />,
});
