import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErrorBody } from '../../domain/errors';
import { DETECTABLE_FILE_TYPES, type DetectedFileType } from '../services/file-type';
import { deriveKey, keyedHash, safeEqualText } from '../services/signing';

// The file store: uploaded profile photos, lab reports, prescription images and appointment letters, kept on local disk
// under DATA_DIR/files/<kind>/<random id>.<ext> (the one-machine default of ARCHITECTURE.md; an S3
// store can replace it behind the same four methods). The content type lives in the key's extension,
// so a key alone says what it is and no sidecar can drift from its file. Files are never served by
// a public path: callers hand out HMAC-signed links that expire (GET /api/files/<key>?expires&signature).
// A served file can never act as a page of this site: it comes with a CSP of `default-src 'none'; sandbox`
// (a PDF or an image with scripts in it runs nothing, reaches nothing, and has no origin to read
// cookies or storage from), and only images, which the app shows, are `inline`; anything else is a
// download (`attachment`).

export const FILE_KINDS = ['profile', 'lab', 'prescription', 'appointment'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export type StoredContentType = DetectedFileType;

export type FileStorage = {
  put: (kind: FileKind, bytes: Buffer, contentType: StoredContentType) => Promise<{ key: string }>;
  read: (key: string) => Promise<{ bytes: Buffer; contentType: StoredContentType } | null>;
  /** A relative link (`/api/files/...`) that serves the file until `ttlSeconds` from now. */
  signedUrl: (key: string, ttlSeconds?: number) => string;
  remove: (key: string) => Promise<void>;
  /** Every stored file of a kind with when it was last written (the orphan sweep looks for leftovers). */
  list: (kind: FileKind) => Promise<{ key: string; modifiedAt: Date }[]>;
};

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

export const DEFAULT_LINK_TTL_SECONDS = 900;
export const FILE_LINK_INVALID = 'This link is invalid or has expired.';
export const FILE_GONE = 'This file no longer exists.';
const FILE_ROUTE_PREFIX = '/api/files/';
export const STORED_FILE_CSP = "default-src 'none'; sandbox";
/** What the app shows in the page; everything else is handed to the browser as a download. */
const INLINE_TYPES: ReadonlySet<StoredContentType> = new Set(['image/png', 'image/jpeg', 'image/webp']);

const EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
} as const satisfies Record<StoredContentType, string>;
type Extension = (typeof EXTENSIONS)[StoredContentType];

// A strict whitelist rather than path cleaning: a key that matches cannot contain '..', '/' beyond the
// one separator, or anything else that would leave the kind's folder.
const KEY_PATTERN = new RegExp(
  `^(${FILE_KINDS.join('|')})/([0-9a-f]{32})\\.(${Object.values(EXTENSIONS).join('|')})$`,
);

export function isValidFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

function contentTypeOf(extension: string): StoredContentType | null {
  return DETECTABLE_FILE_TYPES.find((type) => EXTENSIONS[type] === extension) ?? null;
}

function linkPayload(key: string, expires: number): string {
  return `${key}\n${expires}`;
}

export function createFileStorage(
  dataDir: string,
  secret: string,
): FileStorage & {
  verifyLink: (key: string, expires: string | undefined, signature: string | undefined) => boolean;
} {
  const root = join(dataDir, 'files');
  for (const kind of FILE_KINDS) mkdirSync(join(root, kind), { recursive: true });
  const linkKey = deriveKey(secret, 'file-links');
  const pathOf = (key: string) => join(root, key);

  return {
    async put(kind, bytes, contentType) {
      const extension: Extension = EXTENSIONS[contentType];
      const key = `${kind}/${randomBytes(16).toString('hex')}.${extension}`;
      await writeFile(pathOf(key), bytes, { flag: 'wx', mode: 0o600 });
      return { key };
    },
    async read(key) {
      const match = KEY_PATTERN.exec(key);
      const contentType = match?.[3] ? contentTypeOf(match[3]) : null;
      if (!contentType) return null;
      try {
        return { bytes: await readFile(pathOf(key)), contentType };
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
    },
    signedUrl(key, ttlSeconds = DEFAULT_LINK_TTL_SECONDS) {
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
      const names = await readdir(join(root, kind)).catch((error: unknown) => {
        if (isMissingFile(error)) return [];
        throw error;
      });
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

export const storagePlugin = fp(async (app: FastifyInstance) => {
  const storage = createFileStorage(app.config.dataDir, app.config.jwtSecret);
  app.decorate('storage', {
    put: storage.put,
    read: storage.read,
    signedUrl: storage.signedUrl,
    remove: storage.remove,
    list: storage.list,
  } satisfies FileStorage);

  // Registered here, not under the /api routes, so that the link format and its check live in one file.
  app.withTypeProvider<ZodTypeProvider>().get(
    `${FILE_ROUTE_PREFIX}*`,
    {
      schema: {
        tags: ['files'],
        summary: 'Serves a stored file through a signed, expiring link.',
        params: z.object({ '*': z.string() }),
        // Lenient on purpose: a missing or malformed part is the same 403 as a wrong signature.
        querystring: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
        // No response schema: the 200 answer is the file's bytes, which JSON Schema cannot describe.
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      if (!storage.verifyLink(key, request.query.expires, request.query.signature)) {
        return reply.status(403).send({ message: FILE_LINK_INVALID } satisfies ErrorBody);
      }
      const file = await storage.read(key);
      if (!file) return reply.status(404).send({ message: FILE_GONE } satisfies ErrorBody);
      const inline = INLINE_TYPES.has(file.contentType);
      return reply
        .header('Content-Type', file.contentType)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', STORED_FILE_CSP)
        .header(
          'Content-Disposition',
          inline
            ? 'inline'
            : `attachment; filename="kincare-${key.split('/')[0]}.${EXTENSIONS[file.contentType]}"`,
        )
        .send(file.bytes);
    },
  );
});
