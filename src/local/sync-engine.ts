import type { KincareDb } from './db';
import { refreshCare } from './care-sync';
import { push, type PushOutcome } from './sync-push';
import { pull, PullError } from './sync-pull';
import { withSyncLock } from './sync-lock';
import { LAST_SYNC_KEY } from './sync-trigger';
import { TransportError, type Transport } from './sync-transport';

// A sync cycle: under the device's sync lock, send what is queued, bring in what changed, and send
// again what arrived meanwhile. Pages, the service worker and the tests all sync through this.

export type SyncResult = {
  ok: boolean;
  push: PushOutcome;
  pulled: number;
  /**
   * Why the cycle did not finish: offline, the server failed, the session has ended, or the person has not
   * accepted the beta policy yet (their queued changes wait for it; what the server holds still comes in).
   */
  problem?: 'offline' | 'server' | 'signed-out' | 'retrying' | 'policy-not-accepted';
};

export async function syncOnce(
  db: KincareDb,
  transport: Transport,
  options: { lockName: string; force?: boolean; pullPage?: number },
): Promise<SyncResult> {
  return withSyncLock(options.lockName, async () => {
    const first = await push(db, transport, { force: options.force ?? false });
    if (first.stoppedBy === 'signed-out') return { ok: false, push: first, pulled: 0, problem: 'signed-out' };
    // Before the pull: the links it lists decide what the pull may bring, and the menus and permission
    // checks read them, so both follow a granted or withdrawn permission in the same cycle.
    if ((await refreshCare(db, transport)) === 'signed-out')
      return { ok: false, push: first, pulled: 0, problem: 'signed-out' };
    let pulled = 0;
    try {
      pulled = (await pull(db, transport, options.pullPage)).applied;
    } catch (error) {
      if (error instanceof TransportError) return { ok: false, push: first, pulled, problem: 'offline' };
      if (error instanceof PullError)
        return { ok: false, push: first, pulled, problem: error.status === 401 ? 'signed-out' : 'server' };
      throw error;
    }
    if (first.stoppedBy === 'policy-not-accepted') {
      await policyNotAccepted(db);
      return { ok: false, push: first, pulled, problem: 'policy-not-accepted' };
    }
    const second = await push(db, transport, { force: false });
    const outcome: PushOutcome = {
      sent: first.sent + second.sent,
      merged: first.merged + second.merged,
      rejected: [...first.rejected, ...second.rejected],
      stoppedBy: second.stoppedBy,
    };
    const problem =
      outcome.stoppedBy === 'signed-out' || outcome.stoppedBy === 'policy-not-accepted'
        ? outcome.stoppedBy
        : outcome.stoppedBy === 'retry-later' || first.stoppedBy === 'retry-later'
          ? 'retrying'
          : undefined;
    if (!problem) await db.syncState.put({ key: LAST_SYNC_KEY, value: Date.now() });
    return { ok: !problem, push: outcome, pulled, ...(problem ? { problem } : {}) };
  });
}

/**
 * The server says the person has not accepted the beta policy, while this device's copy of their profile
 * may say they have (an older app that did not ask, a policy accepted and then asked again): the copy is
 * corrected, so the app shows the policy, and the changes waiting for it are sent once it is accepted.
 */
async function policyNotAccepted(db: KincareDb): Promise<void> {
  await db.profile
    .filter((profile) => profile.beta_policy_accepted_at !== null)
    .modify({ beta_policy_accepted_at: null });
}
