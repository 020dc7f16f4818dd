import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { records, uploads } from '../db/schema';
import type { FileStorage } from '../plugins/storage';

/**
 * Removes appointment attachments that no live record refers to: those of deleted appointments,
 * replaced attachments, and uploads whose change was refused. Only files older than `before` are
 * touched, so a file uploaded just before the change that will reference it is safe.
 * (Lab and prescription files get the same sweep when those features land, by their own fields.)
 */
export async function removeOrphanAttachments(
  db: Database,
  storage: FileStorage,
  before: Date,
): Promise<number> {
  const orphans = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(
      and(
        eq(uploads.kind, 'appointment'),
        lt(uploads.createdAt, before),
        sql`not exists (select 1 from ${records} where ${records.deletedAt} is null and ${records.data}->>'attachment_key' = ${uploads.key})`,
      ),
    );
  for (const { key } of orphans) {
    await storage.remove(key);
    await db.delete(uploads).where(eq(uploads.key, key));
  }
  return orphans.length;
}
