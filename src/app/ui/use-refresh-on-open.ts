import { useEffect } from 'react';
import { refreshCareNow } from '../../local/care-requests';
import { useOnline } from './use-online';

/**
 * Asks the server for the care lists when the page opens (and when the connection comes back), so a
 * caregiver who answered a minute ago shows now rather than at the next sync cycle. The page still reads
 * only the replica: this refreshes it, and offline it does nothing.
 */
export function useRefreshOnOpen(): void {
  const online = useOnline();
  useEffect(() => {
    // A failure keeps what the device had; the sync cycle tries again.
    if (online) refreshCareNow().catch(() => undefined);
  }, [online]);
}
