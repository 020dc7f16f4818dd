import { Camera, Plus, ScanText, X } from 'lucide-react';
import { MAX_DOSE_TIMES } from '../../../domain/prescriptions';
import { PRESCRIPTION_OCR_MESSAGES } from '../../../domain/prescription-ocr';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { FileField } from '../../ui/fields';
import { GroupError } from '../../ui/form';
import { useOnline } from '../../ui/use-online';
import { PHOTO_TYPES, type LabelPhotoState } from './use-label-photo';

// The controls of the prescription form that are not plain fields: the list of dose times, and the label
// photo with its Read from photo button (see prescription-form.tsx).

const inputClass = (error?: string) =>
  `block min-h-11 w-full min-w-0 rounded-control border bg-surface px-3 py-2 text-base text-text shadow-sm focus:outline-none focus:ring-2 focus:ring-focus ${
    error ? 'border-danger' : 'border-border-strong'
  }`;

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
/** A phone or tablet: the pointer is a finger (where `capture` opens the camera). */
function touchScreen(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches === true;
}

export function LabelPhotoBox({ photo, replacing }: { photo: LabelPhotoState; replacing: boolean }) {
  const online = useOnline();
  const { reading, readFailure } = photo;
  return (
    <Card as="div" variant="dashed" padding="snug" className="mb-4 sm:col-span-2">
      <p className="mb-2 flex items-center gap-2 text-small font-medium text-text">
        <Camera aria-hidden="true" className="h-5 w-5" />
        Have the label? Take a photo of it: the details are read from it for you to check.
      </p>
      <FileField
        label={replacing ? 'Replace the label photo' : 'Label photo'}
        accept={PHOTO_TYPES.join(',')}
        capture="environment"
        error={photo.error}
        onChoose={photo.choose}
      />
      {/* The camera field takes no saved picture on a phone: this one opens the photo library. */}
      {touchScreen() ? (
        <FileField label="Or choose a saved photo" accept={PHOTO_TYPES.join(',')} onChoose={photo.choose} />
      ) : null}
      {photo.previewUrl ? (
        <img
          src={photo.previewUrl}
          alt="The chosen label photo"
          className="mb-3 max-h-48 max-w-full rounded-control object-contain ring-1 ring-border"
        />
      ) : null}
      <Button variant="secondary" onClick={photo.read} disabled={!photo.canRead}>
        <ScanText aria-hidden="true" className="h-5 w-5" />
        {photo.tried ? 'Read again' : 'Read from photo'}
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
      <GroupError message={readFailure} className="mt-2" />
    </Card>
  );
}
