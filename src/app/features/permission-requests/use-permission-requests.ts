import { useLiveQuery } from 'dexie-react-hooks';
import type { PermissionRequestEntry } from '../../../domain/caregivers';
import { hasUserDb, userDb } from '../../../local/db';
import { shownStatusOf } from './permission-request-format';

// The caregivers' permission requests from the replica (refreshed by every sync cycle and after each
// answer): waiting ones first, then the answered ones, newest first within each. undefined while loading.

export function usePermissionRequests(): PermissionRequestEntry[] | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return [];
    const rows = await userDb().permissionRequests.toArray();
    return rows.sort(
      (a, b) =>
        Number(shownStatusOf(b) === 'pending') - Number(shownStatusOf(a) === 'pending') ||
        b.requested_at.localeCompare(a.requested_at),
    );
  }, []);
}
