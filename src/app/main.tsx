import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import { routeTree } from './routeTree.gen';
import { LoadingScreen } from './ui/page';
import { setHttpEvents } from '../local/http';
import { clearSession } from '../local/session';
import { resumeSession } from '../local/account';
import { UNAUTHORIZED_TOAST } from '../domain/errors';
import './styles.css';

const router = createRouter({
  routeTree,
  defaultPendingComponent: LoadingScreen,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// SPEC section 8, in one place: a 401 on a signed-in call ends the session; other failures are toasted.
setHttpEvents({
  onUnauthorized: () => {
    clearSession();
    toast.error(UNAUTHORIZED_TOAST, { id: 'unauthorized' });
    void router.navigate({ to: '/', replace: true });
  },
  onError: (messages) => {
    for (const message of messages) toast.error(message, { id: message });
  },
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
root.render(<LoadingScreen />);
void resumeSession()
  .catch(() => clearSession())
  .then(() =>
    root.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  );
