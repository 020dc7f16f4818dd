import { Link } from '@tanstack/react-router';
import { Ban, LogOut } from 'lucide-react';
import { Sheet } from '../ui/sheet';
import type { NavEntry } from './navigation';
import { InstallButton } from './install-button';
import { WaitingBadge, WAITING_REQUESTS_PATH, waitingText } from './waiting-requests';

// The phone's More sheet: the rest of the role's menu (src/app/README.md), in its order, then Logout.

/** A menu entry, or the disabled 'No caregiver permissions' in the place of the caregiver submenu. */
export type MoreItem = NavEntry | 'no-caregiver-permissions';

type Props = {
  open: boolean;
  onClose: () => void;
  items: readonly MoreItem[];
  onLogout: () => void;
  /** Permission requests waiting for the patient's answer (0 for a caregiver). */
  waiting?: number;
};

const rowClass =
  'flex min-h-12 w-full items-center gap-4 rounded-control px-3 py-2 text-left text-base text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function MoreSheet({ open, onClose, items, onLogout, waiting = 0 }: Props) {
  return (
    <Sheet open={open} onClose={onClose} title="More" hideTitle data-testid="more-sheet">
      <nav aria-label="More">
        <ul className="divide-y divide-border">
          {items.map((entry) => {
            if (entry === 'no-caregiver-permissions') {
              return (
                <li key={entry}>
                  <span aria-disabled="true" className={`${rowClass} text-muted hover:bg-transparent`}>
                    <Ban aria-hidden="true" className="h-5 w-5 shrink-0" />
                    <span>No caregiver permissions</span>
                  </span>
                </li>
              );
            }
            const Icon = entry.icon;
            return (
              <li key={entry.to}>
                <Link
                  to={entry.to}
                  onClick={onClose}
                  aria-describedby={
                    entry.to === WAITING_REQUESTS_PATH && waiting > 0 ? 'sheet-waiting-text' : undefined
                  }
                  className={rowClass}
                  activeProps={{ className: 'font-semibold text-primary-strong', 'aria-current': 'page' }}
                >
                  <Icon aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
                  <span className="min-w-0">{entry.label}</span>
                  {entry.to === WAITING_REQUESTS_PATH ? <WaitingBadge count={waiting} /> : null}
                  {entry.to === WAITING_REQUESTS_PATH && waiting > 0 ? (
                    <span id="sheet-waiting-text" className="sr-only" aria-hidden="true">
                      {waitingText(waiting)}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mt-2 border-t border-border pt-2">
        <InstallButton className="text-text" />
        <button
          type="button"
          className={rowClass}
          onClick={() => {
            onClose();
            onLogout();
          }}
        >
          <LogOut aria-hidden="true" className="h-5 w-5 shrink-0 text-danger" />
          <span>Logout</span>
        </button>
      </div>
    </Sheet>
  );
}
