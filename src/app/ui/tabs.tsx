import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

// Tabs of the WAI-ARIA pattern (tablist, tab, tabpanel; arrows, Home and End move between tabs and select,
// only the selected tab is in the tab order). Small and ours: the sign-in page loads it on its first paint,
// where a general-purpose component library cost more than the page itself.

type TabsProps = {
  /** The tab names, in order. */
  labels: readonly string[];
  selected: number;
  onSelect: (index: number) => void;
  /** The selected tab's panel; the others are not rendered. */
  children: ReactNode;
};

const tabClass = (selected: boolean) =>
  `min-h-11 flex-1 rounded-md px-4 py-2 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${
    selected ? 'bg-white text-brand-900 shadow' : 'text-slate-700 hover:text-slate-900'
  }`;

export function Tabs({ labels, selected, onSelect, children }: TabsProps) {
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (index: number) => {
    const next = (index + labels.length) % labels.length;
    onSelect(next);
    tabs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowRight: selected + 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: labels.length - 1,
    };
    const target = keys[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };
  return (
    <div>
      <div role="tablist" className="mb-6 flex gap-1 rounded-lg bg-slate-100 p-1" onKeyDown={onKeyDown}>
        {labels.map((label, index) => (
          <button
            key={label}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === selected}
            aria-controls={`${id}-panel`}
            tabIndex={index === selected ? 0 : -1}
            className={tabClass(index === selected)}
            onClick={() => onSelect(index)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`}>
        {children}
      </div>
    </div>
  );
}
