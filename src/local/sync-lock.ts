// One sync leader per device: pages in every tab and the service worker take the same Web Lock around a
// sync, so two of them never send the same queued change at once. Where Web Locks are missing (Node in
// tests, very old browsers) a lock in this JavaScript realm serialises at least this context's callers.

/** The lock of one person's sync (and of anything that must not overlap it, like forgetting their data). */
export function syncLockName(userId: string): string {
  return `kincare-sync:${userId}`;
}

const chains = new Map<string, Promise<unknown>>();

export async function withSyncLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.request) return locks.request(name, () => work()) as Promise<T>;
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.then(work, work);
  chains.set(
    name,
    run.catch(() => undefined),
  );
  return run;
}
