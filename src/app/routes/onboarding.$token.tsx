import { createFileRoute } from '@tanstack/react-router';
import { OnboardingPage } from '../features/invite/onboarding-page';

// Public (src/app/README.md): the link itself signs the new caregiver in.
export const Route = createFileRoute('/onboarding/$token')({
  component: function OnboardingRoute() {
    const { token } = Route.useParams();
    return <OnboardingPage token={token} />;
  },
});
