import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../local/db';
import { toastLater } from '../ui/toast-later';

/**
 * Tells the person once about each change the server refused, whoever sent it: this page, another tab,
 * or the service worker syncing in the background (then they hear of it when the app is next open).
 * The toast names the record; the sync status keeps the reason and what they had typed. A change sent
 * again (Try again) carries a new idempotency key: refused once more, it is told once more.
 */
export function useFailedChangeToasts(): void {
  const failed = useLiveQuery(
    async () => (hasUserDb() ? userDb().outbox.where('status').equals('failed').toArray() : []),
    [],
  );
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const entry of failed ?? []) {
      const refusal = `${entry.seq}:${entry.idempotencyKey}`;
      if (entry.seq === undefined || told.current.has(refusal)) continue;
      told.current.add(refusal);
      // How a change is named loads with the toast: most sessions never see one.
      void import('./refused-changes').then(({ describeChange }) =>
        toastLater((toast) =>
          toast.error(
            `${describeChange(entry)} could not be saved: ${entry.error ?? 'the server refused it.'} See the sync status for what you entered.`,
            { id: `failed-${refusal}`, duration: 5000 },
          ),
        ),
      );
    }
  }, [failed]);
}
