import { mkdirSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deriveKey, keyedHash, safeEqualText } from '../services/signing';
import {
  contentTypeOfKey,
  DEFAULT_LINK_TTL_SECONDS,
  FILE_KINDS,
  isValidFileKey,
  newFileKey,
  type FileStorage,
} from './file-keys';

// The default file store: local disk under DATA_DIR/files/<kind>/<random id>.<ext> (the one-machine
// default: src/README.md). Files are never served by a public path: links are HMAC-signed and expire
// (GET /api/files/<key>?expires&signature, served by plugins/storage.ts, which checks them with verifyLink).

export const FILE_ROUTE_PREFIX = '/api/files/';

export type DiskStorage = FileStorage & {
  verifyLink: (key: string, expires: string | undefined, signature: string | undefined) => boolean;
};

function linkPayload(key: string, expires: number): string {
  return `${key}\n${expires}`;
}

export function createDiskStorage(dataDir: string, secret: string): DiskStorage {
  const root = join(dataDir, 'files');
  for (const kind of FILE_KINDS) mkdirSync(join(root, kind), { recursive: true });
  const linkKey = deriveKey(secret, 'file-links');
  const pathOf = (key: string) => join(root, key);

  return {
    async put(kind, bytes, contentType, owner) {
      const key = newFileKey(kind, contentType, owner);
      await mkdir(dirname(pathOf(key)), { recursive: true });
      await writeFile(pathOf(key), bytes, { flag: 'wx', mode: 0o600 });
      return { key };
    },
    async read(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return null;
      try {
        return { bytes: await readFile(pathOf(key)), contentType };
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
    },
    async signedUrl(key, ttlSeconds = DEFAULT_LINK_TTL_SECONDS) {
      if (!isValidFileKey(key)) throw new Error(`not a file key: ${key}`);
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      const signature = keyedHash(linkKey, linkPayload(key, expires));
      return `${FILE_ROUTE_PREFIX}${key}?expires=${expires}&signature=${signature}`;
    },
    async remove(key) {
      if (!isValidFileKey(key)) return;
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isMissingFile(error)) throw error;
      }
    },
    async list(kind) {
      const inFolder = (folder: string) =>
        readdir(join(root, folder), { withFileTypes: true }).catch((error: unknown) => {
          if (isMissingFile(error)) return [];
          throw error;
        });
      // The kind's folder holds the owners' folders (and files written before files had owners).
      const names: string[] = [];
      for (const entry of await inFolder(kind)) {
        if (!entry.isDirectory()) names.push(entry.name);
        else if (/^[0-9a-f]{32}$/.test(entry.name))
          for (const inner of await inFolder(`${kind}/${entry.name}`))
            names.push(`${entry.name}/${inner.name}`);
      }
      const files: { key: string; modifiedAt: Date }[] = [];
      for (const name of names) {
        const key = `${kind}/${name}`;
        if (!isValidFileKey(key)) continue; // a temporary or foreign file: not ours to judge
        try {
          files.push({ key, modifiedAt: (await stat(pathOf(key))).mtime });
        } catch (error) {
          if (!isMissingFile(error)) throw error;
        }
      }
      return files;
    },
    verifyLink(key, expires, signature) {
      if (!isValidFileKey(key) || !expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) < Date.now() / 1000) return false;
      return safeEqualText(keyedHash(linkKey, linkPayload(key, Number(expires))), signature);
    },
  };
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
