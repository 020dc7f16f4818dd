import type { ReactNode } from 'react';
import { Description } from '@headlessui/react';
import { Button } from './button';
import { Sheet } from './sheet';

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
 * A modal question: a bottom sheet on a phone, a centred dialog from 768 px (ui/sheet.tsx). Focus is trapped
 * inside, Escape closes it, and focus goes back to what opened it. Buttons are at least 44 px high and stack
 * on narrow screens so that long labels never overflow.
 */
export function DialogFrame({ open, title, message, children, actions, onClose }: FrameProps) {
  return (
    <Sheet open={open} onClose={onClose} title={title}>
      <Description className="mt-2 text-muted">{message}</Description>
      {children}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-end *:min-h-11">
        {actions}
      </div>
    </Sheet>
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
