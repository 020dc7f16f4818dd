// Installing the app on the home screen. Chromium browsers fire `beforeinstallprompt` once, early, when the
// app qualifies; the event has to be caught then and kept, or the install button would have nothing to call
// later. So captureInstallPrompt() runs at page start (main.tsx), before React renders. Safari on iOS has no
// such event: people add the app through the Share menu, so they get a hint instead. Once the app runs as
// an installed app (display-mode: standalone), neither is offered.

/** The part of Chromium's BeforeInstallPromptEvent this app uses (it is not in TypeScript's DOM types). */
export type InstallPromptEvent = Event & {
  prompt: () => Promise<unknown>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
};

/**
 * `prompt`: the browser offers installation and the button can open its dialog; `ios`: Safari on an
 * iPhone or iPad, where only the Share menu installs; `installed`: running as the installed app;
 * `unavailable`: nothing to offer (already installed as far as the browser knows, or not installable).
 */
export type InstallState = 'prompt' | 'ios' | 'installed' | 'unavailable';

let deferred: InstallPromptEvent | null = null;
let installedNow = false;
let captured = false;
let state: InstallState = 'unavailable';
const listeners = new Set<() => void>();

function isInstallPromptEvent(event: Event): event is InstallPromptEvent {
  return typeof (event as Partial<InstallPromptEvent>).prompt === 'function';
}

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
  if (installedNow || isStandalone()) return 'installed';
  if (deferred) return 'prompt';
  if (isIos()) return 'ios';
  return 'unavailable';
}

function update(): void {
  const next = computeState();
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Starts listening for the browser's install offer. Call once at page start; later calls do nothing. */
export function captureInstallPrompt(): void {
  if (captured || typeof window === 'undefined') return;
  captured = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    if (!isInstallPromptEvent(event)) return;
    // Keeps the browser's own mini-infobar away: the app offers installation where people look for it.
    event.preventDefault();
    deferred = event;
    update();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    installedNow = true;
    update();
  });
  window.matchMedia?.('(display-mode: standalone)').addEventListener?.('change', update);
  state = computeState();
}

/** Worked out on each read: a string, so React sees no change while nothing changed. */
export function readInstallState(): InstallState {
  return computeState();
}

export function subscribeInstall(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Opens the browser's install dialog. The event can be used once: afterwards the button goes away until
 * the browser offers again (it fires `beforeinstallprompt` anew if the person dismissed it).
 */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return 'unavailable';
  deferred = null;
  await event.prompt();
  const choice = await event.userChoice;
  if (choice.outcome === 'accepted') installedNow = true;
  update();
  return choice.outcome;
}
