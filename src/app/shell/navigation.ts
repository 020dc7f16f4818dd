import { CAREGIVER_PERMISSION_ROUTES, type Permission } from '../../domain/permissions';

// The sidebar entries of SPEC section 2, in its order and with its labels.

export type NavEntry = { to: string; label: string; icon: string };

export const PATIENT_NAV: readonly NavEntry[] = [
  { to: '/dashboard', label: 'Dashboard', icon: '🏠' },
  { to: '/doctors', label: 'Doctors', icon: '🩺' },
  { to: '/pharmacies', label: 'Pharmacies', icon: '💊' },
  { to: '/appointments', label: 'Appointments', icon: '📅' },
  { to: '/care-giver', label: 'Caregivers', icon: '🤝' },
  { to: '/prescriptions', label: 'Prescriptions', icon: '📋' },
  { to: '/lab-report', label: 'Lab Reports', icon: '🧪' },
  { to: '/medical-history', label: 'Medical History', icon: '📖' },
  { to: '/permission-request', label: 'Caregiver Permissions Request', icon: '🔐' },
  { to: '/subscription', label: 'Subscription', icon: '💳' },
  { to: '/profile', label: 'Profile', icon: '👤' },
];

export const CAREGIVER_NAV_ALWAYS: readonly NavEntry[] = [
  { to: '/caregiver/dashboard', label: 'Dashboard', icon: '🏠' },
  { to: '/caregiver/patients', label: 'Patients', icon: '👥' },
  { to: '/caregiver/profile', label: 'Profile', icon: '👤' },
  { to: '/caregiver/permission-request', label: 'Permission Requests', icon: '🔐' },
];

const ICONS: Record<string, string> = {
  '/caregiver/doctors': '🩺',
  '/caregiver/pharmacies': '💊',
  '/caregiver/lab-report': '🧪',
  '/caregiver/appointments': '📅',
  '/caregiver/prescriptions': '📋',
  '/caregiver/medical-history': '📖',
};

/** The caregiver submenu: only the entries whose Read permission the caregiver holds. */
export function caregiverSubmenu(held: readonly Permission[]): NavEntry[] {
  return CAREGIVER_PERMISSION_ROUTES.filter((route) => held.includes(route.permission)).map((route) => ({
    to: route.path,
    label: route.label,
    icon: ICONS[route.path] ?? '•',
  }));
}
