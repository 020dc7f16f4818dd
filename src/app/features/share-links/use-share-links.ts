import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SavedShareLink } from '../../../domain/share-links';
import { hasUserDb, userDb } from '../../../local/db';
import { refreshShareLinks } from '../../../local/share-links';
import { useOnline } from '../../ui/use-online';

// The patient's share links as this device last saw them (table shareLinks), newest first, asked again from
// the server when the screen opens online and when the connection comes back, so a doctor's opening of a
// link shows without waiting. Offline the saved list shows, and `fresh` says it may be behind.

export function useShareLinks(): { links: SavedShareLink[] | undefined; fresh: boolean } {
  const online = useOnline();
  const [refreshed, setRefreshed] = useState(false);
  const links = useLiveQuery(
    async () =>
      hasUserDb()
        ? (await userDb().shareLinks.toArray()).sort((a, b) => b.created_at.localeCompare(a.created_at))
        : [],
    [],
  );
  useEffect(() => {
    if (!online || !hasUserDb()) return;
    let current = true;
    refreshShareLinks(userDb())
      .then(() => current && setRefreshed(true))
      .catch(() => current && setRefreshed(false));
    return () => {
      current = false;
    };
  }, [online]);
  return { links, fresh: online && refreshed };
}
