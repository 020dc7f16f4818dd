import { Link } from '@tanstack/react-router';
import { HeartHandshake } from 'lucide-react';
import { PermissionSummary } from '../../ui/permission-summary';
import { useAssociatedPatients, useSelectedPatientId } from '../../shell/use-selected-patient';
import { useReceivedRequests } from './use-care-lists';
import { Card } from '../../ui/card';

// The caregiver's dashboard card: whom they are looking after now and what that patient lets them do, or
// what to do first (select a patient, or answer the requests waiting).

const linkClass =
  'inline-flex min-h-11 items-center font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function CaregiverSummary() {
  const selected = useSelectedPatientId();
  const patients = useAssociatedPatients();
  const requests = useReceivedRequests();
  // Drawn once both are read, below Home's cards: drawn before, it grew (and moved) as each arrived.
  if (patients === undefined || requests === undefined) return null;
  const patient = patients.find((entry) => entry.patient_id === selected);
  const waiting = requests.length;
  return (
    <Card aria-labelledby="care-summary-heading" data-testid="care-summary" padding="tile" className="mt-4">
      <h2 id="care-summary-heading" className="mb-2 flex items-center gap-2 text-heading text-text">
        <HeartHandshake aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
        {patient ? `You are helping ${patient.name}` : 'Your patients'}
      </h2>
      {patient ? (
        <>
          <p className="mb-2 text-muted">What {patient.name} lets you see and do:</p>
          <PermissionSummary
            permissions={patient.permissions}
            empty="No permissions yet: ask for them under Permission Requests."
          />
        </>
      ) : (
        <p className="text-muted">
          {patients.length > 0
            ? 'Select a patient in ‘Select Patient’ at the top to see their records.'
            : 'Accept a patient’s request to start helping them.'}
        </p>
      )}
      <p className="mt-2" data-testid="care-summary-requests">
        {waiting === 0
          ? 'No requests are waiting for your answer.'
          : `${waiting === 1 ? '1 request is' : `${waiting} requests are`} waiting for your answer.`}
      </p>
      <Link to="/caregiver/patients" className={linkClass}>
        {waiting > 0 ? 'Answer requests' : 'Go to Patients'}
      </Link>
    </Card>
  );
}
