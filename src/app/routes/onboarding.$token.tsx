import { createFileRoute } from '@tanstack/react-router';
import { OnboardingPage } from '../features/invite/onboarding-page';

// Public (SPEC section 2): the link itself signs the new caregiver in.
export const Route = createFileRoute('/onboarding/$token')({
  component: function OnboardingRoute() {
    const { token } = Route.useParams();
    return <OnboardingPage token={token} />;
  },
});
