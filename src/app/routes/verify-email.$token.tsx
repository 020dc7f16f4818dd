import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '../features/auth/verify-email-page';

export const Route = createFileRoute('/verify-email/$token')({
  component: function VerifyEmailRoute() {
    const { token } = Route.useParams();
    return <VerifyEmailPage token={token} />;
  },
});
