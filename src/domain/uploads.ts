import { z } from 'zod';

// POST /api/upload-image?type= and GET /api/upload-image/preview_image (src/server/routes/README.md).

export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Lab reports, prescriptions, profile photos, and letters and cards attached to appointments. */
export const UPLOAD_TYPES = ['lab', 'prescription', 'profile', 'appointment'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** "200 MB", "2 GB", "1.5 GB": sizes as people read them (binary units, as file managers count). */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GB'],
    [1024 ** 2, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

export const UPLOAD_MESSAGES = {
  typeInvalid: 'type must be lab, prescription, profile or appointment.',
  fileMissing: 'Choose a file to upload (form field "image").',
  fileType: 'Upload a photo (PNG, JPEG, WebP or HEIC) or a PDF.',
  profileType: 'Profile photo must be a PNG, JPEG or WebP image.',
  tooLarge: 'The file must be at most 10 MB.',
  profileTooLarge: 'Profile photo must be at most 5 MB.',
  keyInvalid: 'The file key is not valid.',
  notFound: 'File not found.',
  tooManyUploads: 'Too many uploads in a minute. Please wait a minute and try again.',
  dailyFiles: (files: number) =>
    `You have uploaded ${files} files in the last 24 hours, the most allowed in a day. Please try again tomorrow.`,
  dailyBytes: (bytes: number) =>
    `This file would take you past ${formatBytes(bytes)} of uploads in a day. Please try again tomorrow.`,
  storageFull: (bytes: number) =>
    `This file would take you past your ${formatBytes(bytes)} of stored files. Remove attachments you no longer need, then try again.`,
  imageTooManyPixels: (pixels: number) =>
    `This image is too large: it may have at most ${Number((pixels / 1_000_000).toFixed(1))} million pixels. Save a smaller copy and upload that.`,
  imageUnreadable: 'This image could not be read. Save it again as a PNG, JPEG or WebP and upload that.',
  imageTooDemanding:
    'This photo needs more memory to convert than one photo may use, so it was not kept. Save it as a JPEG and upload that.',
  convertersBusy: (seconds: number) =>
    `Your earlier photos are still being converted. Please try again in about ${seconds} seconds.`,
  profileForPatient: 'A profile photo is your own: leave out patient.',
} as const;

/** HEIC/HEIF (iPhone photos) is taken in and kept as a JPEG (the server converts it as it arrives). */
const DOCUMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
] as const;

/** What each kind of upload accepts (the server checks the real type by the file's first bytes). */
export const ACCEPTED_UPLOAD_TYPES: Record<UploadType, readonly string[]> = {
  lab: DOCUMENT_TYPES,
  prescription: DOCUMENT_TYPES,
  appointment: DOCUMENT_TYPES,
  profile: PROFILE_PHOTO_TYPES,
};

/** The largest document the app lets a person choose; the server's UPLOAD_LIMIT_BYTES defaults to the same. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** Why a chosen file cannot be uploaded as `type`, or null when it can. */
export function uploadProblem(type: UploadType, file: { type: string; size: number }): string | null {
  const profile = type === 'profile';
  if (!ACCEPTED_UPLOAD_TYPES[type].includes(file.type))
    return profile ? UPLOAD_MESSAGES.profileType : UPLOAD_MESSAGES.fileType;
  if (file.size > (profile ? PROFILE_PHOTO_MAX_BYTES : UPLOAD_MAX_BYTES))
    return profile ? UPLOAD_MESSAGES.profileTooLarge : UPLOAD_MESSAGES.tooLarge;
  return null;
}

/**
 * A stored file's key: `<type>/<owner: 32 hex>/<32 hex>.<ext>`, or `<type>/<32 hex>.<ext>` as keys were
 * written before files had owners (the server's store checks it strictly too).
 */
export const fileKeySchema = z
  .string()
  .regex(
    /^(lab|prescription|profile|appointment)\/([0-9a-f]{32}\/)?[0-9a-f]{32}\.(png|jpg|webp|pdf)$/,
    UPLOAD_MESSAGES.keyInvalid,
  );

export const uploadQuerySchema = z.object({
  type: z.enum(UPLOAD_TYPES, { error: UPLOAD_MESSAGES.typeInvalid }),
  /** The patient the document is for (a caregiver's upload); the patient's own by default. */
  patient: z.uuid({ error: 'Choose a valid patient.' }).optional(),
});
export const uploadResponseSchema = z.object({
  files: z.array(z.object({ url: z.string(), key: z.string() })).min(1),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export const previewQuerySchema = z.object({
  key: fileKeySchema,
  type: z.enum(UPLOAD_TYPES, { error: UPLOAD_MESSAGES.typeInvalid }).optional(),
});
export const previewResponseSchema = z.object({ url: z.string() });
