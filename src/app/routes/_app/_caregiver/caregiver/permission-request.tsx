import { createFileRoute } from '@tanstack/react-router';
import { UpcomingSection } from '../../../../ui/upcoming-section';

export const Route = createFileRoute('/_app/_caregiver/caregiver/permission-request')({
  component: () => <UpcomingSection title="Request Additional Permissions" />,
});
