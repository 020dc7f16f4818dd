import { z } from 'zod';
import { PRESCRIPTION_FORMS, PRESCRIPTION_MESSAGES } from './prescriptions';
import { fileKeySchema } from './uploads';

// "Add from a photo" (README.md beside this file): the call that reads a label photo, what it answers to
// prefill the prescription form for review, and its messages.

const uuid = (message: string) => z.uuid({ error: message });

/** POST /api/prescriptions/ocr { s3Key }: a label photo uploaded with type=prescription. */
export const prescriptionOcrBodySchema = z.object({
  s3Key: fileKeySchema,
  /** The patient whose doctors and pharmacies the prescriber and pharmacy are matched to. */
  patient: uuid(PRESCRIPTION_MESSAGES.patientInvalid).optional(),
});

/** What a label photo gave, to prefill the form for review; null where the label did not say. */
export const labelExtractionSchema = z.object({
  medicine_name: z.string().nullable(),
  strength: z.string().nullable(),
  form: z.enum(PRESCRIPTION_FORMS).nullable(),
  directions: z.string().nullable(),
  quantity: z.number().nullable(),
  refills: z.number().nullable(),
  prescriber: z.string().nullable(),
  pharmacy: z.string().nullable(),
  rx_number: z.string().nullable(),
  /** The directions as dose times ('twice daily' -> 08:00, 20:00); empty when as needed or not understood. */
  times: z.array(z.string()),
  as_needed: z.boolean(),
  directions_understood: z.boolean(),
  /** The prescriber and pharmacy matched by name to the patient's doctors and pharmacies, else null. */
  doctor_id: z.string().nullable(),
  pharmacy_id: z.string().nullable(),
  /** The text read, for the person to compare with the photo. */
  text: z.string(),
  /** Mean OCR confidence, 0-100. */
  confidence: z.number().nullable(),
});
export type LabelExtraction = z.infer<typeof labelExtractionSchema>;
export const prescriptionOcrResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: labelExtractionSchema,
});

export const PRESCRIPTION_OCR_MESSAGES = {
  read: 'Please review the details read from the photo before saving.',
  nothingFound: 'No prescription details could be read from this photo. Type them in instead.',
  offline: 'Reading a label photo needs a connection. You can type the details and attach the photo now.',
  fileUnknown: 'The photo was not found. Upload it again.',
  notPrescriptionFile: 'Upload the photo as a prescription file (type=prescription).',
  busy: 'Too many photos are being read right now. Please try again in a minute.',
} as const;
