import { createFileRoute, redirect } from '@tanstack/react-router';
import { readSession } from '../../local/session';
import { homeFor } from '../shell/guards';
import { LoginPage } from '../features/auth/login-page';

export const Route = createFileRoute('/login')({
  beforeLoad: () => {
    const session = readSession();
    if (session) throw redirect({ to: homeFor(session.role), replace: true });
  },
  component: LoginPage,
});
