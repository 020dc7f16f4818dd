import { DB_PREFIX, deleteDataCaches, forgetUserData, KincareDb } from './db';
import { deleteSessionCopy, readSessionCopy, SESSION_CHANNEL } from './session-store';
import { createTransport, ownersToken } from './sync-transport';
import { syncOnce } from './sync-engine';
import { syncLockName, withSyncLock } from './sync-lock';

// The service worker's sync (sw/sw.ts answers `sync`, `periodicsync` and a reminder's Taken with it), kept
// here so that it is tested without a service worker: it sends and pulls for the person whose session is
// stored, and when that session has ended (401) it forgets them as a page would.

type Adapter = Parameters<typeof createTransport>[0]['adapter'];

/**
 * One sync of the stored session's replica, with no page needed. Throws when it did not finish (offline,
 * the server failed): failing the event makes the browser fire `sync` again later, with its own backoff.
 */
export async function syncStoredSession(options: { adapter?: Adapter } = {}): Promise<void> {
  const session = await readSessionCopy();
  if (!session) return; // signed out: nothing of anyone's to send
  const db = new KincareDb(`${DB_PREFIX}${session.userId}`);
  let sentToken: string | null = null;
  let ok = false;
  let problem: string | undefined;
  try {
    await db.open();
    const transport = createTransport({
      baseURL: '/api',
      ...(options.adapter ? { adapter: options.adapter } : {}),
      // Read at each request: a page may sign someone else in meanwhile, and their token is not for this queue.
      getToken: async () => (sentToken = ownersToken(session.userId, await readSessionCopy())),
    });
    const result = await syncOnce(db, transport, { lockName: syncLockName(session.userId), force: true });
    ok = result.ok;
    problem = result.problem;
  } finally {
    db.close();
  }
  if (problem === 'signed-out') {
    if (sentToken) await forgetEndedSession(session.userId, sentToken);
    return;
  }
  if (!ok) throw new Error(`sync incomplete: ${problem ?? 'unknown'}`);
}

/**
 * The session ended (401) while no page was open: the device forgets the person now, as the page would
 * (only their unsent changes stay), unless a page signed in again meanwhile with a newer token. Open pages
 * are told, and follow.
 */
async function forgetEndedSession(userId: string, token: string): Promise<void> {
  if (!(await deleteSessionCopy(token))) return;
  await withSyncLock(syncLockName(userId), () => forgetUserData(userId));
  await deleteDataCaches();
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}
