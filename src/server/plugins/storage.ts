import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErrorBody } from '../../domain/errors';
import { createDiskStorage, FILE_ROUTE_PREFIX, type DiskStorage } from '../storage/disk-storage';
import { contentDispositionOf, type FileStorage } from '../storage/file-keys';

// The one file store of the app (app.storage): uploaded profile photos, lab reports, prescription images
// and appointment letters. On local disk under DATA_DIR/files by default (storage/disk-storage.ts), in
// an S3-compatible object store when S3_BUCKET is set (storage/s3-storage.ts); both behind the same five
// methods, with the same keys (storage/file-keys.ts). Files are never served by a public path: callers
// hand out signed links that expire, the disk store's served here (GET /api/files/<key>?expires&signature),
// the object store's presigned by it and served by it.
// A file served here can never act as a page of this site: it comes with a CSP of `default-src 'none';
// sandbox` (a PDF or an image with scripts in it runs nothing, reaches nothing, and has no origin to read
// cookies or storage from), and only images, which the app shows, are `inline`; anything else is a
// download (`attachment`).

export {
  DEFAULT_LINK_TTL_SECONDS,
  FILE_KINDS,
  isValidFileKey,
  type FileKind,
  type FileStorage,
  type StoredContentType,
} from '../storage/file-keys';

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

export const FILE_LINK_INVALID = 'This link is invalid or has expired.';
export const FILE_GONE = 'This file no longer exists.';
export const STORED_FILE_CSP = "default-src 'none'; sandbox";

export const storagePlugin = fp(async (app: FastifyInstance) => {
  if (app.config.s3) {
    // Loaded only when used: the AWS SDK is large, and the default install keeps files on disk.
    const { createS3Storage } = await import('../storage/s3-storage');
    const storage = createS3Storage(app.config.s3);
    app.addHook('onClose', async () => storage.close());
    app.decorate('storage', fileStorageOf(storage));
    return;
  }
  const storage = createDiskStorage(app.config.dataDir, app.config.jwtSecret);
  app.decorate('storage', fileStorageOf(storage));
  registerFileRoute(app, storage);
});

/** Only the five methods: the rest of the app cannot reach a store's own parts (verifyLink, close). */
function fileStorageOf({ put, read, signedUrl, remove, list }: FileStorage): FileStorage {
  return { put, read, signedUrl, remove, list };
}

/** The disk store's links, checked and served here so that the link format and its check stay together. */
function registerFileRoute(app: FastifyInstance, storage: DiskStorage): void {
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
      return reply
        .header('Content-Type', file.contentType)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', STORED_FILE_CSP)
        .header('Content-Disposition', contentDispositionOf(key, file.contentType))
        .send(file.bytes);
    },
  );
}
