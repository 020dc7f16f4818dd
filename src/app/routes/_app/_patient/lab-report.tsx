import { createFileRoute } from '@tanstack/react-router';
import { UpcomingSection } from '../../../ui/upcoming-section';

export const Route = createFileRoute('/_app/_patient/lab-report')({
  component: () => <UpcomingSection title="Lab Report History" />,
});
