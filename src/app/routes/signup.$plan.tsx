import { createFileRoute } from '@tanstack/react-router';
import { PlanSignupPage } from '../features/auth/plan-signup-page';

// Public (src/app/README.md): the corporate sign-up, with its plan chosen.
export const Route = createFileRoute('/signup/$plan')({
  component: function PlanSignupRoute() {
    const { plan } = Route.useParams();
    return <PlanSignupPage planId={plan} />;
  },
});
