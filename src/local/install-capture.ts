// Catches the browser's install offer at page start (main.tsx): Chromium fires `beforeinstallprompt` once,
// early, and the Install button that uses it (install.ts, shell/install-button.tsx) loads later. Only the
// catching is here, since the app's entry is part of every page's first load.

/** The part of Chromium's BeforeInstallPromptEvent this app uses (it is not in TypeScript's DOM types). */
export type InstallPromptEvent = Event & {
  prompt: () => Promise<unknown>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
};

/** The offer held for the Install button, and whether the app was installed from this page. */
export const offer: { event: InstallPromptEvent | null; installed: boolean; changed: () => void } = {
  event: null,
  installed: false,
  changed: () => undefined,
};

let capturing = false;

/** Starts listening for the browser's install offer. Call once at page start; later calls do nothing. */
export function captureInstallPrompt(): void {
  if (capturing || typeof window === 'undefined') return;
  capturing = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    if (typeof (event as Partial<InstallPromptEvent>).prompt !== 'function') return;
    // Keeps the browser's own mini-infobar away: the app offers installation where people look for it.
    event.preventDefault();
    offer.event = event as InstallPromptEvent;
    offer.changed();
  });
  window.addEventListener('appinstalled', () => {
    offer.event = null;
    offer.installed = true;
    offer.changed();
  });
}
