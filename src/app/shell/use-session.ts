import { useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { onSessionChange, readSession, type Session } from '../../local/session';
import { hasUserDb, userDb } from '../../local/db';
import type { Profile } from '../../domain/auth';

const subscribe = (listener: () => void) => onSessionChange(() => listener());

/** The signed-in session, re-rendering when it changes (readSession answers the same object until then). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, readSession);
}

/**
 * The signed-in user's profile from the local table (no network wait): undefined while it is first read,
 * null when this device has none.
 */
export function useProfile(): Profile | null | undefined {
  const session = useSession();
  return useLiveQuery(
    async () => (session && hasUserDb() ? ((await userDb().profile.get(session.userId)) ?? null) : null),
    [session?.userId],
  );
}
