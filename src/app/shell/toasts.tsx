import { lazy, Suspense } from 'react';
import { createPortal } from 'react-dom';
import { Toaster } from 'react-hot-toast';
import { useSheetOpen } from '../ui/open-sheets';

// Loaded from here, not with the root: its chunk names stay out of the first screens' preload list.
const SpokenToasts = lazy(() =>
  import('../ui/speech/spoken-toasts').then((module) => ({ default: module.SpokenToasts })),
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
 */
export function AppToaster() {
  const sheetOpen = useSheetOpen();
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
