import { lazy, Suspense } from 'react';
import { Toaster } from 'react-hot-toast';

// Loaded from here, not with the root: its chunk names stay out of the first screens' preload list.
const SpokenToasts = lazy(() =>
  import('../ui/speech/spoken-toasts').then((module) => ({ default: module.SpokenToasts })),
);

/**
 * Toasts of the main interface: bottom-center, closing after 2000 ms (src/app/README.md). On a phone
 * they sit above the tab bar and the home indicator (--kc-toast-bottom in styles.css). When speech is
 * enabled, each is read aloud (ui/speech/spoken-toasts.tsx).
 */
export function AppToaster() {
  return (
    <>
      <Suspense fallback={null}>
        <SpokenToasts />
      </Suspense>
      <Toaster
        position="bottom-center"
        containerStyle={{ bottom: 'var(--kc-toast-bottom)' }}
        toastOptions={{
          duration: 2000,
          style: {
            background: 'var(--kc-surface)',
            color: 'var(--kc-text)',
            border: '1px solid var(--kc-border)',
          },
        }}
      />
    </>
  );
}
