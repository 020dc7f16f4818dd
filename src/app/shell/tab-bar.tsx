import { Link } from '@tanstack/react-router';
import { Ellipsis } from 'lucide-react';
import type { Tab } from './navigation';
import { waitingText } from './waiting-requests';

// The phone's bottom tab bar (below 768 px): the four places people go most and More, each a full-height
// target of at least 44 x 44 px, above the home indicator (safe-area inset). Each takes a fifth of the width
// whatever the text size (a label that does not fit is cut with an ellipsis; its name stays whole for
// screen readers): with the browser's text at 200%, More stays on the screen.

type Props = {
  tabs: readonly Tab[];
  moreOpen: boolean;
  onMore: () => void;
  /** Permission requests waiting in the More sheet: More carries the count. */
  waiting?: number;
};

const tabClass =
  'flex min-h-14 w-full min-w-0 flex-1 flex-col items-center justify-center gap-0.5 rounded-control px-1 text-xs font-medium text-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-focus';

export function TabBar({ tabs, moreOpen, onMore, waiting = 0 }: Props) {
  return (
    <nav
      aria-label="Main"
      data-tab-bar
      data-testid="tab-bar"
      className="shrink-0 border-t border-border bg-surface pr-safe-right pb-safe-bottom pl-safe-left shadow-raised md:hidden"
    >
      <ul className="flex items-stretch justify-around px-1">
        {tabs.map((tab) => {
          const Icon = tab.icon;
          return (
            <li key={tab.to} className="flex min-w-0 flex-1">
              <Link
                to={tab.to}
                className={tabClass}
                activeProps={{ className: 'text-primary font-semibold', 'aria-current': 'page' }}
              >
                <Icon aria-hidden="true" className="h-6 w-6" />
                <span className="max-w-full truncate">{tab.label}</span>
              </Link>
            </li>
          );
        })}
        <li className="flex min-w-0 flex-1">
          <button
            type="button"
            className={tabClass}
            aria-haspopup="dialog"
            aria-describedby={waiting > 0 ? 'more-waiting-text' : undefined}
            aria-expanded={moreOpen}
            onClick={onMore}
          >
            <span className="relative">
              <Ellipsis aria-hidden="true" className="h-6 w-6" />
              {waiting > 0 ? (
                <span
                  aria-hidden="true"
                  data-testid="more-waiting"
                  className="absolute -top-1.5 -right-3 inline-flex min-w-5 items-center justify-center rounded-full bg-danger-strong px-1 text-xs font-semibold text-white"
                >
                  {waiting}
                </span>
              ) : null}
            </span>
            <span className="max-w-full truncate">More</span>
            {waiting > 0 ? (
              <span id="more-waiting-text" className="sr-only" aria-hidden="true">
                {waitingText(waiting)}
              </span>
            ) : null}
          </button>
        </li>
      </ul>
    </nav>
  );
}
