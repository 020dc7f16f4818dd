import { type ReactNode } from 'react';
import { Camera, Plus, ScanText, X } from 'lucide-react';
import { MAX_DOSE_TIMES, type Prescription } from '../../../domain/prescriptions';
import { PRESCRIPTION_OCR_MESSAGES } from '../../../domain/prescription-ocr';
import { ACCEPTED_UPLOAD_TYPES } from '../../../domain/uploads';
import { Button } from '../../ui/button';
import { FileField } from '../../ui/fields';

// The parts of the prescription form: a checkbox row, the list of dose times, and the label photo with
// its Read from photo button (see prescription-form.tsx).

export const PHOTO_TYPES = ACCEPTED_UPLOAD_TYPES.prescription.filter((type) => type.startsWith('image/'));
export const PHOTO_TYPE_MESSAGE = 'Choose a photo of the label (PNG, JPEG or WebP).';

export const inputClass = (error?: string) =>
  `block min-h-11 w-full min-w-0 rounded-control border bg-surface px-3 py-2 text-base text-text shadow-sm focus:outline-none focus:ring-2 focus:ring-focus ${
    error ? 'border-danger' : 'border-border-strong'
  }`;

/** Every zone the platform knows, with the chosen one first in the list when it is not among them. */
export type Reading = { state: 'idle' } | { state: 'reading' } | { state: 'read'; message: string };

export function Checkbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-text">
      <input
        type="checkbox"
        className="h-5 w-5 shrink-0 accent-primary"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="min-w-0">{children}</span>
    </label>
  );
}

/** The dose times as time inputs (5-minute steps), each with a Remove button, and 'Add a time'. */
export function DoseTimes({
  times,
  error,
  onChange,
}: {
  times: string[];
  error: string | undefined;
  onChange: (times: string[]) => void;
}) {
  const addTime = () => {
    // The next time on from the last, so two new rows are never the same time.
    const last = times.at(-1);
    const next = last ? nextHour(last) : '08:00';
    onChange([...times, next]);
  };
  return (
    <div className="mt-1">
      {times.length === 0 ? <p className="mb-2 text-small text-muted">No times yet.</p> : null}
      <ul className="mb-2 flex flex-wrap gap-2">
        {times.map((time, index) => (
          <li key={index} className="flex items-center gap-1">
            <input
              type="time"
              step={300}
              value={time}
              aria-label={`Dose time ${index + 1}`}
              aria-invalid={error ? true : undefined}
              onChange={(event) =>
                onChange(times.map((old, at) => (at === index ? event.target.value : old)))
              }
              className={`${inputClass(error)} w-32`}
            />
            <button
              type="button"
              aria-label={`Remove dose time ${index + 1}`}
              onClick={() => onChange(times.filter((_, at) => at !== index))}
              className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-control text-muted hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus disabled:opacity-60"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" onClick={addTime} disabled={times.length >= MAX_DOSE_TIMES}>
        <Plus aria-hidden="true" className="h-5 w-5" />
        Add a time
      </Button>
    </div>
  );
}

function nextHour(time: string): string {
  const [hours = 8, minutes = 0] = time.split(':').map(Number);
  return `${String((hours + 1) % 24).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The label photo: choose it, see it, and (online) read the details from it. */
export function LabelPhotoBox({
  editing,
  previewUrl,
  photoError,
  onChoose,
  canRead,
  online,
  reading,
  readFailure,
  onRead,
}: {
  editing: Prescription | null;
  previewUrl: string | null;
  photoError: string | null;
  onChoose: (file: File | undefined) => void;
  canRead: boolean;
  online: boolean;
  reading: Reading;
  readFailure: string | null;
  onRead: () => void;
}) {
  return (
    <div className="mb-4 rounded-card border border-dashed border-border-strong bg-surface-muted p-3 sm:col-span-2">
      <p className="mb-2 flex items-center gap-2 text-small font-medium text-text">
        <Camera aria-hidden="true" className="h-5 w-5" />
        Have the label? Choose a photo of it, then Read from photo to fill in the details.
      </p>
      <FileField
        label={editing?.attachment_key ? 'Replace the label photo' : 'Label photo'}
        accept={PHOTO_TYPES.join(',')}
        error={photoError}
        onChoose={onChoose}
      />
      {previewUrl ? (
        <img
          src={previewUrl}
          alt="The chosen label photo"
          className="mb-3 max-h-48 max-w-full rounded-control object-contain ring-1 ring-border"
        />
      ) : null}
      <Button variant="secondary" onClick={onRead} disabled={!canRead}>
        <ScanText aria-hidden="true" className="h-5 w-5" />
        Read from photo
      </Button>
      {!online && !readFailure ? (
        <p className="mt-2 text-small text-muted">{PRESCRIPTION_OCR_MESSAGES.offline}</p>
      ) : null}
      <div aria-live="polite" className="text-small">
        {reading.state === 'reading' ? (
          <p role="status" className="mt-2 text-text">
            Reading the label…
          </p>
        ) : null}
        {reading.state === 'read' ? (
          <p role="status" className="mt-2 font-semibold text-text">
            {reading.message}
          </p>
        ) : null}
      </div>
      {readFailure ? (
        <p role="alert" className="mt-2 text-small text-danger">
          {readFailure}
        </p>
      ) : null}
    </div>
  );
}
