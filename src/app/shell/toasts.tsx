import { Suspense, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from '@tanstack/react-router';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { lazyPart } from '../ui/lazy-part';
import { useSheetOpen } from '../ui/open-sheets';
import { SESSION_ENDED_TOAST_ID } from './session-ended';

// Loaded from here, not with the root: its chunk names stay out of the first screens' preload list.
const SpokenToasts = lazyPart(() =>
  import('../ui/speech/spoken-toasts').then((module) => module.SpokenToasts),
);

/**
 * Toasts of the main interface: bottom-center, closing after 2000 ms (src/app/README.md). On a phone
 * they sit above the tab bar and the home indicator (--kc-toast-bottom in styles.css). While a sheet or
 * dialog is open they stand at the top instead (ui/open-sheets.ts): a phone's sheet has its buttons at the
 * bottom of the screen, and a tall dialog reaches down there too. When speech is enabled, each is read aloud
 * (ui/speech/spoken-toasts.tsx).
 *
 * They are rendered beside the app's root, not in it: an open dialog makes the rest of the app inert and
 * hidden from screen readers (Headless UI), and the toasts that come meanwhile are read out and tappable.
 *
 * An error belongs to the page where it happened: moving to another page closes the error toasts, so
 * "could not be saved" never sits over a screen it does not concern. A change the server refused
 * (`failed-...`) is about the person's records wherever they are, and keeps its few seconds; so does a
 * session that ended, which sends the person to the sign-in page, where they read why.
 */
export function AppToaster() {
  const sheetOpen = useSheetOpen();
  useErrorToastsCloseWithTheirPage();
  return (
    <>
      <Suspense fallback={null}>
        <SpokenToasts />
      </Suspense>
      {createPortal(
        <Toaster
          position={sheetOpen ? 'top-center' : 'bottom-center'}
          containerStyle={{ top: 'var(--kc-toast-top)', bottom: 'var(--kc-toast-bottom)' }}
          toastOptions={{
            duration: 2000,
            style: {
              background: 'var(--kc-surface)',
              color: 'var(--kc-text)',
              border: '1px solid var(--kc-border)',
            },
          }}
        />,
        document.body,
      )}
    </>
  );
}

function useErrorToastsCloseWithTheirPage(): void {
  const pathname = useLocation({ select: (location) => location.pathname });
  const { toasts } = useToasterStore();
  const shown = useRef(toasts);
  useEffect(() => {
    shown.current = toasts;
  }, [toasts]);
  const page = useRef(pathname);
  useEffect(() => {
    if (page.current === pathname) return;
    page.current = pathname;
    for (const shownToast of shown.current)
      if (shownToast.type === 'error' && shownToast.visible && !outlivesItsPage(shownToast.id))
        toast.dismiss(shownToast.id);
  }, [pathname]);
}

const outlivesItsPage = (id: string) => id.startsWith('failed-') || id === SESSION_ENDED_TOAST_ID;
