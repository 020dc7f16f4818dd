import { Link } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { CAREGIVER_NAV_ALWAYS, PATIENT_NAV, caregiverSubmenu, type NavEntry } from './navigation';
import { useCaregiverPermissions } from './use-caregiver-permissions';

// The role's sidebar (SPEC section 2): 250 px wide, 80 px collapsed, a 300 ms transition, and Logout.

type Props = { role: Role; collapsed: boolean; onToggle: () => void; onLogout: () => void };

export function Sidebar({ role, collapsed, onToggle, onLogout }: Props) {
  return (
    <nav
      aria-label="Main"
      className={`flex h-full shrink-0 flex-col bg-brand-900 text-white transition-[width] duration-300 ease-in-out ${
        collapsed ? 'w-sidebar-collapsed' : 'w-sidebar'
      }`}
      style={{ width: collapsed ? 80 : 250 }}
      data-collapsed={collapsed}
    >
      <div className="flex items-center justify-between px-4 py-4">
        {!collapsed ? <span className="text-xl font-bold">Kincare</span> : null}
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className="rounded p-2 hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
        </button>
      </div>
      <ul className="flex-1 space-y-1 overflow-y-auto px-2">
        {role === 'Patient'
          ? PATIENT_NAV.map((entry) => <NavItem key={entry.to} entry={entry} collapsed={collapsed} />)
          : null}
        {role === 'Caregiver' ? <CaregiverEntries collapsed={collapsed} /> : null}
      </ul>
      <div className="px-2 pb-4">
        <button
          type="button"
          onClick={onLogout}
          className="flex w-full items-center gap-3 rounded px-3 py-2 text-left hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <span aria-hidden="true">⏻</span>
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
          className={`block px-3 pt-3 text-xs font-semibold uppercase tracking-wide text-brand-100 ${collapsed ? 'sr-only' : ''}`}
        >
          Patient records
        </span>
        <ul className="space-y-1">
          {submenu.length > 0 ? (
            submenu.map((entry) => <NavItem key={entry.to} entry={entry} collapsed={collapsed} />)
          ) : (
            <li>
              <span aria-disabled="true" className="flex items-center gap-3 px-3 py-2 text-brand-100">
                <span aria-hidden="true">🚫</span>
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

function NavItem({ entry, collapsed }: { entry: NavEntry; collapsed: boolean }) {
  return (
    <li>
      <Link
        to={entry.to}
        title={collapsed ? entry.label : undefined}
        className="flex items-center gap-3 rounded px-3 py-2 hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        activeProps={{ className: 'bg-brand-700 font-semibold', 'aria-current': 'page' }}
      >
        <span aria-hidden="true">{entry.icon}</span>
        <span className={collapsed ? 'sr-only' : ''}>{entry.label}</span>
      </Link>
    </li>
  );
}
