import {
  PRESCRIPTION_OCR_MESSAGES,
  prescriptionOcrResponseSchema,
  type LabelExtraction,
} from '../domain/prescription-ocr';
import { uploadResponseSchema } from '../domain/uploads';
import { http } from './http';

// Reading a label photo ("Add from a photo", src/domain/README.md): the photo is uploaded, then the server
// reads it (POST /api/prescriptions/ocr) and answers what it found to prefill the form. This needs a
// connection; without one the form says so and the person types the details (the photo is still attached
// offline).

export type LabelReading = { key: string; message: string; extraction: LabelExtraction };

export async function readLabelPhoto(
  photo: Blob,
  options: { patientId?: string | undefined; online?: () => boolean; signal?: AbortSignal } = {},
): Promise<LabelReading> {
  const online = options.online ?? (() => navigator.onLine);
  if (!online()) throw new Error(PRESCRIPTION_OCR_MESSAGES.offline);
  const form = new FormData();
  form.append('image', photo, photo instanceof File ? photo.name : 'label.jpg');
  const uploaded = await http.post('/upload-image', form, {
    params: { type: 'prescription', ...(options.patientId ? { patient: options.patientId } : {}) },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const key = uploadResponseSchema.parse(uploaded.data).files[0]?.key;
  if (!key) throw new Error(PRESCRIPTION_OCR_MESSAGES.fileUnknown);
  const answer = await http.post(
    '/prescriptions/ocr',
    { s3Key: key, ...(options.patientId ? { patient: options.patientId } : {}) },
    { timeout: 120_000, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const parsed = prescriptionOcrResponseSchema.parse(answer.data);
  return { key, message: parsed.message, extraction: parsed.data };
}
