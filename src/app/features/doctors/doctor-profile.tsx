import type { ReactNode } from 'react';
import type { DoctorProfile } from '../../../domain/doctors';
import { Button } from '../../ui/button';
import { MapLink, PhoneLink } from '../../ui/directory/place-links';
import { Sheet } from '../../ui/sheet';

// A doctor's profile: a bottom sheet on a phone, a centred dialog on larger screens (ui/sheet.tsx). It
// reads the copy the list or the search holds, so a listed doctor's profile opens offline too.

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
              <MapLink place={doctor} />
            </Row>
            <Row term="Phone">{doctor.phone ? <PhoneLink phone={doctor.phone} /> : 'Not known'}</Row>
            <Row term="National Provider Identifier (NPI)">{doctor.npi}</Row>
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
