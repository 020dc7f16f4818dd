import { useEffect, useMemo, useState } from 'react';
import { PRESCRIPTION_OCR_MESSAGES, type LabelExtraction } from '../../../domain/prescription-ocr';
import { ACCEPTED_UPLOAD_TYPES, uploadProblem } from '../../../domain/uploads';
import { readLabelPhoto } from '../../../local/prescription-ocr';
import type { LabelPhoto } from '../../../local/prescriptions';
import { failureText } from '../../ui/use-submit';
import { extractionFoundSomething } from './prescription-form-values';

// The prescription form's label photo: choosing it (a photo only: the label is read from an image), its
// preview, and reading the details from it (online only). Reading starts as soon as a photo is chosen: a
// person who just took the picture should not have to find a second button; "Read again" is there for a
// reading that failed or was made offline. A photo read is on the server already: the prescription then
// points at it instead of uploading it again.

export const PHOTO_TYPES = ACCEPTED_UPLOAD_TYPES.prescription.filter((type) => type.startsWith('image/'));
export const PHOTO_TYPE_MESSAGE = 'Choose a photo of the label (PNG, JPEG or WebP).';

export type Reading = { state: 'idle' } | { state: 'reading' } | { state: 'read'; message: string };

const READ_FAILED = 'The label could not be read. Please type the details instead; the photo stays attached.';

export function useLabelPhoto({
  patientId,
  onRead,
}: {
  patientId: string;
  /** A reading that found something: the form takes what it found, for the person to review. */
  onRead: (extraction: LabelExtraction) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploadedKey, setUploadedKey] = useState<string | null>(null);
  const [reading, setReading] = useState<Reading>({ state: 'idle' });
  const [readFailure, setReadFailure] = useState<string | null>(null);
  /** A reading put its findings into the form: closing the form then asks before throwing them away. */
  const [filledForm, setFilledForm] = useState(false);
  const previewUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);

  const read = async (photo: File) => {
    setReadFailure(null);
    if (!navigator.onLine) {
      setReadFailure(PRESCRIPTION_OCR_MESSAGES.offline);
      return;
    }
    setReading({ state: 'reading' });
    try {
      const result = await readLabelPhoto(photo, { patientId });
      setUploadedKey(result.key);
      const found = extractionFoundSomething(result.extraction);
      if (found) {
        onRead(result.extraction);
        setFilledForm(true);
      }
      setReading({
        state: 'read',
        message: found ? PRESCRIPTION_OCR_MESSAGES.read : PRESCRIPTION_OCR_MESSAGES.nothingFound,
      });
    } catch (failure) {
      setReading({ state: 'idle' });
      setReadFailure(failureText(READ_FAILED)(failure));
    }
  };

  const choose = (chosen: File | undefined) => {
    const problem = chosen
      ? chosen.type.startsWith('image/')
        ? uploadProblem('prescription', chosen)
        : PHOTO_TYPE_MESSAGE
      : null;
    setError(problem);
    const accepted = chosen && !problem ? chosen : null;
    setFile(accepted);
    setUploadedKey(null);
    setReading({ state: 'idle' });
    setReadFailure(null);
    if (accepted) void read(accepted);
  };

  /** What a save attaches: the photo read (its key), the photo chosen, or nothing. */
  const photo: LabelPhoto | null = uploadedKey
    ? { uploadedKey }
    : file
      ? { blob: file, name: file.name }
      : null;

  return {
    error,
    previewUrl,
    reading,
    readFailure,
    canRead: file !== null && reading.state !== 'reading',
    /** A reading was tried for the photo chosen (its button then says "Read again"). */
    tried: reading.state === 'read' || readFailure !== null,
    filledForm,
    choose,
    read: () => {
      if (file) void read(file);
    },
    photo,
  };
}

export type LabelPhotoState = ReturnType<typeof useLabelPhoto>;
