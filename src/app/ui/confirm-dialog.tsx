import type { ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import { Button } from './button';

type FrameProps = {
  open: boolean;
  title: string;
  message: string;
  /** Shown under the message, e.g. why the last attempt failed. */
  children?: ReactNode;
  /** The buttons, in reading order: a row on wide screens, a stack on phones. */
  actions: ReactNode;
  onClose: () => void;
};

/**
 * A modal question: focus is trapped inside, Escape closes it, and focus goes back to what opened it.
 * Buttons are at least 44 px high and stack on narrow screens so that long labels never overflow.
 */
export function DialogFrame({ open, title, message, children, actions, onClose }: FrameProps) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <Description className="mt-2 text-slate-700">{message}</Description>
          {children}
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-end *:min-h-11">
            {actions}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

type Props = {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** A confirmation for something that cannot be undone: Escape and Cancel close it. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busy = false,
  onConfirm,
  onClose,
}: Props) {
  return (
    <DialogFrame
      open={open}
      title={title}
      message={message}
      onClose={onClose}
      actions={
        <>
          {/* Focus starts on the choice that changes nothing. */}
          <Button variant="secondary" onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? 'Loading...' : confirmLabel}
          </Button>
        </>
      }
    />
  );
}
