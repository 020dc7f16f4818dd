import { isAxiosError } from 'axios';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  labReportOcrResponseSchema,
  type LabReportOcrData,
} from '../domain/lab-reports';
import { uploadResponseSchema } from '../domain/uploads';
import { http } from './http';

// The upload flow (idle -> uploading -> processing -> completed; src/server/services/README.md), on the
// device: the report's file is uploaded with its progress (POST /api/upload-image?type=lab), then the server
// reads it (POST /api/lab-reports/ocr) and answers what it found, which prefills the form for review. This
// needs a connection: offline, the report is kept on the device and read later (lab-report-extractions.ts).
// Failures carry the product's texts (src/domain/lab-reports.ts).

/** A failure of the flow with the text to show the person. */
export class LabUploadError extends Error {
  override name = 'LabUploadError';
}

/** The server's own message of a refused call, if it gave one. */
function serverMessage(error: unknown): string | null {
  if (!isAxiosError(error)) return null;
  const data: unknown = error.response?.data;
  if (typeof data !== 'object' || data === null) return null;
  const message = (data as { message?: unknown }).message;
  return typeof message === 'string' && message ? message : null;
}

/** Uploads the report's file; answers its key. `onProgress` gets whole percents as the bytes go. */
export async function uploadReportFile(
  file: Blob,
  options: {
    /** The patient the report is for: it is filed in their folder. */
    patientId?: string | undefined;
    onProgress?: (percent: number) => void;
    signal?: AbortSignal;
  } = {},
): Promise<string> {
  const form = new FormData();
  form.append('image', file, file instanceof File ? file.name : 'report');
  let response;
  try {
    response = await http.post('/upload-image', form, {
      params: { type: 'lab', ...(options.patientId ? { patient: options.patientId } : {}) },
      timeout: 120_000,
      ...(options.signal ? { signal: options.signal } : {}),
      onUploadProgress: (event) => {
        if (event.total) options.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      },
    });
  } catch (error) {
    const message = serverMessage(error);
    // The server refused the file (its type, its size, a quota): its reason; otherwise the network.
    throw new LabUploadError(message ? MESSAGES.uploadError(message) : MESSAGES.imageUploadFailed);
  }
  const parsed = uploadResponseSchema.safeParse(response.data);
  const key = parsed.success ? parsed.data.files[0]?.key : undefined;
  if (!key) throw new LabUploadError(MESSAGES.fileUrlMissing);
  return key;
}

/** Asks the server to read an uploaded report; answers what it found, or throws with the text to show. */
export async function extractLabReport(
  key: string,
  options: { patientId?: string | undefined; signal?: AbortSignal } = {},
): Promise<LabReportOcrData> {
  let response;
  try {
    response = await http.post(
      '/lab-reports/ocr',
      { s3Key: key, ...(options.patientId ? { patient: options.patientId } : {}) },
      { timeout: 180_000, ...(options.signal ? { signal: options.signal } : {}) },
    );
  } catch (error) {
    // The server's error text (a file it could not read, a busy reader), else no answer at all.
    throw new LabUploadError(serverMessage(error) ?? MESSAGES.noExtraction);
  }
  const parsed = labReportOcrResponseSchema.safeParse(response.data);
  if (!parsed.success) throw new LabUploadError(MESSAGES.notALabReport);
  const { data } = parsed.data;
  if ('error' in data) throw new LabUploadError(data.error || MESSAGES.noExtraction);
  return data;
}
