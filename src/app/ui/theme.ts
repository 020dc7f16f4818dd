import { useSyncExternalStore } from 'react';
import { DISPLAY_KEYS } from '../../domain/storage-keys';

// The colour theme. 'system' follows the device (prefers-color-scheme, in CSS alone); 'light' and 'dark' are
// the person's choice in the profile, kept in localStorage and set as data-theme on <html> (styles.css).

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const listeners = new Set<() => void>();

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function readTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(DISPLAY_KEYS.theme);
    return isThemeChoice(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Puts the choice on the document: the colour tokens in styles.css follow data-theme. */
export function applyTheme(choice: ThemeChoice = readTheme()): void {
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  // The browser's own bars (index.html has one colour per system scheme): a chosen theme wins over both.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"][media]')) {
    const own = meta.media.includes('dark') ? THEME_COLOUR.dark : THEME_COLOUR.light;
    meta.content = choice === 'system' ? own : THEME_COLOUR[choice];
  }
}

/** The colour of the browser's bars per theme: the light primary and the dark navigation surface. */
const THEME_COLOUR = { light: '#0f766e', dark: '#0f1d20' } as const;

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(DISPLAY_KEYS.theme);
    else localStorage.setItem(DISPLAY_KEYS.theme, choice);
  } catch {
    // Private modes may refuse storage: the choice still holds until the page is closed.
  }
  applyTheme(choice);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed it: follow.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== DISPLAY_KEYS.theme) return;
    applyTheme();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useTheme(): ThemeChoice {
  return useSyncExternalStore(subscribe, readTheme);
}
