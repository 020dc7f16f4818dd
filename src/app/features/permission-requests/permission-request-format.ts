import { formatDateTime } from '../../../domain/date-display';
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

/** The Requested column: the app's date and time in this device's zone (empty for something not a date). */
export const requestedAt = (iso: string): string => formatDateTime(iso);
