import { useEffect } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { closeUserDb, openUserDb } from '../../local/db';
import { onSessionChange, readSession } from '../../local/session';
import { stopSync } from '../../local/sync-trigger';
import { useFailedChangeToasts } from './use-failed-change-toasts';
import { saySessionEnded } from './session-ended';
import { toastLater } from '../ui/toast-later';

/**
 * Keeps the signed-in user's replica in sync while the app is open, and says what the person must know:
 * changes merged with another device's, changes refused, a session that ended (the queue stays on the
 * device and goes out after the next sign-in), or a sign-out in another tab (this one follows). The sync
 * client starts once `drawn` (the first screen is on screen: ui/first-screen.ts).
 */
export function useReplicaSync(userId: string, drawn: boolean): void {
  const navigate = useNavigate();
  useFailedChangeToasts();
  useEffect(
    () =>
      onSessionChange((elsewhere) => {
        // Signed out (or in as someone else) in another tab, or ended by the service worker: this tab
        // follows. This tab's own sign-out and 401 handling navigate by themselves.
        const now = readSession();
        if (!elsewhere || now?.userId === userId) return;
        stopSync();
        closeUserDb(); // being deleted or emptied elsewhere
        if (now) void openUserDb(now.userId).then(() => navigate({ to: '/', replace: true }));
        else void navigate({ to: '/login', replace: true });
      }),
    [userId, navigate],
  );
  useEffect(() => {
    // The sync client (transport, axios, the engine) loads after the first screen, which reads the replica.
    if (!drawn) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retryDelayMs = 1000; // doubled before each wait: 2 s, 4 s, ... up to a minute
    // Offline before the service worker kept the app's files, its code cannot be fetched yet: it is asked
    // for again when the device is back online, so what was changed meanwhile is still sent. A fetch that
    // failed while online (a weak signal, or an online event that came while the failed fetch was still
    // under way, which the new import then joined) is asked for again after a wait that doubles, so a
    // change made meanwhile never waits for the next time the device goes offline and back.
    const start = () =>
      import('../../local/sync-client').then(({ startSync }) => {
        if (cancelled || stop) return;
        window.removeEventListener('online', retry);
        stop = startSync(userId, {
          onResult: (result) => {
            if (result.push.merged > 0) {
              toastLater((toast) =>
                toast('Your changes were combined with changes made on another device.', {
                  id: 'merged',
                  duration: 4000,
                }),
              );
            }
          },
          // A 401: the session is cleared and the person forgotten but for their unsent changes (local/session.ts).
          onSessionEnded: (ended) => {
            saySessionEnded(ended);
            void navigate({ to: '/', replace: true });
          },
        });
      });
    const retry = () => {
      clearTimeout(retryTimer);
      start().catch(() => {
        // Offline, the online event asks again.
        if (!cancelled && navigator.onLine)
          retryTimer = setTimeout(retry, (retryDelayMs = Math.min(retryDelayMs * 2, 60_000)));
      });
    };
    window.addEventListener('online', retry);
    retry();
    return () => {
      cancelled = true;
      clearTimeout(retryTimer);
      window.removeEventListener('online', retry);
      stop?.();
    };
  }, [userId, navigate, drawn]);
}
