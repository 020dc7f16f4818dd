import { createFileRoute } from '@tanstack/react-router';
import { UpcomingSection } from '../../../../ui/upcoming-section';

export const Route = createFileRoute('/_app/_caregiver/caregiver/prescriptions')({
  component: () => <UpcomingSection title="Prescriptions" />,
});
