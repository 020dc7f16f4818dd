import { eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client';
import { records, uploads, users } from '../db/schema';
import { FILE_KINDS, type FileStorage } from '../plugins/storage';

// Files that nothing refers to any more, of every kind: attachments of deleted appointments, replaced
// attachments and photos, lab reports and prescriptions whose record was deleted, uploads whose change
// was refused or never sent, and files a crash left on disk between storing and committing.
//
// A file is in use while a live record (not a tombstone) holds its key in any field of its data, at any
// depth (appointments keep `attachment_key`; lab reports and prescriptions will keep theirs in their own
// fields), or while it is someone's profile photo (users.photo_key). Only files older than `before` are
// touched: a file uploaded just before the change that will refer to it (the sync engine uploads first)
// is safe, and so is a profile photo between its write and its commit.

/** The keys every live record and every profile refers to, found in one pass over each table. */
async function keysInUse(db: Database): Promise<Set<string>> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select distinct value #>> '{}' as key
        from ${records}, jsonb_path_query(${records.data}, 'strict $.** ? (@.type() == "string")') as value
        where ${records.deletedAt} is null
          and value #>> '{}' ~ '^(profile|lab|prescription|appointment)/([0-9a-f]{32}/)?[0-9a-f]{32}[.][a-z]{3,4}$'
        union
        select ${users.photoKey} from ${users} where ${users.photoKey} is not null`,
  );
  return new Set(rows.map((row) => row.key));
}

/**
 * Removes the files a committed change stopped referring to (a deleted lab report's file) at once, each
 * unless a live record or a profile still holds it; the daily sweep below is the backstop for the rest.
 */
export async function removeFilesIfUnused(
  db: Database,
  storage: FileStorage,
  keys: Iterable<string>,
): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    const [held] = await queryRows<{ held: boolean }>(
      db,
      sql`select exists (
            select 1 from ${records}
            where ${records.deletedAt} is null
              and jsonb_path_exists(${records.data}, 'strict $.** ? (@ == $key)', jsonb_build_object('key', ${key}::text))
          ) or exists (select 1 from ${users} where ${users.photoKey} = ${key}) as held`,
    );
    if (held?.held) continue;
    await storage.remove(key);
    await db.delete(uploads).where(eq(uploads.key, key));
    removed += 1;
  }
  return removed;
}

/**
 * Removes every stored file older than `before` that nothing refers to: those with an uploads row (the
 * row goes too) and those on disk with no row at all. Answers how many files were removed.
 */
export async function removeOrphanFiles(db: Database, storage: FileStorage, before: Date): Promise<number> {
  const inUse = await keysInUse(db);
  const oldUploads = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(sql`${uploads.createdAt} < ${before.toISOString()}`);
  const orphanRows = oldUploads.map((row) => row.key).filter((key) => !inUse.has(key));
  for (const key of orphanRows) {
    await storage.remove(key);
    await db.delete(uploads).where(eq(uploads.key, key));
  }

  // Files with no uploads row: profile photos saved by update-profile (kept while users.photo_key names
  // them), and leftovers of a crash. A file whose row is younger than `before` has a row, so it is kept.
  let leftovers = 0;
  for (const kind of FILE_KINDS) {
    const onDisk = (await storage.list(kind)).filter(
      (file) => file.modifiedAt < before && !inUse.has(file.key),
    );
    for (let start = 0; start < onDisk.length; start += 1000) {
      const batch = onDisk.slice(start, start + 1000).map((file) => file.key);
      const rows = await db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.key, batch));
      const withRow = new Set(rows.map((row) => row.key));
      for (const key of batch) {
        if (withRow.has(key)) continue;
        await storage.remove(key);
        leftovers += 1;
      }
    }
  }
  return orphanRows.length + leftovers;
}

/** The sweep's former name, for callers of the appointment-only version. */
export const removeOrphanAttachments = removeOrphanFiles;
