import { useEffect, useRef } from 'react';
import { ChevronRight, CloudUpload, Stethoscope } from 'lucide-react';
import type { LocalDoctor } from '../../../local/db';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/page';

// The patient's doctors, from the device's table: name, speciality and town; a tap opens the profile, and
// Remove asks first. What a person may do follows their permissions (a patient may do all).

type Props = {
  doctors: LocalDoctor[] | undefined;
  canOpen: boolean;
  canRemove: boolean;
  /** Where the empty list leads: the search, when this person may add doctors. */
  onFindDoctor: (() => void) | null;
  onOpen: (doctor: LocalDoctor) => void;
  onRemove: (doctor: LocalDoctor) => void;
  /** An entry that just arrived or whose neighbour was removed: it takes the focus once shown. */
  focusId: string | null;
  onFocused: () => void;
};

export function MyDoctors({
  doctors,
  canOpen,
  canRemove,
  onFindDoctor,
  onOpen,
  onRemove,
  focusId,
  onFocused,
}: Props) {
  return (
    <section aria-labelledby="my-doctors-heading" className="mb-8">
      <h2 id="my-doctors-heading" tabIndex={-1} className="mb-3 text-heading text-text focus:outline-none">
        My doctors
      </h2>
      {doctors === undefined ? null : doctors.length === 0 ? (
        <EmptyState
          icon={<Stethoscope />}
          title="No doctors in your list yet."
          action={
            onFindDoctor ? (
              <Button variant="secondary" onClick={onFindDoctor}>
                Find a doctor
              </Button>
            ) : null
          }
        >
          {onFindDoctor
            ? 'Search the directory below and add your doctors: their addresses and phone numbers then stay on this device, even without a signal.'
            : 'When doctors are added to this list, they show here.'}
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-labelledby="my-doctors-heading">
          {doctors.map((doctor) => (
            <DoctorItem
              key={doctor.id}
              doctor={doctor}
              canOpen={canOpen}
              canRemove={canRemove}
              onOpen={onOpen}
              onRemove={onRemove}
              focus={doctor.id === focusId}
              onFocused={onFocused}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function DoctorItem({
  doctor,
  canOpen,
  canRemove,
  onOpen,
  onRemove,
  focus,
  onFocused,
}: {
  doctor: LocalDoctor;
  canOpen: boolean;
  canRemove: boolean;
  onOpen: (doctor: LocalDoctor) => void;
  onRemove: (doctor: LocalDoctor) => void;
  focus: boolean;
  onFocused: () => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!focus) return;
    ref.current?.focus();
    onFocused();
  }, [focus, onFocused]);
  const place = [doctor.city, doctor.state].filter(Boolean).join(', ');
  const summary = (
    <>
      <span className="block font-semibold text-text [overflow-wrap:anywhere]">{doctor.name}</span>
      <span className="block text-small text-muted [overflow-wrap:anywhere]">
        {doctor.speciality}
        {place ? ` · ${place}` : ''}
      </span>
    </>
  );
  return (
    <li
      ref={ref}
      tabIndex={-1}
      data-doctor-entry={doctor.id}
      className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
    >
      <div className="min-w-0 flex-1">
        {canOpen ? (
          <button
            type="button"
            onClick={() => onOpen(doctor)}
            aria-haspopup="dialog"
            className="flex min-h-11 w-full items-center justify-between gap-2 rounded-control text-left hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
          >
            <span className="min-w-0">{summary}</span>
            <ChevronRight aria-hidden="true" className="h-5 w-5 shrink-0 text-muted" />
          </button>
        ) : (
          <p>{summary}</p>
        )}
        {doctor.version === 0 ? (
          <Badge tone="warning" icon={<CloudUpload />} className="mt-1">
            Not synced yet
          </Badge>
        ) : null}
      </div>
      {canRemove ? (
        <Button variant="ghost" onClick={() => onRemove(doctor)} aria-label={`Remove ${doctor.name}`}>
          Remove
        </Button>
      ) : null}
    </li>
  );
}
