// The token's one home on the device (session.ts keeps the page's in-memory copy of it): the database
// `kincare-session`, store `session`, one row `current`. The service worker reads it here at send time,
// so a replayed request always carries the newest token. It is never in localStorage: a token there
// outlives a session that ended elsewhere and is readable by any script.
//
// Plain IndexedDB rather than Dexie: the sign-in page and the app's start read the session before anything
// else, and this keeps Dexie (30 kB) out of what they must load first. The layout is the one Dexie made
// when it kept this database (its version 1 is IndexedDB version 10, key path `id`), so a session stored by
// an earlier version of the app is read as it is.

/** Pages and the service worker say on this channel that the stored session changed (signed in or out). */
export const SESSION_CHANNEL = 'kincare-session';

const DB_NAME = 'kincare-session';
const DB_VERSION = 10;
const STORE = 'session';
const KEY = 'current';

type SessionCopy = { id: typeof KEY; userId: string; token: string };

function openStore(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE))
        request.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    request.onsuccess = () => {
      const db = request.result;
      // Logout deletes every kincare-* database: let it, rather than block it while this one is open.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('The session store could not be opened.'));
    request.onblocked = () => reject(new Error('The session store is blocked by another tab.'));
  });
}

/** Runs `work` in one transaction of the store and answers what it settles with once the transaction commits. */
async function inTransaction<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore, settle: (value: T) => void) => void,
): Promise<T> {
  const db = await openStore();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      let result: { value: T } | null = null;
      work(transaction.objectStore(STORE), (value) => (result = { value }));
      transaction.oncomplete = () =>
        result ? resolve(result.value) : reject(new Error('The session store answered nothing.'));
      transaction.onerror = () => reject(transaction.error ?? new Error('The session store failed.'));
      transaction.onabort = () => reject(transaction.error ?? new Error('The session store was aborted.'));
    });
  } finally {
    db.close();
  }
}

function isSessionCopy(value: unknown): value is SessionCopy {
  if (typeof value !== 'object' || value === null) return false;
  const { userId, token } = value as { userId?: unknown; token?: unknown };
  return typeof userId === 'string' && typeof token === 'string';
}

export function saveSessionCopy(userId: string, token: string): Promise<void> {
  return inTransaction<void>('readwrite', (store, settle) => {
    const copy: SessionCopy = { id: KEY, userId, token };
    store.put(copy).onsuccess = () => settle(undefined);
  });
}

export function readSessionCopy(): Promise<{ userId: string; token: string } | undefined> {
  return inTransaction<{ userId: string; token: string } | undefined>('readonly', (store, settle) => {
    const request = store.get(KEY);
    request.onsuccess = () => {
      const stored: unknown = request.result;
      settle(isSessionCopy(stored) ? { userId: stored.userId, token: stored.token } : undefined);
    };
  });
}

/**
 * Deletes the stored token; with `onlyToken`, only if it is still that one (a 401 for an old token must not
 * delete the token of a sign-in that happened meanwhile). Answers whether a token was deleted.
 */
export function deleteSessionCopy(onlyToken?: string): Promise<boolean> {
  return inTransaction<boolean>('readwrite', (store, settle) => {
    const request = store.get(KEY);
    request.onsuccess = () => {
      const stored: unknown = request.result;
      if (!isSessionCopy(stored) || (onlyToken !== undefined && stored.token !== onlyToken)) {
        settle(false);
        return;
      }
      store.delete(KEY).onsuccess = () => settle(true);
    };
  });
}
