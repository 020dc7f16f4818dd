import type { ReactNode } from 'react';
import { MapPin, Phone } from 'lucide-react';
import type { DoctorProfile } from '../../../domain/doctors';
import { Button } from '../../ui/button';
import { Sheet } from '../../ui/sheet';
import { addressLine, mapHref, telHref } from '../../../domain/places';

// A doctor's profile: a bottom sheet on a phone, a centred dialog on larger screens (ui/sheet.tsx). It
// reads the copy the list or the search holds, so a listed doctor's profile opens offline too.

const linkClass =
  'inline-flex min-h-11 items-center gap-2 font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

function accepting(value: boolean | null): string {
  if (value === null) return 'Not known';
  return value ? 'Yes' : 'No';
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2">
      <dt className="text-small font-medium text-muted">{term}</dt>
      <dd className="text-text [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

export function DoctorProfileSheet({
  doctor,
  onClose,
}: {
  doctor: DoctorProfile | null;
  onClose: () => void;
}) {
  return (
    <Sheet
      open={doctor !== null}
      onClose={onClose}
      title={doctor?.name ?? 'Doctor'}
      data-testid="doctor-profile"
    >
      {doctor ? (
        <>
          <p className="mt-1 text-muted">{doctor.speciality}</p>
          <dl className="mt-3 divide-y divide-border">
            <Row term="Qualifications">{doctor.qualifications || 'Not known'}</Row>
            <Row term="Gender">{doctor.gender ?? 'Not known'}</Row>
            <Row term="Address">
              <a href={mapHref(doctor)} target="_blank" rel="noopener noreferrer" className={linkClass}>
                <MapPin aria-hidden="true" className="h-5 w-5 shrink-0" />
                {addressLine(doctor)}
                <span className="sr-only"> (opens a map)</span>
              </a>
            </Row>
            <Row term="Phone">
              {doctor.phone ? (
                <a href={telHref(doctor.phone)} className={linkClass}>
                  <Phone aria-hidden="true" className="h-5 w-5 shrink-0" />
                  {doctor.phone}
                </a>
              ) : (
                'Not known'
              )}
            </Row>
            <Row term="NPI">{doctor.npi}</Row>
            <Row term="Accepting new patients">{accepting(doctor.accepting_new_patients)}</Row>
          </dl>
          <div className="mt-4 flex flex-col sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </>
      ) : null}
    </Sheet>
  );
}
