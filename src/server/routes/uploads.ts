import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import {
  previewQuerySchema,
  previewResponseSchema,
  UPLOAD_MESSAGES,
  uploadQuerySchema,
  uploadResponseSchema,
  type UploadResponse,
} from '../../domain/uploads';
import { records, uploads } from '../db/schema';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { mayActOn, requireBetaPolicyAccepted } from '../services/access';
import { RESOURCE_READ_PERMISSION } from '../../domain/permissions';
import type { SyncedResource } from '../../domain/sync';
import { HttpError, readingForm } from '../plugins/errors';
import { acceptedFile, storeUpload, uploadFolder } from '../services/stored-files';
import { checkUploadBytes, checkUploadCount, isAnsweredUpload } from '../services/upload-quota';
import { IDEMPOTENCY_HEADER } from '../../domain/sync';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// POST /api/upload-image?type=: stores one file (multipart field `image`) after checking its real type by
// its first bytes, records who uploaded it, and answers its key and a signed link. With an
// Idempotency-Key (the sync engine sends one per file chosen offline) a repeated upload stores nothing
// new and answers the same key. GET /api/upload-image/preview_image gives the owner a fresh signed link.
// Each person's uploads are limited per minute (rate limit) and per day and in all (services/upload-quota),
// and an image whose header claims more than UPLOAD_MAX_PIXELS pixels is refused.

const FILE_FIELD = 'image';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  429: errorBodySchema,
};

/** Whether a record the caller may read (own, or a patient who granted the resource's Read permission) holds this file. */
async function referencedByReadableRecord(db: Database, auth: AuthUser, key: string): Promise<boolean> {
  const holders = await db
    .select({ resource: records.resource, patientId: records.patientId })
    .from(records)
    .where(and(sql`${records.data}->>'attachment_key' = ${key}`, isNull(records.deletedAt)));
  for (const holder of holders) {
    const permission = RESOURCE_READ_PERMISSION[holder.resource as SyncedResource];
    if (permission && (await mayActOn(db, auth, holder.patientId, permission))) return true;
  }
  return false;
}

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  const { uploads: quota } = app.config;

  app.post(
    '/',
    {
      config: {
        rateLimit: {
          max: app.config.rateLimits.uploadsPerMinute,
          timeWindow: '1 minute',
          // After authentication (onRequest, where the signed-in routes are registered): counted per person.
          hook: 'preHandler',
          keyGenerator: (request) => `upload|${request.auth.userId}`,
          errorResponseBuilder: () => new HttpError(429, UPLOAD_MESSAGES.tooManyUploads),
        },
      },
      schema: {
        tags: ['files'],
        headers: mutationHeadersSchema,
        querystring: uploadQuerySchema,
        response: { 201: uploadResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = request.auth;
      // Before the file is read: no bytes of someone who may not store anything yet are taken in.
      await requireBetaPolicyAccepted(app.db, userId);
      if (!request.isMultipart()) throw new HttpError(415, 'Send the file as a multipart form.');
      const { type, patient } = request.query;
      // Whose folder it goes in, before any byte is read: a caregiver may file only for their patients.
      const folder = await uploadFolder(app.db, request.auth, type, patient);
      const header = request.headers[IDEMPOTENCY_HEADER];
      // A replay stores nothing new: it is not counted, and a full quota must not hide its answer.
      const replay = await isAnsweredUpload(app.db, userId, typeof header === 'string' ? header : undefined);
      if (!replay) await checkUploadCount(app.db, userId, quota);
      const part = await readingForm(() => request.file());
      if (!part || part.fieldname !== FILE_FIELD) throw new HttpError(400, UPLOAD_MESSAGES.fileMissing);
      const sent = await readingForm(() => part.toBuffer());
      const { bytes, contentType } = await acceptedFile(sent, type, {
        maxPixels: quota.maxPixels,
        converter: app.heic,
        account: userId,
      });
      if (!replay) await checkUploadBytes(app.db, userId, bytes.length, quota);
      const fingerprint = createHash('sha256').update(`upload ${type} `).update(sent).digest('base64url');
      const withFreshLink = async (body: unknown) => {
        const key = (body as UploadResponse).files[0]?.key ?? '';
        return { files: [{ url: await app.storage.signedUrl(key), key }] } satisfies UploadResponse;
      };
      return sendIdempotent(
        request,
        reply,
        async (tx) => {
          const key = await storeUpload(
            tx,
            app.storage,
            {
              ownerUserId: userId,
              folder,
              type,
              bytes,
              contentType,
            },
            quota,
          );
          return {
            statusCode: 201,
            body: { files: [{ url: await app.storage.signedUrl(key), key }] } satisfies UploadResponse,
          };
        },
        // A replayed answer's link may have expired: the same key, with a fresh link.
        { fingerprint, present: withFreshLink },
      );
    },
  );

  app.get(
    '/preview_image',
    {
      schema: {
        tags: ['files'],
        querystring: previewQuerySchema,
        response: { 200: previewResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { key } = request.query;
      const [stored] = await app.db.select().from(uploads).where(eq(uploads.key, key)).limit(1);
      if (
        !stored ||
        !(
          stored.ownerUserId === request.auth.userId ||
          (await referencedByReadableRecord(app.db, request.auth, key))
        )
      ) {
        throw new HttpError(404, UPLOAD_MESSAGES.notFound);
      }
      return { url: await app.storage.signedUrl(key) };
    },
  );
};
