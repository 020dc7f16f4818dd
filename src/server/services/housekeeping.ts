import type { FastifyInstance } from 'fastify';
import { TOMBSTONE_DAYS } from '../../domain/sync';
import { purgeTombstones } from './records';
import { purgeIdempotencyKeys } from './idempotency';
import { removeOrphanFiles } from './orphan-files';
import { purgeOldSessions } from './sessions';
import { dropEndedSnapshots } from './share-links';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Forgets tombstones and idempotent answers older than the horizon, sign-ins that ended or expired more
 * than 30 days ago and the snapshots of share links that ended, and removes files of every kind that
 * nothing has referred to for a day (see orphan-files).
 */
export async function runHousekeeping(
  app: FastifyInstance,
  now = Date.now(),
): Promise<{ purged: number; orphans: number; sessions: number }> {
  const before = new Date(now - TOMBSTONE_DAYS * DAY_MS);
  const purged = await purgeTombstones(app.db, before);
  await purgeIdempotencyKeys(app.db, before);
  const orphans = await removeOrphanFiles(app.db, app.storage, new Date(now - DAY_MS));
  const sessions = await purgeOldSessions(app.db, new Date(now));
  // A share link that expired or ran out of passcode tries keeps no copy of its summary.
  await dropEndedSnapshots(app.db, new Date(now));
  // The built-in test-mode payment provider ends trials and starts new periods, as Stripe does by itself.
  if (app.testBilling) await app.testBilling.advanceClock(new Date(now));
  return { purged, orphans, sessions };
}

/** Runs the housekeeping once at start and then daily. */
export function scheduleHousekeeping(app: FastifyInstance): void {
  const run = async () => {
    try {
      const { purged, orphans, sessions } = await runHousekeeping(app);
      if (purged > 0 || orphans > 0 || sessions > 0)
        app.log.info(
          { purged, orphans, sessions },
          'old tombstones, sign-ins and unreferenced files removed',
        );
    } catch (error) {
      app.log.error({ err: error }, 'housekeeping failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void run();
    timer = setInterval(() => void run(), DAY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
