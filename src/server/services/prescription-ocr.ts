import { and, eq, inArray, isNull } from 'drizzle-orm';
import { doseTimesFromDirections } from '../../domain/directions';
import { readPrescriptionLabel } from '../../domain/prescription-label';
import { PRESCRIPTION_FORMS } from '../../domain/prescriptions';
import { PRESCRIPTION_OCR_MESSAGES as MESSAGES, type LabelExtraction } from '../../domain/prescription-ocr';
import type { Database } from '../db/client';
import { patients, records, uploads } from '../db/schema';
import { OcrError, type OcrContentType, type OcrService } from '../ocr/ocr-service';
import type { FileStorage } from '../plugins/storage';
import { HttpError } from '../plugins/errors';

// "Add from a photo" (issue 11, point 2): POST /api/prescriptions/ocr reads a label photo the caller (or
// the patient they act for) uploaded, with the one OCR service (src/server/ocr), and answers the fields
// the label gave for the person to review: the medicine, strength, form, directions and the dose times
// they mean, quantity, refills, the prescriber and pharmacy matched to the patient's own lists by name.

const OCR_STATUS: Record<OcrError['reason'], number> = {
  'too-large': 413,
  'too-many-pages': 422,
  unreadable: 422,
  timeout: 503,
  busy: 503,
};

/** Words of a name for matching: lower case, no titles, credentials or punctuation. */
function nameWords(name: string): string[] {
  const ignored = new Set([
    'dr',
    'doctor',
    'md',
    'do',
    'np',
    'pa',
    'rph',
    'pharmd',
    'inc',
    'llc',
    'the',
    'of',
  ]);
  return name
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 1 && !ignored.has(word));
}

/** The entry whose name holds every word of the label's name (case and punctuation aside), if just one does. */
export function matchByName<Entry extends { name: string }>(
  label: string | null,
  entries: Entry[],
): Entry | null {
  if (!label) return null;
  const wanted = nameWords(label);
  if (wanted.length === 0) return null;
  const matches = entries.filter((entry) => {
    const words = new Set(nameWords(entry.name));
    return wanted.every((word) => words.has(word));
  });
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

/** The patient's live list entries of a resource (doctors, pharmacies) with the directory id and name. */
async function listed(db: Database, resource: 'doctors' | 'pharmacies', patientId: string, idField: string) {
  const rows = await db
    .select({ data: records.data })
    .from(records)
    .where(and(eq(records.resource, resource), eq(records.patientId, patientId), isNull(records.deletedAt)));
  return rows.flatMap(({ data }) =>
    typeof data.name === 'string' && typeof data[idField] === 'string'
      ? [{ name: data.name, id: data[idField] as string }]
      : [],
  );
}

export async function readLabelFile(
  deps: { db: Database; storage: FileStorage; ocr: OcrService },
  input: { key: string; callerUserId: string; patientId: string },
): Promise<{ message: string; data: LabelExtraction }> {
  // The caller's own photo, or one the patient uploaded (a caregiver reading the patient's label).
  const [patient] = await deps.db
    .select({ userId: patients.userId })
    .from(patients)
    .where(eq(patients.id, input.patientId))
    .limit(1);
  const owners = [input.callerUserId, ...(patient ? [patient.userId] : [])];
  const [upload] = await deps.db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.key, input.key), inArray(uploads.ownerUserId, owners)))
    .limit(1);
  if (!upload) throw new HttpError(404, MESSAGES.fileUnknown);
  const file = await deps.storage.read(input.key);
  if (!file) throw new HttpError(404, MESSAGES.fileUnknown);

  let text: string;
  let confidence: number | null;
  try {
    ({ text, confidence } = await deps.ocr.recognize(file.bytes, file.contentType as OcrContentType));
  } catch (error) {
    if (error instanceof OcrError) throw new HttpError(OCR_STATUS[error.reason], error.message);
    throw error;
  }
  const label = readPrescriptionLabel(text);
  const directions = doseTimesFromDirections(label.directions ?? '');
  const [doctors, pharmacies] = await Promise.all([
    listed(deps.db, 'doctors', input.patientId, 'doctor_id'),
    listed(deps.db, 'pharmacies', input.patientId, 'pharmacy_id'),
  ]);
  const form =
    label.form && (PRESCRIPTION_FORMS as readonly string[]).includes(label.form) ? label.form : null;
  const data: LabelExtraction = {
    medicine_name: label.medicine_name,
    strength: label.strength,
    form: form as LabelExtraction['form'],
    directions: label.directions,
    quantity: label.quantity,
    refills: label.refills,
    prescriber: label.prescriber,
    pharmacy: label.pharmacy,
    rx_number: label.rx_number,
    times: directions.times,
    as_needed: directions.asNeeded,
    directions_understood: directions.understood,
    doctor_id: matchByName(label.prescriber, doctors)?.id ?? null,
    pharmacy_id: matchByName(label.pharmacy, pharmacies)?.id ?? null,
    text: text.slice(0, 20_000),
    confidence,
  };
  return { message: label.fields_found > 0 ? MESSAGES.read : MESSAGES.nothingFound, data };
}
