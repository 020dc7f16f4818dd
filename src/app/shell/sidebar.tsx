import { Suspense } from 'react';
import { lazyPart } from '../ui/lazy-part';
import { Link } from '@tanstack/react-router';
import { Ban, HeartPulse, LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import type { Role } from '../../domain/roles';
import { CAREGIVER_NAV_ALWAYS, PATIENT_NAV, caregiverSubmenu, type NavEntry } from './navigation';
import { useCaregiverPermissions } from './use-caregiver-permissions';
import { useScreenDrawn } from '../ui/first-screen';
import {
  useWaitingPermissionRequests,
  WaitingBadge,
  WAITING_REQUESTS_PATH,
  waitingText,
} from './waiting-requests';

// Offered only where the browser can install: loaded after the first paint (the budget of
// tests/build/budget.mjs), as nothing on the first screen waits for it.
const InstallButton = lazyPart<{ className?: string }>(() =>
  import('./install-button').then((module) => module.InstallButton),
);

// The role's sidebar (src/app/README.md) from 768 px: 250 px wide, 80 px collapsed, a 300 ms transition, and
// Logout. Below 768 px the tab bar and the More sheet take its place (layout.tsx).

type Props = { role: Role; collapsed: boolean; onToggle: () => void; onLogout: () => void };

const itemClass =
  'flex min-h-11 items-center gap-3 rounded-control px-3 py-2 text-base text-nav-text hover:bg-nav-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-nav-text';

export function Sidebar({ role, collapsed, onToggle, onLogout }: Props) {
  const drawn = useScreenDrawn();
  const waiting = useWaitingPermissionRequests(role === 'Patient');
  return (
    <nav
      aria-label="Main"
      className={`hidden h-full shrink-0 flex-col bg-nav pl-safe-left text-nav-text transition-[width] duration-300 ease-in-out md:flex ${
        collapsed ? 'w-sidebar-collapsed' : 'w-sidebar'
      }`}
      data-testid="sidebar"
      data-collapsed={collapsed}
    >
      <div
        className={`flex items-center px-3 pt-[calc(0.75rem+env(safe-area-inset-top))] pb-3 ${
          collapsed ? 'justify-center' : 'justify-between'
        }`}
      >
        {!collapsed ? (
          <span className="flex items-center gap-2 text-xl font-bold">
            <HeartPulse aria-hidden="true" className="h-6 w-6" />
            Kincare
          </span>
        ) : null}
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className="inline-flex h-11 w-11 items-center justify-center rounded-control hover:bg-nav-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-nav-text"
        >
          {collapsed ? (
            <PanelLeftOpen aria-hidden="true" className="h-5 w-5" />
          ) : (
            <PanelLeftClose aria-hidden="true" className="h-5 w-5" />
          )}
        </button>
      </div>
      <ul className="flex-1 space-y-1 overflow-x-hidden overflow-y-auto px-2">
        {role === 'Patient'
          ? PATIENT_NAV.map((entry) => (
              <NavItem
                key={entry.to}
                entry={entry}
                collapsed={collapsed}
                waiting={entry.to === WAITING_REQUESTS_PATH ? waiting : 0}
              />
            ))
          : null}
        {role === 'Caregiver' ? <CaregiverEntries collapsed={collapsed} /> : null}
      </ul>
      <div className="space-y-1 px-2 pt-2 pb-[calc(1rem+env(safe-area-inset-bottom))]">
        {collapsed || !drawn ? null : (
          <Suspense fallback={null}>
            <InstallButton className="text-nav-text hover:bg-nav-hover" />
          </Suspense>
        )}
        <button type="button" onClick={onLogout} className={`${itemClass} w-full text-left`}>
          <LogOut aria-hidden="true" className="h-5 w-5 shrink-0" />
          <span className={collapsed ? 'sr-only' : ''}>Logout</span>
        </button>
      </div>
    </nav>
  );
}

function CaregiverEntries({ collapsed }: { collapsed: boolean }) {
  const held = useCaregiverPermissions();
  const submenu = caregiverSubmenu(held);
  const [dashboard, patients, ...rest] = CAREGIVER_NAV_ALWAYS;
  return (
    <>
      {[dashboard, patients].map((entry) =>
        entry ? <NavItem key={entry.to} entry={entry} collapsed={collapsed} /> : null,
      )}
      <li>
        <span
          className={`block px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-nav-muted uppercase ${collapsed ? 'sr-only' : ''}`}
        >
          Patient records
        </span>
        <ul className="space-y-1">
          {submenu.length > 0 ? (
            submenu.map((entry) => <NavItem key={entry.to} entry={entry} collapsed={collapsed} />)
          ) : (
            <li>
              <span
                aria-disabled="true"
                className="flex min-h-11 items-center gap-3 px-3 py-2 text-nav-muted"
              >
                <Ban aria-hidden="true" className="h-5 w-5 shrink-0" />
                <span className={collapsed ? 'sr-only' : ''}>No caregiver permissions</span>
              </span>
            </li>
          )}
        </ul>
      </li>
      {rest.map((entry) => (
        <NavItem key={entry.to} entry={entry} collapsed={collapsed} />
      ))}
    </>
  );
}

function NavItem({
  entry,
  collapsed,
  waiting = 0,
}: {
  entry: NavEntry;
  collapsed: boolean;
  /** Requests waiting for an answer on this entry's screen. */
  waiting?: number;
}) {
  const Icon = entry.icon;
  return (
    <li>
      <Link
        to={entry.to}
        title={collapsed ? entry.label : undefined}
        aria-describedby={waiting > 0 ? 'sidebar-waiting-text' : undefined}
        className={`${itemClass} ${collapsed ? 'justify-center' : ''}`}
        activeProps={{ className: 'bg-nav-active font-semibold', 'aria-current': 'page' }}
      >
        <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
        <span className={collapsed ? 'sr-only' : 'min-w-0'}>{entry.label}</span>
        {collapsed ? null : <WaitingBadge count={waiting} />}
        {waiting > 0 ? (
          <span id="sidebar-waiting-text" className="sr-only" aria-hidden="true">
            {waitingText(waiting)}
          </span>
        ) : null}
      </Link>
    </li>
  );
}
