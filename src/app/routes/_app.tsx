import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../shell/layout';
import { requireSession } from '../shell/guards';

// Every signed-in path: without a stored token it goes to /login.
export const Route = createFileRoute('/_app')({
  beforeLoad: () => ({ session: requireSession() }),
  component: function SignedInLayout() {
    const { session } = Route.useRouteContext();
    return <AppLayout role={session.role} userId={session.userId} />;
  },
});
