import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import {
  contentDispositionOf,
  contentTypeOfKey,
  DEFAULT_LINK_TTL_SECONDS,
  isValidFileKey,
  newFileKey,
  type FileStorage,
} from './file-keys';

// The file store on an S3-compatible object store (AWS S3, MinIO, s3rver, ...), chosen by S3_BUCKET.
// Same keys as on disk, under an optional folder (S3_PREFIX); a link is the store's own presigned GET,
// which expires, and which carries the answer's headers in its signature: the content type, `inline`
// for images and `attachment` for the rest (the disk route's rule), and no-store. The store cannot send
// the disk route's sandboxing CSP, but it serves from its own origin, which holds nothing of the app's
// (no cookie, no storage), and only files whose first bytes made them images or PDFs are ever stored.

/** The longest a presigned link may live: SigV4 refuses more than a week. */
const MAX_LINK_TTL_SECONDS = 7 * 24 * 3600;

export type S3StorageOptions = {
  /** Objects per ListObjectsV2 page (S3 gives at most 1000); tests make it small to see several pages. */
  pageSize?: number;
  /** The clock links are signed by (tests sign with a clock in the past to get an expired link). */
  now?: () => number;
};

export type S3Storage = FileStorage & {
  /** Closes the client's connections. */
  close: () => void;
};

function clientConfig(settings: S3Config): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where the S3 API requires them: many S3-compatible servers do not know the newer
    // checksum headers, and a presigned GET must not sign an `x-amz-checksum-mode` that a browser's
    // plain GET would not send.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that stops answering fails the request (the SDK retries twice) instead of holding it open.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  };
}

export function createS3Storage(settings: S3Config, options: S3StorageOptions = {}): S3Storage {
  const client = new S3Client(clientConfig(settings));
  const { bucket, prefix } = settings;
  const pageSize = options.pageSize ?? 1000;
  const now = options.now ?? Date.now;
  const objectName = (key: string) => `${prefix}${key}`;

  return {
    async put(kind, bytes, contentType, owner) {
      const key = newFileKey(kind, contentType, owner);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectName(key),
          Body: bytes,
          ContentType: contentType,
        }),
      );
      return { key };
    },
    async read(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectName(key) }));
        if (!answer.Body) return null;
        return { bytes: Buffer.from(await answer.Body.transformToByteArray()), contentType };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async signedUrl(key, ttlSeconds = DEFAULT_LINK_TTL_SECONDS) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) throw new Error(`not a file key: ${key}`);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: objectName(key),
        ResponseContentType: contentType,
        ResponseContentDisposition: contentDispositionOf(key, contentType),
        ResponseCacheControl: 'no-store',
      });
      const expiresIn = Math.min(Math.max(ttlSeconds, 1), MAX_LINK_TTL_SECONDS);
      // SigV4 needs at least a second; a link asked to expire sooner (an expired one, which the disk
      // store also makes) is signed that much in the past instead.
      const signedAt = now() + Math.min(ttlSeconds - 1, 0) * 1000;
      return getSignedUrl(client, command, { expiresIn, signingDate: new Date(signedAt) });
    },
    async remove(key) {
      if (!isValidFileKey(key)) return;
      // S3 answers a delete of a missing object with success, as the disk store ignores a missing file.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectName(key) }));
    },
    async list(kind) {
      const files: { key: string; modifiedAt: Date }[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: objectName(`${kind}/`),
            MaxKeys: pageSize,
            ContinuationToken: continuationToken,
          }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length) ?? '';
          // Someone else's object under the folder is not ours to judge.
          if (!isValidFileKey(key) || !object.LastModified) continue;
          files.push({ key, modifiedAt: object.LastModified });
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return files;
    },
    close() {
      client.destroy();
    },
  };
}

function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  // Some S3-compatible servers answer a missing object with a bare 404 that the SDK cannot name.
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

/**
 * The origin (scheme, host, port) of this store's presigned links, for the app's Content-Security-Policy.
 * Worked out by presigning a link with placeholder credentials (offline: no request is made, and no real
 * credential is needed), so the SDK's own endpoint rules decide, path-style or virtual-hosted, as for real links.
 */
export async function s3LinkOrigin(settings: S3Config): Promise<string> {
  const client = new S3Client({
    ...clientConfig(settings),
    credentials: { accessKeyId: 'origin-probe', secretAccessKey: 'origin-probe' },
  });
  try {
    const link = await getSignedUrl(
      client,
      new GetObjectCommand({ Bucket: settings.bucket, Key: `${settings.prefix}profile/probe` }),
      { expiresIn: 60 },
    );
    return new URL(link).origin;
  } finally {
    client.destroy();
  }
}
