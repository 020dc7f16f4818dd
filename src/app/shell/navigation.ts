import type { LucideIcon } from 'lucide-react';
import {
  Activity,
  BookOpen,
  CalendarDays,
  ClipboardList,
  CreditCard,
  FlaskConical,
  HeartHandshake,
  House,
  KeyRound,
  Pill,
  Stethoscope,
  Store,
  UserRound,
  UsersRound,
} from 'lucide-react';
import { CAREGIVER_PERMISSION_ROUTES, type Permission } from '../../domain/permissions';
import type { ResourceDeclaration } from '../../domain/resources/declare';
import { RESOURCES } from '../../domain/resources/list';

// The menus' entries (src/app/README.md), in their order and with their labels, and how a phone splits
// them into the bottom tab bar (four destinations and More) and the More sheet (everything else, in the
// same order).

export type NavEntry = { to: string; label: string; icon: LucideIcon };

/** The icons a resource's declared screen may name (src/domain/resources: `screen.icon`). */
const DECLARED_ICONS: Record<NonNullable<ResourceDeclaration['screen']>['icon'], LucideIcon> = {
  activity: Activity,
};

/** Screens of resources added after the first menus: from their declarations, after Medical History. */
const DECLARED_SCREENS = RESOURCES.flatMap((resource) => ('screen' in resource ? [resource.screen] : []));

export const PATIENT_NAV: readonly NavEntry[] = [
  { to: '/dashboard', label: 'Dashboard', icon: House },
  { to: '/doctors', label: 'Doctors', icon: Stethoscope },
  { to: '/pharmacies', label: 'Pharmacies', icon: Store },
  { to: '/appointments', label: 'Appointments', icon: CalendarDays },
  { to: '/care-giver', label: 'Caregivers', icon: HeartHandshake },
  { to: '/prescriptions', label: 'Prescriptions', icon: Pill },
  { to: '/lab-report', label: 'Lab Reports', icon: FlaskConical },
  { to: '/medical-history', label: 'Medical History', icon: BookOpen },
  ...DECLARED_SCREENS.map((screen) => ({
    to: screen.path,
    label: screen.label,
    icon: DECLARED_ICONS[screen.icon],
  })),
  { to: '/permission-request', label: 'Caregiver Permissions Request', icon: KeyRound },
  { to: '/subscription', label: 'Subscription', icon: CreditCard },
  { to: '/profile', label: 'Profile', icon: UserRound },
];

export const CAREGIVER_NAV_ALWAYS: readonly NavEntry[] = [
  { to: '/caregiver/dashboard', label: 'Dashboard', icon: House },
  { to: '/caregiver/patients', label: 'Patients', icon: UsersRound },
  { to: '/caregiver/profile', label: 'Profile', icon: UserRound },
  { to: '/caregiver/permission-request', label: 'Permission Requests', icon: KeyRound },
];

const ICONS: Record<string, LucideIcon> = {
  '/caregiver/doctors': Stethoscope,
  '/caregiver/pharmacies': Store,
  '/caregiver/lab-report': FlaskConical,
  '/caregiver/appointments': CalendarDays,
  '/caregiver/prescriptions': Pill,
  '/caregiver/medical-history': BookOpen,
  ...Object.fromEntries(
    DECLARED_SCREENS.map((screen) => [screen.caregiverPath, DECLARED_ICONS[screen.icon]]),
  ),
};

/** The caregiver submenu: only the entries whose Read permission the caregiver holds. */
export function caregiverSubmenu(held: readonly Permission[]): NavEntry[] {
  return CAREGIVER_PERMISSION_ROUTES.filter((route) => held.includes(route.permission)).map((route) => ({
    to: route.path,
    label: route.label,
    icon: ICONS[route.path] ?? ClipboardList,
  }));
}

/**
 * The caregiver's whole menu in order: Dashboard, Patients, the permitted submenu, Profile, Permission
 * Requests.
 */
export function caregiverNav(held: readonly Permission[]): NavEntry[] {
  const [dashboard, patients, ...rest] = CAREGIVER_NAV_ALWAYS;
  return [
    ...(dashboard ? [dashboard] : []),
    ...(patients ? [patients] : []),
    ...caregiverSubmenu(held),
    ...rest,
  ];
}

// The phone's tab bar: the four places people go most, under short names; a caregiver's tab shows only when
// its submenu entry would (each needs its Read permission).
export type Tab = { to: string; label: string; icon: LucideIcon };

const TAB_OF: Record<string, { label: string; order: number }> = {
  '/dashboard': { label: 'Home', order: 0 },
  '/prescriptions': { label: 'Medicines', order: 1 },
  '/appointments': { label: 'Appointments', order: 2 },
  '/lab-report': { label: 'Reports', order: 3 },
};

function tabKey(path: string): string {
  return path.replace(/^\/caregiver/, '');
}

export type PhoneNav = { tabs: Tab[]; more: NavEntry[] };

/** Splits a role's menu (already in order) into the tab bar and the More sheet, keeping that order. */
export function splitForPhone(menu: readonly NavEntry[]): PhoneNav {
  const tabs: (Tab & { order: number })[] = [];
  const more: NavEntry[] = [];
  for (const entry of menu) {
    const tab = TAB_OF[tabKey(entry.to)];
    if (tab) tabs.push({ to: entry.to, label: tab.label, icon: entry.icon, order: tab.order });
    else more.push(entry);
  }
  tabs.sort((a, b) => a.order - b.order);
  return { tabs: tabs.map(({ order: _order, ...tab }) => tab), more };
}
