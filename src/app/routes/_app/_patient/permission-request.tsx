import { createFileRoute } from '@tanstack/react-router';
import { UpcomingSection } from '../../../ui/upcoming-section';

export const Route = createFileRoute('/_app/_patient/permission-request')({
  component: () => <UpcomingSection title="Caregivers Permission List" />,
});
