import { doseTimesFromDirections } from '../../domain/directions';
import { readPrescriptionLabel } from '../../domain/prescription-label';
import { PRESCRIPTION_FORMS } from '../../domain/prescriptions';
import { PRESCRIPTION_OCR_MESSAGES as MESSAGES, type LabelExtraction } from '../../domain/prescription-ocr';
import { listedNames, matchByName, readUploadedDocument, type DocumentReaders } from './document-ocr';

export { matchByName };

// "Add from a photo" (src/domain/README.md): POST /api/prescriptions/ocr reads a label photo the caller (or
// the patient they act for) uploaded, with the one OCR service (src/server/ocr), and answers the fields
// the label gave for the person to review: the medicine, strength, form, directions and the dose times
// they mean, quantity, refills, the prescriber and pharmacy matched to the patient's own lists by name.

export async function readLabelFile(
  deps: DocumentReaders,
  input: { key: string; callerUserId: string; patientId: string },
): Promise<{ message: string; data: LabelExtraction }> {
  // The caller's own photo, or one the patient uploaded (a caregiver reading the patient's label).
  const { text, confidence } = await readUploadedDocument(deps, {
    ...input,
    unknownMessage: MESSAGES.fileUnknown,
  });
  const label = readPrescriptionLabel(text);
  const directions = doseTimesFromDirections(label.directions ?? '');
  const [doctors, pharmacies] = await Promise.all([
    listedNames(deps.db, 'doctors', input.patientId, 'doctor_id'),
    listedNames(deps.db, 'pharmacies', input.patientId, 'pharmacy_id'),
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
