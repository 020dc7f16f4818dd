import { ACCEPTED_UPLOAD_TYPES, UPLOAD_MESSAGES, type UploadType } from '../../domain/uploads';
import type { Permission } from '../../domain/permissions';
import type { Database } from '../db/client';
import { uploads } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import { mayActOn, notAllowed } from './access';
import type { FileStorage, StoredContentType } from '../plugins/storage';
import { HttpError } from '../plugins/errors';
import { detectFileType, imageSizeProblem, isHeic } from './file-type';
import { HeicConversionFailure, type HeicConverter } from './heic';
import { heifProblem } from './heif-boxes';
import type { Transaction } from './transaction';
import { checkUploadBytes, lockUploadsOf, type UploadQuota } from './upload-quota';

// One way to take in a file a person sends (POST /api/upload-image, and a lab report's own multipart form):
// its real type read from its first bytes, the pixel cap of an image read from its header, then the file
// stored and recorded as theirs (the uploads row: who may point a record at it, and the quota's count).

/** The HTTP answer of a HEIC conversion that failed. */
function conversionRefusal(error: unknown): HttpError {
  if (!(error instanceof HeicConversionFailure)) throw error;
  if (error.reason === 'memory') return new HttpError(422, UPLOAD_MESSAGES.imageTooDemanding);
  if (error.reason === 'busy') {
    const seconds = error.retryAfterSeconds ?? 60;
    return new HttpError(503, UPLOAD_MESSAGES.convertersBusy(seconds), undefined, undefined, {
      'retry-after': String(seconds),
    });
  }
  return new HttpError(400, UPLOAD_MESSAGES.imageUnreadable);
}

/**
 * The file as it will be kept and its real type, when `type` accepts it; 415, 413, 422, 503 or 400 with a
 * message for the person otherwise. A HEIC photo (a document, not a profile photo) is kept as a JPEG: its
 * size is read from its own boxes first (any image, grid or tile over `maxPixels` is refused, and so is a
 * malformed file), and only then is it converted, in a sandbox process (see heic.ts). `account` is whose
 * upload it is, for the converters' fair queue.
 */
export async function acceptedFile(
  bytes: Buffer,
  type: UploadType,
  limits: { maxPixels: number; converter: HeicConverter; account: string },
): Promise<{ bytes: Buffer; contentType: StoredContentType }> {
  const { maxPixels } = limits;
  if (type !== 'profile' && isHeic(bytes)) {
    const problem = heifProblem(bytes, maxPixels);
    if (problem?.kind === 'malformed') throw new HttpError(400, UPLOAD_MESSAGES.imageUnreadable);
    if (problem?.kind === 'too-many-pixels')
      throw new HttpError(413, UPLOAD_MESSAGES.imageTooManyPixels(maxPixels));
    const jpeg = await limits.converter.toJpeg(bytes, limits.account).catch((error: unknown) => {
      throw conversionRefusal(error);
    });
    return { bytes: jpeg, contentType: acceptedFileType(jpeg, type, maxPixels) };
  }
  return { bytes, contentType: acceptedFileType(bytes, type, maxPixels) };
}

/** The file's real type when `type` accepts it; 415, 413 or 400 with a message for the person otherwise. */
export function acceptedFileType(bytes: Buffer, type: UploadType, maxPixels: number): StoredContentType {
  const contentType = detectFileType(bytes);
  if (!contentType || !ACCEPTED_UPLOAD_TYPES[type].includes(contentType)) {
    throw new HttpError(415, type === 'profile' ? UPLOAD_MESSAGES.profileType : UPLOAD_MESSAGES.fileType);
  }
  const sizeProblem = imageSizeProblem(bytes, contentType, maxPixels);
  if (sizeProblem === 'too-many-pixels')
    throw new HttpError(413, UPLOAD_MESSAGES.imageTooManyPixels(maxPixels));
  if (sizeProblem === 'unreadable') throw new HttpError(400, UPLOAD_MESSAGES.imageUnreadable);
  return contentType;
}

/**
 * Stores the file and records it as the person's upload, in `tx`, once their quota allows it: the quota is
 * counted under the person's upload lock, so uploads sent at once are counted one after another
 * (upload-quota.ts). A crash between the write and the commit leaves an unreferenced file (the orphan
 * sweep's to remove), never a record pointing at a missing one.
 */
export async function storeUpload(
  tx: Transaction,
  storage: FileStorage,
  file: {
    ownerUserId: string;
    /** Whose folder it goes in: the patient it belongs to (see uploadFolder), or the person's own. */
    folder: string;
    type: UploadType;
    bytes: Buffer;
    contentType: StoredContentType;
  },
  quota: UploadQuota,
): Promise<string> {
  await lockUploadsOf(tx, file.ownerUserId);
  await checkUploadBytes(tx, file.ownerUserId, file.bytes.length, quota);
  const { key } = await storage.put(file.type, file.bytes, file.contentType, file.folder);
  await tx
    .insert(uploads)
    .values({ key, ownerUserId: file.ownerUserId, kind: file.type, sizeBytes: file.bytes.length });
  return key;
}

/** What a caregiver must hold on a patient to file a document in the patient's folder. */
const FILING_PERMISSIONS: Record<Exclude<UploadType, 'profile'>, readonly Permission[]> = {
  lab: ['AddLabReport', 'EditLabReport'],
  prescription: ['AddPrescription', 'EditPrescription'],
  appointment: ['AddAppointment', 'EditAppointment'],
};

/**
 * The folder (owner) of a new upload: the patient it is for. A patient's documents go in their own folder;
 * a caregiver names the patient (`patient`) and must be allowed to add or change that kind of record for
 * them (403 otherwise); a caregiver who names nobody, and every profile photo, use the person's own id.
 */
export async function uploadFolder(
  db: Database,
  auth: AuthUser,
  type: UploadType,
  patient: string | undefined,
): Promise<string> {
  if (type === 'profile') {
    if (patient) throw new HttpError(400, UPLOAD_MESSAGES.profileForPatient);
    return auth.userId;
  }
  if (!patient) return auth.patientId ?? auth.userId;
  for (const permission of FILING_PERMISSIONS[type]) {
    if (await mayActOn(db, auth, patient, permission)) return patient;
  }
  throw notAllowed();
}
