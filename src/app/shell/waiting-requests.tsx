import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../local/db';

// How many of their caregivers' permission requests wait for the patient's answer, from the device's copy
// (the care lists' sync keeps it): the menu marks the entry with it, so a request is not missed.

/** Where the patient answers permission requests. */
export const WAITING_REQUESTS_PATH = '/permission-request';

export function useWaitingPermissionRequests(enabled: boolean): number {
  return (
    useLiveQuery(async () => {
      if (!enabled || !hasUserDb()) return 0;
      const requests = await userDb().permissionRequests.toArray();
      return requests.filter((request) => request.status.trim().toLowerCase() === 'pending').length;
    }, [enabled]) ?? 0
  );
}

/** What a screen reader hears as the entry's description ('2 permission requests waiting'). */
export const waitingText = (count: number) =>
  count === 1 ? '1 permission request waiting' : `${count} permission requests waiting`;

/** The count on the entry, drawn for the eye (the words are in waitingText). */
export function WaitingBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="waiting-requests"
      className="ml-auto inline-flex min-w-6 shrink-0 items-center justify-center rounded-full bg-danger-strong px-1.5 text-small font-semibold text-white"
    >
      {count}
    </span>
  );
}
