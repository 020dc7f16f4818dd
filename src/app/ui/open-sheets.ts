import { useEffect, useSyncExternalStore } from 'react';

// Whether a sheet or dialog is open now. The toasts (shell/toasts.tsx) stand at the bottom of the screen,
// where a phone's sheet has its buttons: while one is open they move to the top, which no sheet reaches
// (sheet.tsx keeps that band free). Each open sheet counts itself here, so no screen has to tell the toasts.

let openSheets = 0;
const listeners = new Set<() => void>();

function changed(by: number) {
  openSheets += by;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Counts the calling component as an open sheet while `open` is true. */
export function useCountAsOpenSheet(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    changed(1);
    return () => changed(-1);
  }, [open]);
}

/** Whether any sheet or dialog is open; follows them opening and closing. */
export function useSheetOpen(): boolean {
  return useSyncExternalStore(subscribe, () => openSheets > 0);
}
