import { createFileRoute, redirect } from '@tanstack/react-router';
import { readSession } from '../../local/session';
import { homeFor } from '../shell/guards';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: homeFor(readSession()?.role), replace: true });
  },
});
