import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { patients, records, uploads } from '../db/schema';
import { OcrError, type OcrContentType, type OcrResult, type OcrService } from '../ocr/ocr-service';
import type { FileStorage } from '../plugins/storage';
import { HttpError } from '../plugins/errors';

// What reading an uploaded document takes, whatever it is (a prescription label, a lab report): the file
// must be one the caller or the patient they act for uploaded; it is read by the one OCR service, whose
// refusals become HTTP answers with their plain-English message; names it gives (a prescriber, a
// pharmacy, an ordering doctor) are matched to the patient's own lists.

export type DocumentReaders = { db: Database; storage: FileStorage; ocr: OcrService };

const OCR_STATUS: Record<OcrError['reason'], number> = {
  'too-large': 413,
  'too-many-pages': 422,
  'too-complex': 422,
  unreadable: 422,
  timeout: 503,
  busy: 503,
};

/**
 * The OCR service's reading of an uploaded file: 404 with `unknownMessage` unless the caller or the patient
 * uploaded it (a caregiver reads the patient's file), the OCR service's refusal as its HTTP status.
 */
export async function readUploadedDocument(
  deps: DocumentReaders,
  input: { key: string; callerUserId: string; patientId: string; unknownMessage: string },
): Promise<OcrResult> {
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
  if (!upload) throw new HttpError(404, input.unknownMessage);
  const file = await deps.storage.read(input.key);
  if (!file) throw new HttpError(404, input.unknownMessage);
  try {
    // The fair queue's lane is the caller's: a caregiver reading for several patients has one lane.
    return await deps.ocr.recognize(file.bytes, file.contentType as OcrContentType, input.callerUserId);
  } catch (error) {
    if (error instanceof OcrError) {
      const retry = error.retryAfterSeconds;
      throw new HttpError(
        OCR_STATUS[error.reason],
        error.message,
        undefined,
        undefined,
        retry === undefined ? undefined : { 'retry-after': String(retry) },
      );
    }
    throw error;
  }
}

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

/** The entry whose name holds every word of the document's name (case and punctuation aside), if just one does. */
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
export async function listedNames(
  db: Database,
  resource: 'doctors' | 'pharmacies',
  patientId: string,
  idField: string,
): Promise<{ name: string; id: string }[]> {
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
