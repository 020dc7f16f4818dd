import { useEffect } from 'react';
import { useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import { UNAUTHORIZED_TOAST } from '../../domain/errors';
import { STORAGE_KEYS } from '../../domain/storage-keys';
import { closeUserDb } from '../../local/db';
import { clearSession } from '../../local/session';
import { startSync, stopSync } from '../../local/sync-client';
import { useFailedChangeToasts } from './use-failed-change-toasts';

/**
 * Keeps the signed-in user's replica in sync while the app is open, and says what the person must know:
 * changes merged with another device's, changes refused, a session that ended (the queue stays on the
 * device and goes out after the next sign-in), or a sign-out in another tab (this one follows).
 */
export function useReplicaSync(userId: string): void {
  const navigate = useNavigate();
  useFailedChangeToasts();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.token && event.newValue === null) {
        stopSync();
        closeUserDb(); // being deleted by the other tab
        void navigate({ to: '/login', replace: true });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [navigate]);
  useEffect(
    () =>
      startSync(userId, {
        onResult: (result) => {
          if (result.push.merged > 0) {
            toast('Your changes were combined with changes made on another device.', {
              id: 'merged',
              duration: 4000,
            });
          }
          if (result.problem === 'signed-out') {
            clearSession();
            toast.error(UNAUTHORIZED_TOAST, { id: 'unauthorized' });
            void navigate({ to: '/', replace: true });
          }
        },
      }),
    [userId, navigate],
  );
}
