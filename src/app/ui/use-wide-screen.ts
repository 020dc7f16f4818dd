import { useSyncExternalStore } from 'react';

// The one breakpoint where the app changes its layout (768 px, the `md` of the Tailwind theme): the shell
// swaps its tab bar for the sidebar, the lab reports their cards for a table. Where a layout renders only
// the side that is seen, each control is in the page once, and a phone does not build the desktop's menu.

const WIDE = '(min-width: 768px)';

/** Whether the browser can tell the screen's width (jsdom cannot). */
export const canTellScreenWidth = (): boolean => typeof window.matchMedia === 'function';

/** Whether the screen is at least 768 px wide (false where matchMedia is missing); follows a resize. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      if (!canTellScreenWidth()) return () => undefined;
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => canTellScreenWidth() && window.matchMedia(WIDE).matches,
  );
}
