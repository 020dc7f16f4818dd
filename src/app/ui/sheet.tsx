import type { ReactNode } from 'react';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useCountAsOpenSheet } from './open-sheets';

// A modal that fits the screen it is on: on a phone it rises from the bottom edge (within thumb reach, above
// the home indicator), from 768 px it is a centred card. Focus is trapped inside, Escape and a tap outside
// close it, and focus goes back to what opened it (Headless UI's Dialog). While it is open the toasts stand at
// the top of the screen, clear of its buttons (open-sheets.ts), in a band that no sheet reaches: its height
// is --kc-toast-band (styles.css), one toast's.

type Props = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** Hide the title visually (it still names the dialog for screen readers). */
  hideTitle?: boolean;
  children: ReactNode;
  /** Centred dialogs are this wide at most on larger screens. */
  size?: 'md' | 'lg';
  'data-testid'?: string;
};

export const SHEET_PANEL_CLASS =
  'max-h-[calc(100dvh-var(--kc-toast-band))] md:max-h-[calc(100dvh-var(--kc-toast-band)-1rem)] w-full overflow-y-auto rounded-t-sheet bg-surface text-text shadow-overlay ring-1 ring-border md:rounded-sheet';

export function Sheet({ open, onClose, title, hideTitle = false, children, size = 'lg', ...rest }: Props) {
  useCountAsOpenSheet(open);
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-black/50" />
      <div className="fixed inset-0 flex items-end justify-center md:items-center md:p-4 md:pt-[var(--kc-toast-band)]">
        <DialogPanel
          data-testid={rest['data-testid']}
          className={`${SHEET_PANEL_CLASS} px-4 pt-3 pb-[calc(1rem+env(safe-area-inset-bottom))] md:p-6 ${
            size === 'md' ? 'md:max-w-md' : 'md:max-w-lg'
          }`}
        >
          {/* The grab handle says "this is a sheet" on a phone; it is decoration only. */}
          <div aria-hidden="true" className="mx-auto mb-3 h-1.5 w-10 rounded-full bg-border md:hidden" />
          <DialogTitle className={hideTitle ? 'sr-only' : 'text-heading text-text'}>{title}</DialogTitle>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
