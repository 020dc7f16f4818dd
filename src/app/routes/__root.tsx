import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AppToaster } from '../shell/toasts';
import { PwaUpdatePrompt } from '../shell/pwa-update';
import { applyTheme } from '../shell/theme';
import { LoadingScreen } from '../ui/page';

// The person's colour theme, before the first screen renders (no inline script: the CSP forbids it).
applyTheme();

export const Route = createRootRoute({
  component: () => (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-control focus:bg-surface focus:p-3 focus:text-text focus:shadow-overlay"
      >
        Skip to content
      </a>
      <Outlet />
      <AppToaster />
      <PwaUpdatePrompt />
    </>
  ),
  pendingComponent: LoadingScreen,
});
