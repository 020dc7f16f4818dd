import { createFileRoute } from '@tanstack/react-router';
import { UpcomingSection } from '../../../ui/upcoming-section';

export const Route = createFileRoute('/_app/_patient/subscription')({
  component: () => <UpcomingSection title="Subscription Plans" />,
});
