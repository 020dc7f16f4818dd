import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Migration tests run the migrations up to the one they test from a copy of the folder, add data the
// way an older Kincare held it, then run the rest.

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/server/db/migrations', import.meta.url));
const folders: string[] = [];

/** A copy of the migrations folder whose journal stops before `tag`. */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'kincare-migrations-'));
  folders.push(folder);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return folder;
}

/** Removes the copies (afterAll). */
export function removeMigrationCopies(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}
