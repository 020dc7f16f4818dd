import { Toaster } from 'react-hot-toast';

/** Toasts of the main interface: bottom-center, closing after 2000 ms (SPEC sections 2 and 9). */
export function AppToaster() {
  return <Toaster position="bottom-center" toastOptions={{ duration: 2000 }} />;
}
