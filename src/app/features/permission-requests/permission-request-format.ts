import { DateTime } from 'luxon';
import { permissionRequestStatusOf, type PermissionRequestEntry } from '../../../domain/caregivers';

// How the Caregivers Permission List words its rows: pending rows can be answered,
// approved ones read 'Approved' and everything else 'Rejected'; the status is compared case-insensitively.

export type ShownStatus = 'pending' | 'approved' | 'rejected';

export function shownStatusOf(entry: Pick<PermissionRequestEntry, 'status'>): ShownStatus {
  const status = permissionRequestStatusOf(entry.status);
  return status === 'pending' || status === 'approved' ? status : 'rejected';
}

export const STATUS_TEXT: Record<ShownStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The Requested column: '3 Mar 2026 14:05' in this device's zone (empty for something not a date). */
export function requestedAt(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat('d MMM yyyy HH:mm') : '';
}
