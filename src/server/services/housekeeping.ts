import type { FastifyInstance } from 'fastify';
import { TOMBSTONE_DAYS } from '../../domain/sync';
import { purgeTombstones } from './records';
import { purgeIdempotencyKeys } from './idempotency';
import { removeOrphanAttachments } from './orphan-files';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Once at start and daily: forget tombstones and idempotent answers older than the horizon, and unreferenced files. */
export function scheduleHousekeeping(app: FastifyInstance): void {
  const run = async () => {
    try {
      const before = new Date(Date.now() - TOMBSTONE_DAYS * DAY_MS);
      const purged = await purgeTombstones(app.db, before);
      await purgeIdempotencyKeys(app.db, before);
      const orphans = await removeOrphanAttachments(app.db, app.storage, new Date(Date.now() - DAY_MS));
      if (purged > 0 || orphans > 0)
        app.log.info({ purged, orphans }, 'old tombstones and unreferenced files removed');
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
