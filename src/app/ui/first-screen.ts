import { useEffect, useState } from 'react';

// What the app adds around a screen starts once the screen's own content is drawn: the signed-in shell's
// sync client, sync status popover, weather, install button and prefetch of the More sheet; the root's
// toasts and service worker registration; a form's rules (Zod, use-schema-form.ts); the content of Home's
// lab results, check-in and Fitbit cards (screens/home/home-feature-cards.tsx). Started at once, those
// loads took the network and the main thread from what the person opened the app to see: on a phone's
// first load Home's cards and the sign-in page waited for them (tests/bench/lighthouse.ts). A screen that
// says when it is drawn (Home) lets them start once it is painted; after any other screen, or one that
// never says, they start SCREEN_WAIT_MS after the first component that waits for them. Once started they
// stay started.

/** The longest the shell's extras wait for a screen to say it is drawn. */
export const SCREEN_WAIT_MS = 800;

let started = false;
const waiting = new Set<() => void>();
/** One timer for the page, set by the first component that waits: a timer each cost the first render time. */
let fallbackTimer: ReturnType<typeof setTimeout> | undefined;

function start(): void {
  if (started) return;
  started = true;
  for (const wake of waiting) wake();
  waiting.clear();
}

/** Called by a screen once its content is on screen: the shell's extras start once it is painted. */
export function screenDrawn(): void {
  if (started) return;
  // The first frame's callback runs before that frame is painted, the second's after: what starts then
  // no longer shares the network and main thread with the paint of the screen (tests/bench/lighthouse.ts
  // saw its requests go out before that paint with a single frame's wait).
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
}

/** False until the screen is drawn (or SCREEN_WAIT_MS has passed), then true for good. */
export function useScreenDrawn(): boolean {
  const [drawn, setDrawn] = useState(started);
  useEffect(() => {
    if (drawn) return;
    const wake = () => setDrawn(true);
    waiting.add(wake);
    fallbackTimer ??= setTimeout(start, SCREEN_WAIT_MS);
    if (started) wake(); // started between the render and this effect
    return () => {
      waiting.delete(wake);
    };
  }, [drawn]);
  return drawn;
}
