import { Toaster } from 'react-hot-toast';

/**
 * Toasts of the main interface: bottom-center, closing after 2000 ms (SPEC sections 2 and 9). On a phone
 * they sit above the tab bar and the home indicator (--kc-toast-bottom in styles.css).
 */
export function AppToaster() {
  return (
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
  );
}
