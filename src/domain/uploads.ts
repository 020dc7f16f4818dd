import { z } from 'zod';

// POST /api/upload-image?type= and GET /api/upload-image/preview_image (API.md).

/** API.md's three, and `appointment` for letters and cards attached to appointments. */
export const UPLOAD_TYPES = ['lab', 'prescription', 'profile', 'appointment'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const UPLOAD_MESSAGES = {
  typeInvalid: 'type must be lab, prescription, profile or appointment.',
  fileMissing: 'Choose a file to upload (form field "image").',
  fileType: 'Upload a photo (PNG, JPEG or WebP) or a PDF.',
  profileType: 'Profile photo must be a PNG, JPEG or WebP image.',
  keyInvalid: 'The file key is not valid.',
  notFound: 'File not found.',
} as const;

/** A stored file's key: `<type>/<32 hex>.<ext>` (the server's store checks it strictly too). */
export const fileKeySchema = z
  .string()
  .regex(
    /^(lab|prescription|profile|appointment)\/[0-9a-f]{32}\.(png|jpg|webp|pdf)$/,
    UPLOAD_MESSAGES.keyInvalid,
  );

export const uploadQuerySchema = z.object({
  type: z.enum(UPLOAD_TYPES, { error: UPLOAD_MESSAGES.typeInvalid }),
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
