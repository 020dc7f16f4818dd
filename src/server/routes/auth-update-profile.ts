import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  PROFILE_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_TYPES,
  updateProfileFieldsSchema,
  updateProfileResponseSchema,
} from '../../domain/auth';
import { errorBodySchema } from '../../domain/errors';
import { UPLOAD_MESSAGES } from '../../domain/uploads';
import { HttpError, readingForm } from '../plugins/errors';
import { detectFileType, imageSizeProblem } from '../services/file-type';
import { saveProfileChanges, type ProfileChanges } from '../services/profile';
import { requireProfile, signedIn } from './auth-common';

// PUT /auth/update-profile: a multipart form of text fields (updateProfileFieldsSchema) and an
// optional `photo` file. Everything is checked before anything is stored, so a bad field saves nothing.
// Registered by auth.ts among its signed-in routes: the caller is authenticated before the form is read.

export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully';
export const PHOTO_TYPE_MESSAGE = UPLOAD_MESSAGES.profileType;
export const PHOTO_SIZE_MESSAGE = UPLOAD_MESSAGES.profileTooLarge;
export const NOT_MULTIPART_MESSAGE = 'Send the profile as a multipart form.';
export const ONLY_PHOTO_MESSAGE = 'Only a profile photo can be uploaded here.';
const PHOTO_FIELD = 'photo';

type PhotoType = (typeof PROFILE_PHOTO_TYPES)[number];
/** undefined: the photo stays; null: the form cleared it (a `photo` text field that is empty). */
type PhotoChange = { bytes: Buffer; contentType: PhotoType } | null | undefined;
type ProfileForm = { fields: Record<string, string>; photo: PhotoChange };

function isPhotoType(type: string | null): type is PhotoType {
  return PROFILE_PHOTO_TYPES.some((allowed) => allowed === type);
}

function isFileTooLarge(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE';
}

/** The photo's bytes and real type (read from its first bytes, not from what the browser claims). */
async function readPhoto(part: MultipartFile, maxPixels: number): Promise<PhotoChange> {
  let bytes: Buffer;
  try {
    bytes = await readingForm(() => part.toBuffer());
  } catch (error) {
    if (isFileTooLarge(error)) throw new HttpError(413, PHOTO_SIZE_MESSAGE);
    throw error;
  }
  // A form with an empty file input still sends the part, with no name and no bytes: no change.
  if (bytes.length === 0 && !part.filename) return undefined;
  const contentType = detectFileType(bytes);
  if (!isPhotoType(contentType)) throw new HttpError(415, PHOTO_TYPE_MESSAGE);
  const sizeProblem = imageSizeProblem(bytes, contentType, maxPixels);
  if (sizeProblem === 'too-many-pixels')
    throw new HttpError(413, UPLOAD_MESSAGES.imageTooManyPixels(maxPixels));
  if (sizeProblem === 'unreadable') throw new HttpError(400, UPLOAD_MESSAGES.imageUnreadable);
  return { bytes, contentType };
}

async function readProfileForm(request: FastifyRequest, maxPixels: number): Promise<ProfileForm> {
  if (!request.isMultipart()) throw new HttpError(415, NOT_MULTIPART_MESSAGE);
  const form: ProfileForm = { fields: {}, photo: undefined };
  await readingForm(async () => {
    for await (const part of request.parts({ limits: { fileSize: PROFILE_PHOTO_MAX_BYTES } })) {
      if (part.type === 'file') {
        if (part.fieldname !== PHOTO_FIELD) throw new HttpError(400, ONLY_PHOTO_MESSAGE);
        form.photo = await readPhoto(part, maxPixels);
      } else if (part.fieldname === PHOTO_FIELD) {
        if (part.value === '') form.photo = null;
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  });
  return form;
}

/** A union's own message is a generic "Invalid input"; the first branch's message says what is wanted. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union') return issue.errors[0]?.[0]?.message ?? issue.message;
  return issue.message;
}

/**
 * The changes, or a 400 in the error handler's shape listing each bad field once, with its first
 * problem: the schema's checks do not stop at the first failure, and "29/02/1980" would otherwise also
 * be reported as a date in the future.
 */
function parseProfileFields(fields: Record<string, string>): ProfileChanges {
  const parsed = updateProfileFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: { msg: string; path: string }[] = [];
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    if (!errors.some((seen) => seen.path === path)) errors.push({ msg: issueMessage(issue), path });
  }
  throw new HttpError(400, errors[0]?.msg ?? 'The profile is not valid.', undefined, { errors });
}

/** The replaced photo is no longer referenced; failing to delete it only wastes disk, so it is logged. */
async function removeQuietly(request: FastifyRequest, key: string): Promise<void> {
  try {
    await request.server.storage.remove(key);
  } catch (error) {
    request.log.warn({ err: error, key }, 'could not delete the replaced profile photo');
  }
}

export const updateProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/update-profile',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Updates profile fields (multipart text fields; an empty value clears one) and the optional `photo` ' +
          '(PNG, JPEG or WebP, at most 5 MB; an empty `photo` text field removes it).',
        ...signedIn,
        consumes: ['multipart/form-data'],
        response: {
          200: updateProfileResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { userId } = request.auth;
      const form = await readProfileForm(request, app.config.uploads.maxPixels);
      const changes = parseProfileFields(form.fields);
      const stored = form.photo
        ? await app.storage.put('profile', form.photo.bytes, form.photo.contentType, userId)
        : null;
      const photoKey = form.photo === undefined ? undefined : (stored?.key ?? null);
      const saved = await saveProfileChanges(app.db, userId, changes, photoKey).catch(
        async (error: unknown) => {
          if (stored) await app.storage.remove(stored.key); // nothing points at it: do not leave it behind
          throw error;
        },
      );
      if (saved.replacedPhotoKey) await removeQuietly(request, saved.replacedPhotoKey);
      return {
        success: true as const,
        message: PROFILE_UPDATED_MESSAGE,
        data: await requireProfile(app, userId),
      };
    },
  );
};
