import { createFileRoute, redirect } from '@tanstack/react-router';
import { readSession } from '../../local/session';
import { homeFor } from '../shell/guards';

// The catch-all (src/app/README.md): an unknown path goes home by role, or to /login without a token.
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: homeFor(readSession()?.role), replace: true });
  },
});
