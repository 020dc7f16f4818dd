import { useEffect } from 'react';
import { Workbox } from 'workbox-window';
import toast from 'react-hot-toast';

// Registers the service worker (built from sw/) and, when a new version is waiting, offers to reload
// into it. Without the click the waiting worker takes over when every tab of the app is closed.

export function PwaUpdatePrompt() {
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const workbox = new Workbox('/sw.js', { scope: '/' });
    workbox.addEventListener('waiting', () => {
      toast(
        (shown) => (
          <span className="flex items-center gap-3">
            A new version is available -
            <button
              type="button"
              className="min-h-11 rounded-control bg-primary px-3 py-1 font-semibold text-primary-on focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
              onClick={() => {
                toast.dismiss(shown.id);
                workbox.addEventListener('controlling', () => window.location.reload());
                workbox.messageSkipWaiting();
              }}
            >
              Reload
            </button>
          </span>
        ),
        { id: 'pwa-update', duration: Infinity, ariaProps: { role: 'status', 'aria-live': 'polite' } },
      );
    });
    void workbox.register();
  }, []);
  return null;
}
