import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AppToaster } from '../shell/toasts';
import { PwaUpdatePrompt } from '../shell/pwa-update';
import { LoadingScreen } from '../ui/page';

export const Route = createRootRoute({
  component: () => (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
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
