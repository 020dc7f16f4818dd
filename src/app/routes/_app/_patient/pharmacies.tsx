import { createFileRoute } from '@tanstack/react-router';
import { ComingSoonPage } from '../../../features/coming-soon/coming-soon-page';

export const Route = createFileRoute('/_app/_patient/pharmacies')({
  component: () => <ComingSoonPage section="pharmacies" />,
});
