import { useOnline } from '../ui/use-online';

// What the header shows in the sync status's place for the moment its code loads (layout.tsx): the same
// look and the same word, not yet a button (the popover and its library arrive right after the first
// screen, whose JavaScript has a budget, tests/build/budget.mjs). Nothing here can be tapped in vain.
export function SyncStatusPlaceholder() {
  const online = useOnline();
  return (
    <span
      className={`flex min-h-11 items-center gap-1.5 rounded-full px-3 text-small font-semibold ring-1 ring-inset ${
        online
          ? 'bg-success-soft text-success-strong ring-success/30'
          : 'bg-warning-soft text-warning-strong ring-warning/30'
      }`}
    >
      <span aria-hidden="true">{online ? '●' : '○'}</span>
      {online ? 'Online' : 'Offline'}
    </span>
  );
}
