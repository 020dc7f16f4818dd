import { createFileRoute } from '@tanstack/react-router';
import { InviteRegisterPage } from '../features/invite/invite-register-page';

// Public (src/app/README.md): the invited person has no account yet.
export const Route = createFileRoute('/invite/register/$token')({
  component: function InviteRegisterRoute() {
    const { token } = Route.useParams();
    return <InviteRegisterPage token={token} />;
  },
});
