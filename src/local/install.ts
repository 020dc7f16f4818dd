import { offer } from './install-capture';

// Installing the app on the home screen. Chromium browsers fire `beforeinstallprompt` once, early, when the
// app qualifies; the event has to be caught then and kept, or the install button would have nothing to call
// later. So install-capture.ts runs at page start (main.tsx), before React renders, and this module (with
// the Install button) loads later. Safari on iOS has no such event: people add the app through the Share
// menu, so they get a hint instead. Once the app runs as an installed app (display-mode: standalone),
// neither is offered.

export type { InstallPromptEvent } from './install-capture';
export { captureInstallPrompt } from './install-capture';

/**
 * `prompt`: the browser offers installation and the button can open its dialog; `ios`: Safari on an
 * iPhone or iPad, where only the Share menu installs; `installed`: running as the installed app;
 * `unavailable`: nothing to offer (already installed as far as the browser knows, or not installable).
 */
export type InstallState = 'prompt' | 'ios' | 'installed' | 'unavailable';

let state: InstallState = 'unavailable';
const listeners = new Set<() => void>();

export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Safari's engine on an iPhone or iPad (every iOS browser is WebKit; iPadOS reports itself as a Mac). */
export function isIos(): boolean {
  if (typeof navigator === 'undefined') return false;
  const agent = navigator.userAgent;
  const ipadAsMac = /Macintosh/.test(agent) && navigator.maxTouchPoints > 1;
  return /iPhone|iPad|iPod/.test(agent) || ipadAsMac;
}

function computeState(): InstallState {
  if (offer.installed || isStandalone()) return 'installed';
  if (offer.event) return 'prompt';
  if (isIos()) return 'ios';
  return 'unavailable';
}

function update(): void {
  const next = computeState();
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Follows the offer caught at page start (install-capture.ts) and the display mode. Once; later calls do nothing. */
let following = false;
function follow(): void {
  if (following || typeof window === 'undefined') return;
  following = true;
  offer.changed = update;
  window.matchMedia?.('(display-mode: standalone)').addEventListener?.('change', update);
  state = computeState();
}

/** Worked out on each read: a string, so React sees no change while nothing changed. */
export function readInstallState(): InstallState {
  follow();
  return computeState();
}

export function subscribeInstall(listener: () => void): () => void {
  follow();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Opens the browser's install dialog. The event can be used once: afterwards the button goes away until
 * the browser offers again (it fires `beforeinstallprompt` anew if the person dismissed it).
 */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = offer.event;
  if (!event) return 'unavailable';
  offer.event = null;
  await event.prompt();
  const choice = await event.userChoice;
  if (choice.outcome === 'accepted') offer.installed = true;
  update();
  return choice.outcome;
}
