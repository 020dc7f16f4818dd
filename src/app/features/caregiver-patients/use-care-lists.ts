import { useLiveQuery } from 'dexie-react-hooks';
import type { ApprovedRequest, ReceivedRequest } from '../../../domain/caregivers';
import { hasUserDb, userDb } from '../../../local/db';

// The caregiver's invitations and links as the replica holds them (care-sync.ts refreshes them on every
// sync cycle and after each answer), newest first; undefined while the replica is read.

export function useReceivedRequests(): ReceivedRequest[] | undefined {
  return useLiveQuery(
    async () =>
      hasUserDb()
        ? (await userDb().careReceived.toArray()).sort((a, b) => b.created_at.localeCompare(a.created_at))
        : [],
    [],
  );
}

export function useApprovedLinks(): ApprovedRequest[] | undefined {
  return useLiveQuery(async () => (hasUserDb() ? userDb().careApproved.toArray() : []), []);
}
