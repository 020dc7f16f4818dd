import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { LoadingScreen } from './ui/loading-screen';
import { RouteError } from './shell/route-error';
import { setHttpEvents } from '../local/http-events';
import { clearSession, resumeSession } from '../local/session';
import { saySessionEnded } from './shell/session-ended';
import { captureInstallPrompt } from '../local/install-capture';
import './styles.css';

// The browser offers installing once, early: keep its event for the Install button, which renders later.
captureInstallPrompt();

// The first screen of a load is at its top already, and its content is still on its way from IndexedDB,
// so there is nothing to restore: scrolling anyway forces a layout in the middle of the first render, a
// long task on a phone (tests/bench/lighthouse.ts). Every later navigation restores or starts at the top.
let firstScreenRendered = false;
const restoreScrollAfterFirstScreen = () => {
  if (firstScreenRendered) return true;
  firstScreenRendered = true;
  return false;
};

const router = createRouter({
  routeTree,
  defaultPendingComponent: LoadingScreen,
  // A screen that cannot be drawn (its code not on the device yet, offline) says why and what to do.
  defaultErrorComponent: RouteError,
  defaultPreload: 'intent',
  scrollRestoration: restoreScrollAfterFirstScreen,
  // Pages scroll inside <main>, which stays from one page to the next: a new page starts at its top
  // (Back and Forward still restore where the person was).
  scrollToTopSelectors: ['#main'],
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// What a failed call does (src/local/README.md), in one place: a 401 on a signed-in call ends the session
// (local/session.ts has already cleared it and forgotten the person's data by now); other failures are
// toasted.
setHttpEvents({
  onUnauthorized: (ended) => {
    saySessionEnded(ended);
    void router.navigate({ to: '/', replace: true });
  },
  // The standard error toasts; a plan's limit reached also offers the way to the Subscription page.
  onError: (messages) => {
    void import('./shell/error-toasts').then((module) => module.showErrorToasts(messages));
  },
});

// The current page's code is fetched while the session is read from IndexedDB below: one after the other,
// a first load waited for the replica to open before it asked for the page (tests/bench/lighthouse.ts).
for (const route of router.getMatchedRoutes(window.location.pathname)[0])
  router.loadRouteChunk(route)?.catch(() => undefined); // the router loads it again, and reports, when it renders

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
root.render(<LoadingScreen />);
// The session is loaded from IndexedDB before anything renders: routes read it synchronously.
void resumeSession()
  .catch(() => clearSession().catch(() => undefined))
  .then(() =>
    root.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  );
