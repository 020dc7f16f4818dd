import { useLiveQuery } from 'dexie-react-hooks';
import type { ActivityEntry, ApprovedRequest, SentRequest } from '../../../domain/caregivers';
import { hasUserDb, userDb } from '../../../local/db';

// Reads for /care-giver: the replica's copy of the patient's invitations, caregivers and their activity
// (refreshed by every sync cycle and after each call, see local/care-sync.ts). Never the network, so the
// page shows offline what the device last heard. undefined while the first read runs.

export function useSentRequests(): SentRequest[] | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return [];
    const rows = await userDb().careSent.toArray();
    return rows.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }, []);
}

export function useCaregivers(): ApprovedRequest[] | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return [];
    const rows = await userDb().careApproved.toArray();
    return rows.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  }, []);
}

export function useCareActivity(): ActivityEntry[] | undefined {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return [];
    return (await userDb().careActivity.orderBy('at').reverse().toArray()) satisfies ActivityEntry[];
  }, []);
}
