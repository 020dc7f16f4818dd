import { ChevronRight, CloudUpload, MapPin } from 'lucide-react';
import type { DirectoryDoctor } from '../../../domain/directory';
import { addressLine } from '../../../domain/places';
import type { LocalDoctor } from '../../../local/db';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';

// How a doctor reads on the doctors screen: an entry of "My doctors" (name, speciality and town; a tap
// opens the profile; Remove asks first) and a result of "Find a doctor" (with the distance after a zip).

export function DoctorEntry({
  doctor,
  canOpen,
  canRemove,
  onOpen,
  onRemove,
}: {
  doctor: LocalDoctor;
  canOpen: boolean;
  canRemove: boolean;
  onOpen: (doctor: LocalDoctor) => void;
  onRemove: (doctor: LocalDoctor) => void;
}) {
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
    <>
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
    </>
  );
}

export function DoctorResult({
  doctor,
  searchedByZip,
  onOpen,
}: {
  doctor: DirectoryDoctor;
  searchedByZip: boolean;
  /** Opens the profile, or null without View Doctor Profile. */
  onOpen: ((doctor: DirectoryDoctor) => void) | null;
}) {
  return (
    <>
      {onOpen ? (
        <button
          type="button"
          aria-haspopup="dialog"
          onClick={() => onOpen(doctor)}
          className="block min-h-11 w-full rounded-control text-left font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          {doctor.name}
        </button>
      ) : (
        <p className="font-semibold [overflow-wrap:anywhere]">{doctor.name}</p>
      )}
      <p className="text-small text-text">{doctor.speciality}</p>
      <p className="text-small text-muted [overflow-wrap:anywhere]">{addressLine(doctor)}</p>
      {searchedByZip && doctor.distance_miles !== null && doctor.distance_miles !== undefined ? (
        <p className="flex items-center gap-1 text-small text-muted">
          <MapPin aria-hidden="true" className="h-4 w-4" />
          {doctor.distance_miles.toFixed(1)} miles away
        </p>
      ) : null}
    </>
  );
}
