import { useEffect } from 'react';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useOnline } from '../ui/use-online';

// What a screen shows when it cannot be drawn (the router's error component for every route). Most often
// its code is not on the device: the device lost its signal before the service worker had kept the app's
// files, and this screen had not been opened yet. That is said plainly, with what to do, and the screen
// opens by itself once the device is online again. Any other failure says that the records on the device
// are untouched (they live in IndexedDB, not in the screen) and offers to try again or go Home.
// It is part of the entry's code, so that it is there whatever else could not be fetched.

/** A failed fetch of a module, as Chromium, Firefox and Safari word it. */
function isMissingCode(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload/i.test(message);
}

export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const online = useOnline();
  const missingCode = isMissingCode(error);
  const tryAgain = () => {
    // invalidate() asks for the screen's code again; reset() draws the screen in place of this message.
    void router.invalidate().finally(reset);
  };

  useEffect(() => {
    if (!missingCode) return;
    const retry = () => void router.invalidate().finally(reset);
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [missingCode, router, reset]);

  return (
    <section role="alert" aria-labelledby="route-error-title" className="mx-auto max-w-prose p-4">
      <h1 id="route-error-title" className="text-heading">
        {missingCode ? 'This screen is not on this device yet' : 'Something went wrong on this screen'}
      </h1>
      <p className="mt-2 text-muted">
        {missingCode
          ? online
            ? 'Kincare could not fetch this screen. Your records on this device are safe. Try again in a moment.'
            : 'Kincare keeps its screens on your device once it has been online for a moment, and this one is not here yet. It will open when you are back online. Your records on this device are safe.'
          : 'Your records on this device are safe. Try again, or go back to Home.'}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={tryAgain}
          className="inline-flex min-h-11 items-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2"
        >
          Try again
        </button>
        <Link
          to="/"
          className="inline-flex min-h-11 items-center rounded-control px-4 py-2 font-semibold text-primary-strong hover:bg-primary-soft focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          Go to Home
        </Link>
      </div>
    </section>
  );
}
