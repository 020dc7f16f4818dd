import { Suspense } from 'react';
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { useScreenDrawn } from '../ui/first-screen';
import { applyTheme } from '../ui/theme';
import { LoadingScreen } from '../ui/loading-screen';
import { lazyPart } from '../ui/lazy-part';

// The person's colour theme, before the first screen renders (no inline script: the CSP forbids it).
applyTheme();

// The toasts' library loads once the first screen is drawn (ui/toast-later.ts, ui/first-screen.ts).
// Lazy parts (ui/lazy-part.tsx): offline before the service worker kept them, the app stands without them
// and asks again once online (registering the service worker included).
const AppToaster = lazyPart(() => import('../shell/toasts').then((module) => module.AppToaster));
// Registering the service worker waits until the first screen is drawn (it is never what that screen needs).
const PwaUpdatePrompt = lazyPart(() =>
  import('../shell/pwa-update').then((module) => module.PwaUpdatePrompt),
);

function RootLayout() {
  const drawn = useScreenDrawn();
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-control focus:bg-surface focus:p-3 focus:text-text focus:shadow-overlay"
      >
        Skip to content
      </a>
      <Outlet />
      {drawn ? (
        <>
          <Suspense fallback={null}>
            <AppToaster />
          </Suspense>
          <Suspense fallback={null}>
            <PwaUpdatePrompt />
          </Suspense>
        </>
      ) : null}
    </>
  );
}

export const Route = createRootRoute({
  component: RootLayout,
  pendingComponent: LoadingScreen,
});
