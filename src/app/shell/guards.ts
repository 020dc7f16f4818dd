import { redirect } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { STORAGE_KEYS } from '../../domain/storage-keys';
import { readSession, type Session } from '../../local/session';

// The access rules of src/app/README.md, used by the routes' beforeLoad.

export function homeFor(
  role: Role | undefined,
): '/login' | '/dashboard' | '/caregiver/dashboard' | '/unauthorized' {
  if (!role) return '/login';
  if (role === 'Patient') return '/dashboard';
  if (role === 'Caregiver') return '/caregiver/dashboard';
  return '/unauthorized'; // Admin and Doctor have no menu
}

/** No stored token: every signed-in path goes to /login. */
export function requireSession(): Session {
  const session = readSession();
  if (!session) throw redirect({ to: '/login', replace: true });
  return session;
}

/** A route of one role: anyone else is sent to /unauthorized. */
export function requireRole(role: Role): Session {
  const session = requireSession();
  if (session.role !== role) throw redirect({ to: '/unauthorized', replace: true });
  return session;
}

/** A caregiver route that needs a Read permission on the selected patient. */
export async function requireCaregiverPermission(path: string): Promise<void> {
  requireRole('Caregiver');
  // The permission table and the replica load on the way into a caregiver screen, not with the route
  // table: the sign-in page needs neither.
  const { requiredPermissionFor } = await import('../../domain/permissions');
  const permission = requiredPermissionFor(path);
  if (!permission) return;
  const selected = localStorage.getItem(STORAGE_KEYS.selectedPatientId);
  const { hasUserDb, userDb } = await import('../../local/db');
  const link = selected && hasUserDb() ? await userDb().associatedPatients.get(selected) : undefined;
  if (!link?.permissions.includes(permission)) throw redirect({ to: '/unauthorized', replace: true });
}
